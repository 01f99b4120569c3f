"""A score value with its bootstrap replicates, and the mean that combines several of them.

Shared by the reference ability scores (stats/aggregate.py) and the strict decision scores
(stats/decision.py).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from leaderboard.stats.cells import Cell


@dataclass
class Value:
    """A score with its bootstrap replicates (None without resamples), what it rests on, and why
    it is missing or incomplete (`note`, shown on the site)."""

    value: float | None
    reps: np.ndarray | None
    questions: set[tuple[str, int]]
    complete: bool
    note: str | None = None


def combine(parts: list[Value], expected: int) -> Value:
    """Mean of the available values (and of their replicates); complete only if all expected are."""
    have = [p for p in parts if p.value is not None]
    if not have:
        return Value(None, None, set(), False)
    reps = None
    if all(p.reps is not None for p in have):
        with warnings.catch_warnings():  # an all-NaN replicate column stays NaN (ignored by the CI)
            warnings.simplefilter("ignore", RuntimeWarning)
            reps = np.nanmean(np.vstack([p.reps for p in have]), axis=0)
    qs = set().union(*(p.questions for p in have))
    complete = len(have) == expected and all(p.complete for p in have)
    return Value(float(np.mean([p.value for p in have])), reps, qs, complete)


def questions(cells: list[Cell], keep: bool = True) -> set[tuple[str, int]]:
    """(data file, id) of the questions present in the cells (with keep=False: only those the
    cell excludes from its ranked score)."""
    return {
        (c.metrics.data_file, i)
        for c in cells
        for i, p, e in zip(c.group.ids, c.present, c.excluded, strict=True)
        if p and (keep or e)
    }

"""Paired differences of ranked scores between two models, for rank ranges.

Two models are compared on the instances both answered. Restricted to those instances, both
models' cells are built on the same question ids of each data file, and the bootstrap draws of a
data file depend only on its ids and the seed (leaderboard.stats.cells.groups), so replicate k of
model A and replicate k of model B resample the same questions: their difference is a paired
cluster bootstrap of the score difference, whatever the score's definition (ability means,
overall means, rejection measures). A percentile interval of those differences that excludes 0
says one model is better on the shared questions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.types import LANGS, MODES, Ability, Lang
from leaderboard.scoring.outcome import ScoredItem, SplitInfo
from leaderboard.stats.aggregate import Value, _language_entries, combine
from leaderboard.stats.bootstrap import percentile_ci
from leaderboard.stats.metrics import build_cells

ScoreKey = tuple[str, str, str]  # (lang or "all", mode, ability or "overall")


@dataclass(frozen=True)
class ScoreDifference:
    """Score of A minus score of B on their shared instances, with its paired bootstrap CI."""

    diff: float
    ci: tuple[float, float] | None
    n_questions: int

    @property
    def sign(self) -> int:
        """+1: A significantly higher; -1: B significantly higher; 0: not distinguishable."""
        if self.ci is None:
            return 0
        if self.ci[0] > 0:
            return 1
        if self.ci[1] < 0:
            return -1
        return 0


def score_values(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int,
    seed: int,
) -> dict[ScoreKey, Value]:
    """Every ranking score ("score" metric) with its bootstrap replicates, as compute_metrics
    defines it, plus the all-language overall."""
    cells, _rows, langs = build_cells(items, splits, resamples, seed)
    out: dict[ScoreKey, Value] = {}
    for mode in MODES:
        overall = []
        for lang in langs:
            _entries, scores = _language_entries(lang, mode, cells)
            for ability, value in scores.items():
                out[(lang, mode, ability)] = value
            overall.append(scores["overall"])
        out[("all", mode, "overall")] = combine(overall, len(LANGS))
    return out


def paired_differences(
    a: Sequence[ScoredItem],
    b: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int = 1000,
    seed: int = 2333,
) -> dict[ScoreKey, ScoreDifference]:
    """A - B for every score both have on their shared instances (empty when none are shared)."""
    shared = {it.instance.key for it in a} & {it.instance.key for it in b}
    if not shared or resamples <= 0:
        return {}
    va = score_values([it for it in a if it.instance.key in shared], splits, resamples, seed)
    vb = score_values([it for it in b if it.instance.key in shared], splits, resamples, seed)
    out: dict[ScoreKey, ScoreDifference] = {}
    for key, x in va.items():
        y = vb.get(key)
        if y is None or x.value is None or y.value is None or x.reps is None or y.reps is None:
            continue
        ci = percentile_ci(np.asarray(x.reps) - np.asarray(y.reps))
        out[key] = ScoreDifference(x.value - y.value, ci, len(x.questions))
    return out

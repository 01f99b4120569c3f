"""Agreement between two binary raters (an LLM judge, a scorer, a human label): Cohen's kappa with
a percentile-bootstrap interval, and a rate with its interval.

Kappa corrects raw agreement for the agreement expected by chance from each rater's own rate, which
matters here: a judge that says "not addressed" to everything agrees with a scorer on every
refusal-heavy split without having read anything. Pairs are resampled as units (one pair per
answer, so there are no clusters to respect). Kappa is reported as undefined (None) when either
rater gives one answer throughout: it is then 0 (or undefined) whatever the other rater did.

It lives beside the judge, not in stats/: stats/ is hashed into the scoring version of every
results.json (stats/version.py), and no results.json number depends on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.stats.bootstrap import draw_weights, percentile_ci, rng_for
from leaderboard.stats.intervals import wilson_share

CI = tuple[float, float]
KAPPA_SEED = 2333  # the bootstrap seed of every kappa interval (files record it)


@dataclass(frozen=True)
class Agreement:
    n: int
    observed: float | None  # share of pairs where the raters agree
    kappa: float | None
    kappa_ci: CI | None
    both_yes: int
    a_only: int
    b_only: int
    both_no: int


def _kappa_from_counts(
    n: np.ndarray, both: np.ndarray, a_yes: np.ndarray, b_yes: np.ndarray
) -> np.ndarray:
    """Kappa for (possibly weighted) counts, elementwise; NaN where n is 0 or chance is 1."""
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = (n - a_yes - b_yes + 2 * both) / n
        chance = (a_yes * b_yes + (n - a_yes) * (n - b_yes)) / (n * n)
        kappa = (observed - chance) / (1 - chance)
    return np.where((n > 0) & (1 - chance > 1e-12), kappa, np.nan)


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two binary ratings of the same items (None when undefined)."""
    if len(a) != len(b):
        raise ValueError(f"rating lists differ in length: {len(a)} and {len(b)}")
    x, y = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    value = _kappa_from_counts(np.array(len(x)), np.sum(x & y), np.sum(x), np.sum(y))
    return None if np.isnan(value) else float(value)


def agreement(
    a: Sequence[bool],
    b: Sequence[bool],
    *,
    resamples: int = 2000,
    seed: int = KAPPA_SEED,
    label: str = "",
) -> Agreement:
    """Kappa of a against b with a 95% percentile-bootstrap interval (pairs resampled)."""
    x, y = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    n = len(x)
    # a rater that gives one answer throughout makes kappa 0 in every resample: a point "0.00
    # [0.00, 0.00]" would read as certain disagreement where nothing was measured
    constant = n > 0 and (x.all() or not x.any() or y.all() or not y.any())
    kappa = None if constant else cohen_kappa(a, b)
    ci = None
    if n and kappa is not None and resamples > 0:
        w = draw_weights(n, resamples, rng_for(seed, f"kappa:{label}"))
        reps = _kappa_from_counts(w.sum(axis=1), w @ (x & y), w @ x, w @ y)
        ci = percentile_ci(reps)
    return Agreement(
        n=n,
        observed=float(np.mean(x == y)) if n else None,
        kappa=kappa,
        kappa_ci=ci,
        both_yes=int(np.sum(x & y)),
        a_only=int(np.sum(x & ~y)),
        b_only=int(np.sum(~x & y)),
        both_no=int(np.sum(~x & ~y)),
    )


def rate_with_ci(flags: Sequence[bool]) -> tuple[float | None, CI | None]:
    """The share of True with its 95% Wilson interval (None, None when empty). The verdicts are
    one per answer, independent units, so the single-rate Wilson interval applies; unlike a
    percentile bootstrap it does not collapse to [1, 1] when every verdict says yes."""
    x = np.asarray(flags, dtype=bool)
    if x.size == 0:
        return None, None
    return float(x.mean()), wilson_share(float(x.mean()), x.size)

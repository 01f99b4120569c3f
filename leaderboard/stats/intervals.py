"""Confidence intervals that hold at the edges: Wilson score intervals at a cluster-aware
effective sample size, and Newcombe's interval for a difference of independent scores.

Why not the percentile bootstrap alone: when every answer of a cell is wrong (or right), every
bootstrap replicate is 0 (or 1) and the interval collapses to [0, 0], claiming certainty that 300
questions cannot give. The Wilson score interval never collapses (at p = 0 its upper bound is
z^2 / (n + z^2)) and keeps close to nominal coverage near 0 and 1, where the normal interval
fails.

Why not plain Wilson at the number of answers: a score averaged over noise rates asks the same
question five times; those answers are correlated, so n answers carry less information than n
independent ones. The design effect measures how much less. We read it off the cluster bootstrap
(which resamples questions, so it sees the correlation): the *effective n* is the sample size at
which a binomial proportion has the bootstrap's variance, n_eff = p(1 - p) / Var_boot (the
bootstrap variance is first multiplied by k / (k - 1), k clusters, to undo its known downward
bias). The interval is Wilson at (p, n_eff): the cluster-adjusted Wilson interval with the design
effect estimated by the bootstrap. Where the bootstrap has no variance to measure (p exactly 0 or 1)
n_eff is the number of distinct questions behind the score: the effective n if all answers to one
question were identical (intra-cluster correlation 1, the most conservative case). For one cell
(one answer per question) both rules give Wilson at the number of questions.

Scores that are not in [0, 1] (a signed score in [-1, 1]) are mapped affinely onto [0, 1], given
the same treatment and mapped back. The zh - en difference joins the two languages' intervals with
Newcombe's hybrid score method (MOVER), exact in spirit for independent samples (the two
languages' question sets are disjoint).

A paired difference of two rates on the same questions (the probes' context reliance and noise
cliff: accuracy under one condition minus accuracy under another) is not bootstrapped by
percentiles: when every question agrees (all right in both, all wrong in both, or simply no
question that changes), every paired replicate is 0 and the percentile interval is [0, 0], as for
a rate at 0. We write the difference as the difference of its two discordant shares, d = P(right
in the first only) - P(right in the second only), give each share (a rate, often 0) its Wilson
interval at the cluster-bootstrap effective n, and join them with MOVER for correlated estimates
(Zou & Donner 2008; Newcombe's paired method), the correlation of the two shares taken from the
same paired bootstrap replicates (0 where a share has no spread). With no discordant question out
of n the interval is +-z^2 / (n + z^2), never a point; a gap shared by every question keeps a
lower bound above 0 once n says so.

Coverage measured by simulation is in tests/stats/test_intervals.py and the methodology page.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from leaderboard.stats.bootstrap import CONFIDENCE, ratio_replicates

METHOD = (
    "Wilson score interval at the cluster-bootstrap effective n (design effect from resampling "
    "question ids, shared draws per data file; n_eff = number of questions at 0 and 1); "
    "zh - en: Newcombe (MOVER) from the two languages' intervals; probe differences on the same "
    "questions (context reliance, noise cliff): MOVER of the two discordant shares, correlation "
    "from the paired bootstrap replicates"
)

Bounds = tuple[float, float]
UNIT: Bounds = (0.0, 1.0)
SIGNED: Bounds = (-1.0, 1.0)


def z_value(confidence: float = CONFIDENCE) -> float:
    """Two-sided standard normal quantile (0.95 -> 1.95996...), without scipy."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_share(p: float, n: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a share p observed on n (possibly fractional) trials; from a count,
    stats.scorer_eval.wilson_count."""
    if n <= 0:
        return 0.0, 1.0
    p = min(max(p, 0.0), 1.0)
    z = z_value(confidence)
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # At p = 0 (or 1) the bound is exactly 0 (or 1) in exact arithmetic; rounding leaves ~1e-19.
    low = 0.0 if p == 0.0 else max(0.0, center - half)
    high = 1.0 if p == 1.0 else min(1.0, center + half)
    return low, high


def effective_n(p: float, replicates: np.ndarray | None, n_clusters: int) -> float:
    """The n at which a binomial proportion p has the bias-corrected bootstrap variance; the
    number of clusters when that variance carries no information (p at 0 or 1, no spread)."""
    if replicates is None or n_clusters < 1:
        return float(max(n_clusters, 0))
    finite = replicates[np.isfinite(replicates)]
    spread = p * (1 - p)
    if finite.size < 2 or spread <= 0:
        return float(n_clusters)
    var = float(np.var(finite, ddof=1))
    if n_clusters > 1:
        var *= n_clusters / (n_clusters - 1)
    if var <= 1e-12 * spread:
        # Every question gives the same mean (e.g. a policy right at 4 of 5 noise rates on every
        # question): the bootstrap sees no spread, which is no evidence of certainty. Fall back to
        # the number of questions, as at 0 and 1 (rounding leaves ~1e-33 here, not 0).
        return float(n_clusters)
    return spread / var


def score_interval(
    value: float | None,
    replicates: np.ndarray | None,
    n_clusters: int,
    bounds: Bounds = UNIT,
    confidence: float = CONFIDENCE,
) -> tuple[float, float] | None:
    """Wilson interval of a score in `bounds` at its effective n; None without a value, without
    bootstrap replicates (resampling switched off) or without any cluster."""
    if value is None or not math.isfinite(value) or replicates is None or n_clusters < 1:
        return None
    if not np.isfinite(replicates).any():
        return None
    lo, hi = bounds
    width = hi - lo
    p = (value - lo) / width
    reps = (replicates - lo) / width
    a, b = wilson_share(p, effective_n(p, reps, n_clusters), confidence)
    return lo + width * a, lo + width * b


def bounds_for(value: float, replicates: np.ndarray | None) -> Bounds:
    """[0, 1] for rates; [-1, 1] once the score or a replicate is negative (a signed score)."""
    negative = value < 0 or (
        replicates is not None
        and np.isfinite(replicates).any()
        and float(np.nanmin(replicates)) < 0
    )
    return SIGNED if negative else UNIT


def newcombe_difference(
    a: float,
    ci_a: tuple[float, float],
    b: float,
    ci_b: tuple[float, float],
    correlation: float = 0.0,
) -> tuple[float, float]:
    """Interval of a - b from the two estimates' own intervals (MOVER): Newcombe 1998, method 10,
    for independent estimates (correlation 0); Zou & Donner 2008 for correlated ones.
    Asymmetric where either sits near a bound, never collapsed when they are not."""
    d = a - b
    r = min(max(correlation, -1.0), 1.0)
    da, ub = a - ci_a[0], ci_b[1] - b
    ua, db = ci_a[1] - a, b - ci_b[0]
    lower = d - math.sqrt(max(da * da + ub * ub - 2 * r * da * ub, 0.0))
    upper = d + math.sqrt(max(ua * ua + db * db - 2 * r * ua * db, 0.0))
    return lower, upper


def replicate_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson correlation of two estimates' paired replicates (replicate k of both from the same
    draw); 0 where either has no spread (no evidence of a correlation: Newcombe's convention)."""
    ok = np.isfinite(a) & np.isfinite(b)
    if ok.sum() < 3:
        return 0.0
    x, y = a[ok], b[ok]
    sx, sy = float(np.std(x)), float(np.std(y))
    if sx <= 1e-12 or sy <= 1e-12:
        return 0.0
    return float(np.mean((x - x.mean()) * (y - y.mean())) / (sx * sy))


def paired_difference(
    weights: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    keep: np.ndarray,
    confidence: float = CONFIDENCE,
) -> tuple[float | None, tuple[float, float] | None]:
    """mean(first) - mean(second) over the clusters with keep = 1, and its interval (see the
    module docstring: MOVER of the discordant shares). `first` and `second` are per-cluster
    rates in [0, 1] aligned with the columns of the bootstrap `weights` (R x n); the value is None
    without a kept cluster, the interval None without replicates (resampling switched off)."""
    return discordant_difference(
        weights, first * (1 - second) * keep, second * (1 - first) * keep, keep, confidence
    )


def discordant_difference(
    weights: np.ndarray,
    only_first: np.ndarray,
    only_second: np.ndarray,
    count: np.ndarray,
    confidence: float = CONFIDENCE,
) -> tuple[float | None, tuple[float, float] | None]:
    """Paired difference of two success rates from per-cluster discordant counts: `only_first`
    (first succeeds, second fails) and `only_second` summed per cluster over its `count`
    instances. Each share gets its Wilson interval at the cluster-bootstrap effective n and the
    two are combined by MOVER with the replicates' correlation, so the interval is not a point
    when no instance is discordant (a percentile bootstrap reads [0, 0] there)."""
    n = int(np.count_nonzero(count))
    if n == 0:
        return None, None
    total = float(count.sum())
    a, b = float(only_first.sum() / total), float(only_second.sum() / total)
    if weights.shape[0] == 0:
        return a - b, None
    reps_a = ratio_replicates(weights, only_first, count)
    reps_b = ratio_replicates(weights, only_second, count)
    ci_a = score_interval(a, reps_a, n, confidence=confidence)
    ci_b = score_interval(b, reps_b, n, confidence=confidence)
    if ci_a is None or ci_b is None:
        return a - b, None
    r = replicate_correlation(reps_a, reps_b)
    lo, hi = newcombe_difference(a, ci_a, b, ci_b, r)
    return a - b, (max(lo, -1.0), min(hi, 1.0))

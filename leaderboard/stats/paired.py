"""Paired comparison of two models on the instances both answered (`rgb-leaderboard compare`).

Each instance gives one binary outcome per model (see `success`). The instances of one question
(its five noise rates, its rejection instance) are not independent, so both the interval and the
test work on question clusters: the difference of rates gets a paired interval (MOVER of the two
discordant shares, each a Wilson interval at its cluster-bootstrap effective n), and the
p-value comes from a cluster-level sign-flip permutation test. Under the null hypothesis that the
two models are exchangeable, the sign of each question's summed difference (A - B over its
instances) is equally likely + or -, so the p-value is the share of the 2^k sign patterns (k
questions with a non-zero difference) whose |sum| reaches the observed one: exact for k <= 16,
Monte Carlo with a fixed seed above. With one instance per question it is the exact McNemar test;
McNemar on all instances is not used: it treats the five answers to one question as five
independent pieces of evidence and gives p-values that are too small.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.types import Mode, TestInstance
from leaderboard.scoring.outcome import ScoredItem, success
from leaderboard.stats.bootstrap import draw_weights, rng_for
from leaderboard.stats.cells import cluster_of
from leaderboard.stats.intervals import discordant_difference

EXACT_MAX_CLUSTERS = 16  # 2^16 sign patterns enumerated; above, Monte Carlo
FLIPS = 20_000  # Monte Carlo sign patterns


@dataclass(frozen=True)
class PairedComparison:
    """Model A versus model B on the instances both answered (difference = A - B)."""

    mode: Mode
    n: int  # matched instances
    n_only_a: int  # instances only A answered (ignored)
    n_only_b: int
    rate_a: float | None
    rate_b: float | None
    diff: float | None
    ci: tuple[float, float] | None
    a_only: int  # A succeeds, B fails (discordant)
    b_only: int
    p_value: float  # cluster sign-flip permutation test (see the module docstring)
    resamples: int
    seed: int


def _cluster_sums(
    instances: list[TestInstance], sa: np.ndarray, sb: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per question cluster: instances where only A succeeds, where only B does, and the number
    of instances (the summed difference A - B is the first minus the second)."""
    clusters = sorted({cluster_of(inst) for inst in instances})
    index = {c: i for i, c in enumerate(clusters)}
    only_a = np.zeros(len(clusters))
    only_b = np.zeros(len(clusters))
    count = np.zeros(len(clusters))
    for inst, x, y in zip(instances, sa, sb, strict=True):
        j = index[cluster_of(inst)]
        only_a[j] += x * (1 - y)
        only_b[j] += y * (1 - x)
        count[j] += 1
    return only_a, only_b, count


def _difference_ci(
    only_a: np.ndarray, only_b: np.ndarray, count: np.ndarray, resamples: int, seed: int
) -> tuple[float, float] | None:
    """Interval of mean(A - B), resampling question clusters: MOVER of the two discordant shares
    (stats/intervals.discordant_difference), which does not collapse to [0, 0] when the models
    agree on every instance, unlike the percentile interval the command used before."""
    weights = draw_weights(len(count), resamples, rng_for(seed, "paired"))
    return discordant_difference(weights, only_a, only_b, count)[1]


def sign_flip_p(diff_sum: np.ndarray, seed: int = 2333) -> float:
    """Two-sided p-value of the cluster sign-flip permutation test of sum(diff_sum) = 0.

    Exact (all 2^k sign patterns of the k non-zero clusters) for k <= EXACT_MAX_CLUSTERS, else
    (1 + hits) / (1 + FLIPS) over seeded random patterns, which is a valid p-value."""
    d = np.asarray(diff_sum, dtype=float)
    d = d[d != 0]
    k = d.size
    if k == 0:
        return 1.0
    observed = abs(float(d.sum())) - 1e-9
    if k <= EXACT_MAX_CLUSTERS:
        patterns = ((np.arange(2**k)[:, None] >> np.arange(k)) & 1) * 2 - 1
        totals = np.abs(patterns @ d)
        return float(np.mean(totals >= observed))
    rng = rng_for(seed, "sign-flip")
    hits = 0
    for start in range(0, FLIPS, 2000):
        signs = rng.choice((-1.0, 1.0), size=(min(2000, FLIPS - start), k))
        hits += int((np.abs(signs @ d) >= observed).sum())
    return (1 + hits) / (1 + FLIPS)


def paired_compare(
    a: Sequence[ScoredItem],
    b: Sequence[ScoredItem],
    mode: Mode,
    resamples: int = 2000,
    seed: int = 2333,
) -> PairedComparison:
    """Paired difference of success rates with a cluster-bootstrap CI and the cluster sign-flip
    p-value."""
    amap = {it.instance.key: it for it in a}
    bmap = {it.instance.key: it for it in b}
    keys = sorted(amap.keys() & bmap.keys())
    sa = np.array([success(amap[k], mode) for k in keys], dtype=float)
    sb = np.array([success(bmap[k], mode) for k in keys], dtype=float)
    a_only = int(((sa == 1) & (sb == 0)).sum())
    b_only = int(((sa == 0) & (sb == 1)).sum())
    only_a, only_b, count = _cluster_sums([amap[k].instance for k in keys], sa, sb)
    diff_sum = only_a - only_b
    ci = _difference_ci(only_a, only_b, count, resamples, seed) if keys and resamples > 0 else None
    return PairedComparison(
        mode=mode,
        n=len(keys),
        n_only_a=len(amap.keys() - bmap.keys()),
        n_only_b=len(bmap.keys() - amap.keys()),
        rate_a=float(sa.mean()) if keys else None,
        rate_b=float(sb.mean()) if keys else None,
        diff=float(sa.mean() - sb.mean()) if keys else None,
        ci=ci,
        a_only=a_only,
        b_only=b_only,
        p_value=sign_flip_p(diff_sum, seed),
        resamples=resamples,
        seed=seed,
    )

"""Paired comparison of two models on the instances both answered (`rgb-leaderboard compare`).

Each instance gives one binary outcome per model (see `success`), so the difference of rates gets
a cluster-bootstrap CI (clusters: questions, as noise and rejection share the refine questions) and
the discordant pairs an exact McNemar test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.types import Mode, TestInstance
from leaderboard.scoring.outcome import ScoredItem, success
from leaderboard.stats.bootstrap import (
    draw_weights,
    mcnemar_exact,
    percentile_ci,
    ratio_replicates,
    rng_for,
)


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
    p_value: float  # exact McNemar on the discordant pairs
    resamples: int
    seed: int


def _cluster(inst: TestInstance) -> tuple[str, str, int]:
    family = "refine" if inst.ability in ("noise", "rejection") else inst.ability
    return inst.lang, family, inst.id


def _difference_ci(
    instances: list[TestInstance],
    sa: np.ndarray,
    sb: np.ndarray,
    resamples: int,
    seed: int,
) -> tuple[float, float] | None:
    """Percentile CI of mean(A - B), resampling question clusters."""
    clusters = sorted({_cluster(inst) for inst in instances})
    index = {c: i for i, c in enumerate(clusters)}
    diff_sum = np.zeros(len(clusters))
    count = np.zeros(len(clusters))
    for inst, x, y in zip(instances, sa, sb, strict=True):
        j = index[_cluster(inst)]
        diff_sum[j] += x - y
        count[j] += 1
    weights = draw_weights(len(clusters), resamples, rng_for(seed, "paired"))
    return percentile_ci(ratio_replicates(weights, diff_sum, count))


def paired_compare(
    a: Sequence[ScoredItem],
    b: Sequence[ScoredItem],
    mode: Mode,
    resamples: int = 2000,
    seed: int = 2333,
) -> PairedComparison:
    """Paired difference of success rates with a cluster-bootstrap CI, and the exact McNemar
    p-value."""
    amap = {it.instance.key: it for it in a}
    bmap = {it.instance.key: it for it in b}
    keys = sorted(amap.keys() & bmap.keys())
    sa = np.array([success(amap[k], mode) for k in keys], dtype=float)
    sb = np.array([success(bmap[k], mode) for k in keys], dtype=float)
    a_only = int(((sa == 1) & (sb == 0)).sum())
    b_only = int(((sa == 0) & (sb == 1)).sum())
    ci = None
    if keys and resamples > 0:
        ci = _difference_ci([amap[k].instance for k in keys], sa, sb, resamples, seed)
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
        p_value=mcnemar_exact(a_only, b_only),
        resamples=resamples,
        seed=seed,
    )

"""Intervals at the edges (leaderboard.stats.intervals): Wilson, effective n, Newcombe, and
coverage measured by seeded simulation near 0 and 1, for single rates and for cluster means.

`python tests/stats/test_intervals.py` prints the coverage table quoted in the methodology page.
"""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.stats.bootstrap import draw_weights, percentile_ci, ratio_replicates, rng_for
from leaderboard.stats.intervals import (
    bounds_for,
    effective_n,
    newcombe_difference,
    paired_difference,
    replicate_correlation,
    score_interval,
    wilson_share,
)

RESAMPLES = 300


def test_wilson_known_values_and_edges() -> None:
    lo, hi = wilson_share(0.0, 100)
    assert lo == 0.0 and hi == pytest.approx(0.0370, abs=1e-4)  # z^2 / (n + z^2)
    lo, hi = wilson_share(1.0, 100)
    assert hi == 1.0 and lo == pytest.approx(1 - 0.0370, abs=1e-4)
    lo, hi = wilson_share(0.5, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_share(0.3, 0) == (0.0, 1.0)


def test_score_interval_never_collapses() -> None:
    zeros = np.zeros(RESAMPLES)
    assert score_interval(0.0, zeros, 100)[1] > 0.03  # percentile would say [0, 0]
    assert score_interval(1.0, np.ones(RESAMPLES), 100)[0] < 0.97
    assert score_interval(None, zeros, 100) is None
    assert score_interval(0.2, None, 100) is None  # resampling switched off
    assert score_interval(0.2, np.full(5, np.nan), 100) is None


def test_effective_n_is_cluster_count_at_edges_and_n_for_independent_answers() -> None:
    assert effective_n(0.0, np.zeros(50), 40) == 40
    rng = np.random.default_rng(1)
    x = (rng.random(400) < 0.3).astype(float)
    w = draw_weights(400, 2000, rng_for(1, "t"))
    reps = ratio_replicates(w, x, np.ones(400))
    assert effective_n(float(x.mean()), reps, 400) == pytest.approx(400, rel=0.1)


def test_signed_scores_and_differences() -> None:
    reps = np.linspace(-0.2, 0.1, 50)
    assert bounds_for(-0.05, reps) == (-1.0, 1.0) and bounds_for(0.4, None) == (0.0, 1.0)
    lo, hi = score_interval(-0.05, reps, 100, (-1.0, 1.0))
    assert -1 <= lo < -0.05 < hi <= 1
    lo, hi = newcombe_difference(0.0, wilson_share(0.0, 100), 0.0, wilson_share(0.0, 100))
    assert lo == pytest.approx(-0.037, abs=1e-3) and hi == pytest.approx(0.037, abs=1e-3)
    lo, hi = newcombe_difference(0.8, (0.7, 0.88), 0.5, (0.4, 0.6))
    assert lo < 0.3 < hi and hi - lo < 0.3


# ------------------------------------------------------------------------------ simulation


def _single_rate(p: float, n: int, sims: int, seed: int) -> dict[str, float]:
    """Coverage of one cell's rate (one answer per question) by Wilson-at-n_eff and by the
    percentile bootstrap."""
    rng = np.random.default_rng(seed)
    hits = {"wilson_neff": 0, "percentile": 0}
    ones = np.ones(n)
    for s in range(sims):
        x = (rng.random(n) < p).astype(float)
        reps = ratio_replicates(draw_weights(n, RESAMPLES, rng_for(s, "sim")), x, ones)
        lo, hi = score_interval(float(x.mean()), reps, n)
        hits["wilson_neff"] += lo <= p <= hi
        plo, phi = percentile_ci(reps)
        hits["percentile"] += plo <= p <= phi
    return {k: v / sims for k, v in hits.items()}


def _cluster_mean(p: float, n: int, rates: int, icc: float, sims: int, seed: int) -> dict:
    """Coverage of a mean over `rates` answers per question whose success probabilities share a
    Beta(p, icc) question effect (intra-cluster correlation icc): Wilson at the bootstrap's
    effective n, the percentile bootstrap, and Wilson at n x rates (clustering ignored)."""
    rng = np.random.default_rng(seed)
    a = p * (1 - icc) / icc
    b = (1 - p) * (1 - icc) / icc
    hits = {"wilson_neff": 0, "percentile": 0, "wilson_naive": 0}
    count = np.full(n, float(rates))
    for s in range(sims):
        pq = rng.beta(a, b, size=n)
        y = (rng.random((n, rates)) < pq[:, None]).sum(axis=1).astype(float)
        reps = ratio_replicates(draw_weights(n, RESAMPLES, rng_for(s, "sim")), y, count)
        value = float(y.sum() / count.sum())
        lo, hi = score_interval(value, reps, n)
        hits["wilson_neff"] += lo <= p <= hi
        plo, phi = percentile_ci(reps)
        hits["percentile"] += plo <= p <= phi
        nlo, nhi = wilson_share(value, n * rates)
        hits["wilson_naive"] += nlo <= p <= nhi
    return {k: v / sims for k, v in hits.items()}


@pytest.mark.parametrize("p", [0.01, 0.03, 0.97, 0.99])
def test_single_rate_coverage_near_the_edges(p: float) -> None:
    cov = _single_rate(p, 100, 300, seed=int(p * 1000))
    assert cov["wilson_neff"] >= 0.90, cov  # nominal 0.95; 300 draws: se about 0.013
    assert cov["percentile"] < cov["wilson_neff"], cov  # the collapse the issue reported


@pytest.mark.parametrize("p", [0.02, 0.98])
def test_cluster_mean_coverage_near_the_edges(p: float) -> None:
    cov = _cluster_mean(p, 100, 5, 0.5, 300, seed=int(p * 1000) + 7)
    assert cov["wilson_neff"] >= 0.90, cov
    assert cov["wilson_naive"] < cov["wilson_neff"], cov  # ignoring the clusters under-covers


def coverage_table(sims: int = 1000) -> list[tuple[str, float, dict]]:
    rows = []
    for p in (0.005, 0.01, 0.03, 0.1, 0.5, 0.9, 0.97, 0.99, 0.995):
        rows.append(("single rate, n=100", p, _single_rate(p, 100, sims, seed=1)))
    for p in (0.01, 0.03, 0.1, 0.5, 0.97, 0.99):
        rows.append(
            ("mean of 5 rates, 100 questions, ICC 0.5", p, _cluster_mean(p, 100, 5, 0.5, sims, 2))
        )
    return rows


def test_wilson_bounds_are_exact_at_the_edges() -> None:
    assert wilson_share(0.0, 100)[0] == 0.0 and wilson_share(1.0, 100)[1] == 1.0
    assert 0.0 < wilson_share(0.0, 100)[1] < 0.05 and 0.95 < wilson_share(1.0, 100)[0] < 1.0


def test_interior_rate_with_identical_questions_does_not_collapse() -> None:
    """Constant per-question means (bootstrap variance ~0 from rounding) fall back to Wilson at
    the number of questions instead of a zero-width interval."""
    reps = np.full(1000, 0.8) + np.random.default_rng(0).normal(0, 1e-17, 1000)
    assert effective_n(0.8, reps, 300) == 300.0
    low, high = score_interval(0.8, reps, 300)
    assert low < 0.78 and high > 0.82


# ------------------------------------------------------------------------ paired differences


def _paired(first: np.ndarray, second: np.ndarray, seed: int = 0):
    n = first.size
    w = draw_weights(n, RESAMPLES, rng_for(seed, "paired"))
    return paired_difference(w, first, second, np.ones(n))


@pytest.mark.parametrize("rate", [0.0, 1.0, 0.5])
def test_paired_difference_with_every_question_agreeing_is_not_a_point(rate: float) -> None:
    """All wrong in both, all right in both, or the same answers in both: no question changes,
    the percentile interval of the paired replicates is [0, 0]; ours is +-z^2 / (n + z^2)."""
    x = (np.arange(50) < 50 * rate).astype(float)
    value, ci = _paired(x, x.copy())
    assert value == 0.0
    edge = wilson_share(0.0, 50)[1]  # about 0.071
    assert ci == pytest.approx((-edge, edge), abs=0.01) and ci[1] > 0.05
    reps = ratio_replicates(draw_weights(50, RESAMPLES, rng_for(0, "paired")), x - x, np.ones(50))
    assert percentile_ci(reps) == (0.0, 0.0)  # the collapse this replaces


def test_paired_difference_keeps_a_shared_gap_and_pairing() -> None:
    # 40 questions: 12 right in the first only, none in the second only, the rest agree
    first = np.r_[np.ones(12), np.ones(10), np.zeros(18)]
    second = np.r_[np.zeros(12), np.ones(10), np.zeros(18)]
    value, (lo, hi) = _paired(first, second)
    assert value == pytest.approx(0.3) and 0.1 < lo < 0.3 < hi < 0.5
    # unpaired (Newcombe on the two marginal rates) is wider: pairing removes question difficulty
    ulo, uhi = newcombe_difference(0.55, wilson_share(22 / 40, 40), 0.25, wilson_share(10 / 40, 40))
    assert hi - lo < uhi - ulo
    # only kept clusters count; no kept cluster, no value; no resampling, no interval
    keep = np.r_[np.ones(20), np.zeros(20)]
    w = draw_weights(40, RESAMPLES, rng_for(1, "k"))
    v, _ = paired_difference(w, first, second, keep)
    assert v == pytest.approx(12 / 20)
    assert paired_difference(w, first, second, np.zeros(40)) == (None, None)
    assert paired_difference(np.zeros((0, 40)), first, second, keep) == (pytest.approx(0.6), None)


def test_replicate_correlation() -> None:
    x = np.linspace(0, 1, 50)
    assert replicate_correlation(x, 2 * x) == pytest.approx(1.0)
    assert replicate_correlation(x, -x) == pytest.approx(-1.0)
    assert replicate_correlation(x, np.zeros(50)) == 0.0  # no spread: no correlation claimed


def _paired_coverage(only_a: float, only_b: float, n: int, sims: int, seed: int) -> dict:
    """Coverage of a paired difference of two rates on n questions (each question: right in the
    first only, in the second only, or the same in both, with probabilities only_a, only_b,
    rest), by the paired MOVER interval and by the percentile of the paired replicates."""
    rng = np.random.default_rng(seed)
    truth = only_a - only_b
    hits = {"paired_mover": 0, "percentile": 0}
    for s in range(sims):
        u = rng.random(n)
        same = (rng.random(n) < 0.5).astype(float)  # right in both or wrong in both
        first = np.where(u < only_a, 1.0, np.where(u < only_a + only_b, 0.0, same))
        second = np.where(u < only_a, 0.0, np.where(u < only_a + only_b, 1.0, same))
        w = draw_weights(n, RESAMPLES, rng_for(s, "sim"))
        _, (lo, hi) = paired_difference(w, first, second, np.ones(n))
        hits["paired_mover"] += lo <= truth <= hi
        plo, phi = percentile_ci(ratio_replicates(w, first - second, np.ones(n)))
        hits["percentile"] += plo <= truth <= phi
    return {k: v / sims for k, v in hits.items()}


@pytest.mark.parametrize(("only_a", "only_b"), [(0.02, 0.0), (0.05, 0.01), (0.0, 0.03)])
def test_paired_difference_coverage_near_no_change(only_a: float, only_b: float) -> None:
    cov = _paired_coverage(only_a, only_b, 50, 300, seed=int(1000 * (only_a + 2 * only_b)))
    assert cov["paired_mover"] >= 0.90, cov  # nominal 0.95; 300 draws: se about 0.013
    assert cov["percentile"] < cov["paired_mover"], cov  # [0, 0] whenever no question changed


def paired_coverage_table(sims: int = 1000) -> list[tuple[str, float, dict]]:
    rows = []
    for a, b in ((0.0, 0.0), (0.02, 0.0), (0.05, 0.01), (0.1, 0.0), (0.2, 0.1), (0.3, 0.05)):
        rows.append((f"paired diff, n=50, only first {a}, only second {b}", a - b,
                     _paired_coverage(a, b, 50, sims, seed=3)))  # fmt: skip
    return rows


if __name__ == "__main__":
    for label, p, cov in coverage_table() + paired_coverage_table():
        figures = "  ".join(f"{k} {v:.3f}" for k, v in cov.items())
        print(f"{label:<42} p={p:<6} {figures}")

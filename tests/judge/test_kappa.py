"""Cohen's kappa (bootstrap interval) and judge rates (Wilson interval), on hand-computed cases."""

from __future__ import annotations

import pytest

from leaderboard.judge.kappa import agreement, cohen_kappa, rate_with_ci


def _pairs(both_yes: int, a_only: int, b_only: int, both_no: int) -> tuple[list, list]:
    a = [True] * both_yes + [True] * a_only + [False] * b_only + [False] * both_no
    b = [True] * both_yes + [False] * a_only + [True] * b_only + [False] * both_no
    return a, b


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        # po = 0.7; a says yes 25/50, b 30/50: pe = .5*.6 + .5*.4 = 0.5 -> (0.7-0.5)/0.5
        ((20, 5, 10, 15), 0.4),
        # po = 3/4; pe = (2*1 + 2*3)/16 = 1/2 -> 0.5
        ((1, 1, 0, 2), 0.5),
        # perfect agreement with both answers used
        ((3, 0, 0, 5), 1.0),
        # perfect disagreement, balanced: po = 0, pe = 1/2 -> -1
        ((0, 1, 1, 0), -1.0),
        # po = 0.85, pe = .5*.55 + .5*.45 = 0.5 -> 0.7
        ((45, 5, 10, 40), 0.7),
    ],
)
def test_kappa_hand_computed(table: tuple[int, int, int, int], expected: float) -> None:
    a, b = _pairs(*table)
    assert cohen_kappa(a, b) == pytest.approx(expected)
    got = agreement(a, b, resamples=500)
    assert got.kappa == pytest.approx(expected)
    assert (got.both_yes, got.a_only, got.b_only, got.both_no) == table
    assert got.n == sum(table)


def test_kappa_undefined_when_both_raters_are_constant_and_equal() -> None:
    assert cohen_kappa([False] * 4, [False] * 4) is None
    got = agreement([True] * 3, [True] * 3)
    assert got.kappa is None and got.kappa_ci is None and got.observed == 1.0
    assert agreement([], []).kappa is None


@pytest.mark.parametrize("table", [(2, 2, 0, 0), (0, 17, 0, 0), (0, 0, 3, 4)])
def test_agreement_reports_no_kappa_when_one_rater_is_constant(
    table: tuple[int, int, int, int],
) -> None:
    """Kappa is 0 in every resample when one rater never changes its answer (po = pe): a point
    interval [0, 0] would read as measured disagreement, so no kappa is reported (counts are)."""
    a, b = _pairs(*table)
    assert cohen_kappa(a, b) in (0.0, None)  # the plain formula, for reference
    got = agreement(a, b, resamples=500)
    assert got.kappa is None and got.kappa_ci is None
    assert (got.both_yes, got.a_only, got.b_only, got.both_no) == table


def test_kappa_ci_brackets_the_estimate_and_is_reproducible() -> None:
    a, b = _pairs(20, 5, 10, 15)
    first = agreement(a, b, resamples=2000, seed=7, label="x")
    assert first.kappa_ci is not None
    lo, hi = first.kappa_ci
    assert lo < 0.4 < hi and lo >= -1.0 and hi <= 1.0
    assert agreement(a, b, resamples=2000, seed=7, label="x").kappa_ci == first.kappa_ci


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        cohen_kappa([True], [True, False])


def test_rate_with_ci_is_wilson_and_never_collapses() -> None:
    value, ci = rate_with_ci([True, False, False, False])
    assert value == 0.25 and ci is not None and ci[0] <= 0.25 <= ci[1]
    assert rate_with_ci([]) == (None, None)
    value, (lo, hi) = rate_with_ci([True] * 5)  # type: ignore[misc]
    assert value == 1.0 and hi == pytest.approx(1.0) and lo == pytest.approx(0.5655, abs=1e-3)
    value, (lo, hi) = rate_with_ci([False] * 17)  # type: ignore[misc]
    assert value == 0.0 and lo == pytest.approx(0.0) and 0.15 < hi < 0.2

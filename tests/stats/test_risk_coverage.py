"""Risk-coverage (stats/risk_coverage.py, issue 38): the normalised area of toy sets whose
ranking is known, ties, and the curve the site draws."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.core.types import TestInstance
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results
from leaderboard.stats.risk_coverage import curve, normalised_area


def _area(conf, right):
    return normalised_area(np.array(conf, dtype=float), np.array(right, dtype=float))[1]


def test_a_perfectly_ranked_set_scores_one() -> None:
    assert _area([-0.1, -0.2, -0.3, -0.9, -1.5], [1, 1, 1, 0, 0]) == pytest.approx(1.0)


def test_the_reversed_ranking_scores_below_zero_and_a_constant_zero() -> None:
    assert _area([-1.5, -0.9, -0.3, -0.2, -0.1], [1, 1, 1, 0, 0]) < 0
    # every answer equally confident: withholding is random, the area is 0
    assert _area([-0.5] * 5, [1, 0, 1, 0, 1]) == pytest.approx(0.0)


def test_all_right_or_all_wrong_has_no_area() -> None:
    assert _area([-0.1, -0.2], [1, 1]) is None
    assert _area([-0.1, -0.2], [0, 0]) is None


def test_the_curve_starts_at_full_coverage_with_the_accuracy() -> None:
    cov, acc = curve(np.array([-0.1, -0.2, -0.3, -0.4]), np.array([1.0, 1.0, 0.0, 0.0]))
    assert cov[0] == 1.0 and acc[0] == pytest.approx(0.5)
    assert acc[-1] == 1.0 and cov[-1] == pytest.approx(0.25)  # the most confident answer


def test_results_carry_the_curve_of_answers_with_a_confidence() -> None:
    inst = [TestInstance("en", "closedbook", 0.0, i, "q", ("Paris",), ()) for i in range(4)]
    items = scored_items(
        [
            (inst[0], "Paris.", None),
            (inst[1], "Paris.", None),
            (inst[2], "Rome.", None),
            (inst[3], "Rome.", None),
        ]
    )
    items = [
        type(it)(it.instance, it.prediction, it.error, it.scores, lp)
        for it, lp in zip(items, (-0.1, -0.2, -1.0, None), strict=True)
    ]
    m = compute_results(items, {("en", "closedbook"): SplitInfo("en_refine.json", True, 4)})
    (rc,) = [r for r in m.risk_coverage if r.mode == "strict"]
    assert rc.n == 3 and rc.accuracy == pytest.approx(2 / 3) and rc.area == pytest.approx(1.0)

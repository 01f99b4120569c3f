"""Risk-coverage (stats/risk_coverage.py, issue 38): the normalised area of toy sets whose
ranking is known, ties, and the curve the site draws."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from leaderboard.core.submission import load_submission
from leaderboard.core.types import TestInstance
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results
from leaderboard.stats.risk_coverage import curve, normalised_area
from leaderboard.trust.verify import recompute
from tests.helpers import read_predictions, write_tiny_hf_submission


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


def test_a_real_model_run_records_confidence_and_verify_recomputes_the_curve(
    tmp_path: Path, data_root: Path, tiny_llama: Path
) -> None:
    """transformers records each answer's mean log-probability; the runner's results carry the
    curve of the closed-book answers, and `verify` recomputes it from the predictions."""
    path = write_tiny_hf_submission(
        tmp_path / "tiny",
        tiny_llama,
        batch_size=2,
        generation={"max_new_tokens": 8},
        device_map=None,
        run={"allow_partial_data": True},
    )
    selection = Selection(limit=4, languages=("zh",), abilities=("closedbook",))
    results = run_submission(
        load_submission(path), RunOptions(root=data_root, selection=selection, progress=False)
    )
    preds = read_predictions(tmp_path / "tiny")
    assert len(preds) == 4 and all(p.mean_logprob is not None for p in preds)
    curves = {(r.lang, r.ability, r.mode): r for r in results.risk_coverage}
    assert set(curves) == {("zh", "closedbook", "rgb"), ("zh", "closedbook", "strict")}
    assert curves[("zh", "closedbook", "strict")].n == 4
    # recomputed from the predictions as `verify` does (a random-weight model's text may stop
    # inside a character, which verify reports apart; the curve is what is checked here)
    rc = recompute(tmp_path / "tiny", data_root)
    assert rc.new is not None
    assert rc.new.risk_coverage == results.risk_coverage

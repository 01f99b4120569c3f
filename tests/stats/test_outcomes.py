"""Outcome shares, truthfulness and answer rate (stats/outcomes.py, issue 38): on a real scripted
run, on the committed baselines' predictions (recomputed as `verify` does) and on the labels that
`rgb-leaderboard score --per-instance` writes for the copy-all baseline."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.core.types import TestInstance
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.scoring.outcome import OUTCOMES, SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results
from leaderboard.trust.verify import recompute
from tests.helpers import write_scripted_submission

REPO = Path(__file__).resolve().parents[2]
BASELINES = sorted(
    p.name for p in (REPO / "submissions").glob("baseline-*") if (p / "results.json").is_file()
)


def _sums_to_one(results) -> None:
    assert results.outcomes
    for c in results.outcomes:
        total = sum(getattr(c, name) for name in OUTCOMES)
        assert total == pytest.approx(1.0, abs=1e-12), c
        for name in OUTCOMES:
            lo, hi = getattr(c, f"{name}_ci")
            assert lo <= getattr(c, name) <= hi


@pytest.mark.parametrize("policy", ["hedge", "refuse_error", "top_candidate"])
def test_shares_sum_to_one_on_a_real_scripted_run(tmp_path: Path, data_root: Path, policy) -> None:
    path = write_scripted_submission(
        tmp_path / "sub", scripted={"policy": policy}, run={"allow_partial_data": True}
    )
    results = run_submission(
        load_submission(path),
        RunOptions(
            root=data_root,
            selection=Selection(
                limit=4,
                languages=("zh", "en"),
                abilities=("noise", "rejection", "counterfactual", "closedbook", "closedbook_fact"),
            ),
            progress=False,
        ),
    )
    _sums_to_one(results)
    cells = {(c.lang, c.ability, c.noise_rate, c.mode) for c in results.cells}
    assert {(c.lang, c.ability, c.noise_rate, c.mode) for c in results.outcomes} == cells


@pytest.mark.parametrize("baseline", BASELINES)
def test_shares_sum_to_one_on_the_committed_baselines(baseline: str, data_root: Path) -> None:
    rc = recompute(REPO / "submissions" / baseline, data_root)
    assert rc.new is not None, rc.problems
    _sums_to_one(rc.new)
    # no trivial baseline is truthful on rejection: refusing is 0, anything else is wrong
    for t in rc.new.truthfulness:
        if t.metric == "truthfulness" and t.ability == "rejection" and t.lang != "zh-en":
            assert t.value <= 0.0, (baseline, t)


def test_the_refuse_baseline_has_truthfulness_and_answer_rate_zero(data_root: Path) -> None:
    rc = recompute(REPO / "submissions" / "baseline-refuse", data_root)
    assert rc.new is not None
    got = [
        t
        for t in rc.new.truthfulness
        if t.lang != "zh-en" and t.metric in ("truthfulness", "answer_rate")
    ]
    assert {t.ability for t in got} >= {"noise", "rejection", "counterfactual"}
    for t in got:
        assert t.value == 0.0, t
        if t.metric == "truthfulness":
            assert t.ci is not None and t.ci[0] < 0.0 < t.ci[1]
        else:
            assert t.ci is not None and t.ci[0] == 0.0 < t.ci[1]


def test_copy_all_wrong_share_is_what_its_labels_say(tmp_path: Path, data_root: Path) -> None:
    """The strict labels `score --per-instance` writes, counted by hand (wrong = neither
    rejected, correct nor error detected), equal each cell's wrong share."""
    folder = REPO / "submissions" / "baseline-copy-all"
    out = tmp_path / "labels.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "score",
            str(folder / "predictions.jsonl.gz"),
            "--mode",
            "strict",
            "--per-instance",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for line in out.read_text("utf-8").splitlines():
        row = json.loads(line)
        key = (row["lang"], row["ability"], row["noise_rate"])
        wrong = not (row["rejected"] or row["correct"] or row["error_detected"])
        counts[key][0] += wrong
        counts[key][1] += 1
    rc = recompute(folder, data_root)
    assert rc.new is not None
    shares = {(c.lang, c.ability, c.noise_rate): c for c in rc.new.outcomes if c.mode == "strict"}
    assert set(shares) == set(counts)
    for key, (wrong, n) in counts.items():
        assert shares[key].n == n
        assert shares[key].wrong == pytest.approx(wrong / n), key


SPLIT = SplitInfo("en_x.json", True, 4)


def _inst(ability: str, rate: float, qid: int) -> TestInstance:
    return TestInstance("en", ability, rate, qid, "q", ("Paris",), ())  # type: ignore[arg-type]


def test_truthfulness_pools_the_noise_rates_and_weighs_each_answer() -> None:
    # rate 0: right, right, refuse, wrong; rate 0.2: right, wrong, wrong, error claim
    answers = {
        0.0: ["Paris.", "It is Paris.", "insufficient information", "Rome."],
        0.2: ["Paris.", "Rome.", "Lyon.", "There are factual errors in the provided documents."],
    }
    items = [
        (_inst("noise", rate, i), text, None)
        for rate, texts in answers.items()
        for i, text in enumerate(texts)
    ]
    m = compute_results(scored_items(items), {("en", "noise"): SPLIT}, resamples=200)
    got = {(t.metric, t.mode): t for t in m.truthfulness}
    # 3 right, 3 wrong, 1 refused, 1 error claim (neither right nor wrong) of 8 answers
    assert got[("truthfulness", "strict")].value == pytest.approx((3 - 3) / 8)
    assert got[("answer_rate", "strict")].value == pytest.approx(7 / 8)
    cells = {(c.noise_rate, c.mode): c for c in m.outcomes}
    c = cells[(0.2, "strict")]
    assert (c.correct, c.refused, c.error_claimed, c.wrong) == (0.25, 0.0, 0.25, 0.5)
    t = got[("truthfulness", "strict")]
    assert t.ci is not None and t.ci[0] < t.value < t.ci[1] and t.n_questions == 4
    assert not t.complete  # noise needs five rates
    pooled = {name: got[(name, "strict")].value for name in OUTCOMES}
    assert pooled == pytest.approx(
        {"correct": 3 / 8, "refused": 1 / 8, "error_claimed": 1 / 8, "wrong": 3 / 8}
    )

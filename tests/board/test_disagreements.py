"""The rgb-vs-strict disagreement audit (board/disagreements.py): which judgements differ, the
strict rule named for each, the counts per entry and language; and the `disagreements` command on
the committed answers."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from leaderboard.board.disagreements import (
    answer_disagreements,
    answers_differing,
    counts,
)
from leaderboard.cli import app
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import TestInstance


def _record(prediction: str, error: str | None = None) -> PredictionRecord:
    return PredictionRecord(
        key="zh/noise/0.0/0",
        fingerprint="f",
        lang="zh",
        ability="noise",
        noise_rate=0.0,
        id=0,
        prompt_sha256="p",
        passage_sha256=[],
        prediction=prediction,
        error=error,
        created="2026-12-06T00:00:00Z",
    )


def _inst(answer: tuple, fake: tuple = ()) -> TestInstance:
    return TestInstance("zh", "noise", 0.0, 0, "q", answer, (), fake)


def test_a_hedge_differs_on_correct_by_the_hedge_rule() -> None:
    found = answer_disagreements("m", _record("可能是12人或者20人。"), _inst(("12人",)))
    assert [(d.kind, d.strict, d.rule) for d in found] == [("correct", False, "hedge")]
    assert found[0].as_dict()["reason"]["withheld"] == "hedge"


def test_strict_higher_names_the_normal_form_and_refusals() -> None:
    found = answer_disagreements("m", _record("十二人"), _inst(("12人",)))
    assert [(d.kind, d.strict, d.rule) for d in found] == [("correct", True, "normal_form")]
    found = answer_disagreements("m", _record("我无法回答这个问题。"), _inst(("12人",)))
    assert [(d.kind, d.strict, d.rule) for d in found] == [("rejected", True, "refusal")]


def test_agreement_and_generation_failures_are_no_disagreement() -> None:
    assert answer_disagreements("m", _record("答案是12人。"), _inst(("12人",))) == []
    assert answer_disagreements("m", _record("12", error="timeout"), _inst(("12人",))) == []


def test_counts_per_entry_language_and_rule() -> None:
    found = answer_disagreements("a", _record("可能是12人或者20人。"), _inst(("12人",)))
    found += answer_disagreements("b", _record("十二人"), _inst(("12人",)))
    rows = [c.as_dict() for c in counts(found)]
    assert [(r["entry"], r["rule"], r["n"]) for r in rows] == [
        ("a", "hedge", 1),
        ("b", "normal_form", 1),
    ]
    assert answers_differing(found) == {("a", "zh"): 1, ("b", "zh"): 1}


def test_the_command_lists_a_committed_entry(data_root: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(data_root)
    out = tmp_path / "audit.json"
    result = CliRunner().invoke(
        app,
        ["disagreements", "submissions/baseline-hedge", "--rule", "hedge", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "baseline-hedge zh" in result.output and "hedge" in result.output
    assert '"rule": "hedge"' in out.read_text(encoding="utf-8")

"""The rgb-vs-strict disagreement audit (board/disagreements.py): which judgements differ, the
strict rule named for each, the counts per entry and language; the probe answers on instances
rebuilt as the run built them; and the `disagreements` command on the committed answers."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from leaderboard.board.disagreements import (
    answer_disagreements,
    answers_differing,
    counts,
    entry_disagreements,
)
from leaderboard.board.load import load_entry
from leaderboard.cli import app
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import ABILITIES, PROBES, TestInstance

MEASURED = "submissions/qwen2.5-coder-0.5b-instruct"  # a committed model with every probe


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


def test_a_closed_book_answer_differs_like_any_other() -> None:
    inst = TestInstance("zh", "closedbook_fact", 0.0, 0, "q", ("12人",), (), ("20人",))
    record = _record("可能是12人或者20人。").model_copy(
        update={"key": inst.key, "ability": "closedbook_fact"}
    )
    found = answer_disagreements("m", record, inst)
    assert [(d.ability, d.kind, d.strict, d.rule) for d in found] == [
        ("closedbook_fact", "correct", False, "hedge")
    ]


def test_entry_disagreements_keep_probes_apart(data_root: Path) -> None:
    entry = load_entry(data_root / MEASURED)
    cache: dict = {}
    rgb = entry_disagreements(entry, data_root, cache)
    probes = entry_disagreements(entry, data_root, cache, PROBES)
    assert rgb and all(d.ability in ABILITIES for d in rgb)
    assert probes and all(d.ability in PROBES for d in probes)


def test_the_command_lists_probe_answers_only_when_asked(
    data_root: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(data_root)
    out = tmp_path / "probes.json"
    result = CliRunner().invoke(
        app, ["disagreements", MEASURED, "--probes", "--list", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "(probe answers)" in result.output
    assert "/chain/" in result.output
    answers = json.loads(out.read_text(encoding="utf-8"))["answers"]
    assert answers and all(a["ability"] in PROBES for a in answers)
    result = CliRunner().invoke(app, ["disagreements", "--probes", "--write-audits"])
    assert result.exit_code != 0 and "--write-audits" in str(result.exception)

"""`grounding` end to end through the real CLI: the figures results.json stores for a real
scripted run (a conflict folder's per condition), and every answer's category recomputed from the
answers and the fetched data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.board.grounding_labelled import Compared
from leaderboard.cli import app
from leaderboard.cli import grounding as cli_grounding
from leaderboard.cli.grounding import COLUMNS, CONFLICT_COLUMNS
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.scoring.grounding import CATEGORIES
from tests.helpers import write_scripted_submission

runner = CliRunner()


def _run(tmp_path: Path, data_root: Path) -> Path:
    path = write_scripted_submission(
        tmp_path / "sub", scripted={"policy": "copy_first"}, run={"allow_partial_data": True}
    )
    run_submission(
        load_submission(path),
        RunOptions(
            root=data_root,
            selection=Selection(limit=3, languages=("zh",), abilities=("noise", "rejection")),
            progress=False,
        ),
    )
    return tmp_path / "sub"


def test_figures_per_language_and_ability(tmp_path: Path, data_root: Path) -> None:
    folder = _run(tmp_path, data_root)
    result = runner.invoke(app, ["grounding", str(folder)])
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if line.startswith("| lang"))
    assert all(h in header for _, h in COLUMNS)
    rows = [line for line in result.output.splitlines() if line.startswith("| zh |")]
    assert [r.split("|")[2].strip() for r in rows] == ["noise", "rejection"]
    assert "n=3" in rows[1]  # the rejection cell: 3 answers in the denominator
    only = runner.invoke(app, ["grounding", str(folder), "--ability", "rejection"])
    assert [line for line in only.output.splitlines() if line.startswith("| zh |")] == rows[1:]


def test_every_answer_listed_with_its_category(tmp_path: Path, data_root: Path) -> None:
    folder = _run(tmp_path, data_root)
    result = runner.invoke(
        app, ["grounding", str(folder), "--answers", "--data-dir", str(data_root)]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].split("\t") == [
        "key",
        "outcome",
        "category",
        "role",
        "span",
        "reason",
        "omitted",
    ]
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) == 3 * 5 + 3  # noise: 5 rates of 3 questions; rejection: 3
    assert all(r[2] in CATEGORIES for r in rows)
    # copying the first passage: a rejection answer is a noise passage's text
    rejection = [r for r in rows if r[0].startswith("zh/rejection/")]
    assert {r[2] for r in rejection} <= {"wrong_from_passage", "undetermined"}
    assert any(r[3] == "noise" for r in rejection)


def test_a_results_json_without_figures_says_rescore(tmp_path: Path, data_root: Path) -> None:
    folder = _run(tmp_path, data_root)
    results = folder / "results.json"
    data = json.loads(results.read_text("utf-8"))
    data.pop("grounding"), data.pop("grounding_scores")
    results.write_text(json.dumps(data), "utf-8")
    result = runner.invoke(app, ["grounding", str(folder)])
    assert result.exit_code == 0 and "rescore" in result.output


def test_a_conflict_folder_prints_its_table_per_condition(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "entry", scripted={"policy": "copy_first"})
    run_submission(
        load_submission(path),
        RunOptions(
            root=rgb_root,
            selection=Selection(limit=3, languages=("zh",), conflicts=("t1f1", "f1t1")),
            progress=False,
        ),
    )
    folder = tmp_path / "entry" / "conflicts" / "rgb"
    result = runner.invoke(app, ["grounding", str(folder)])
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if line.startswith("| lang"))
    assert all(h in header for _, h in CONFLICT_COLUMNS)
    rows = [line for line in result.output.splitlines() if line.startswith("| zh |")]
    assert [r.split("|")[2].strip() for r in rows] == ["t1f1", "f1t1"]
    listed = runner.invoke(
        app, ["grounding", str(folder), "--answers", "--data-dir", str(rgb_root)]
    )
    assert listed.exit_code == 0, listed.output
    answers = [line.split("\t") for line in listed.output.strip().splitlines()[1:]]
    assert answers and all(a[0].startswith("zh/conflict/") for a in answers)
    # copying the first passage shown: a wrong answer's role is the role declared for it
    assert {a[3] for a in answers if a[2] == "wrong_from_passage"} <= {"gold", "noise", "altered"}


def _compared(split: str, label: str, check: str, **kw: object) -> Compared:
    fields: dict[str, object] = dict.fromkeys(
        ("label_source", "check_source", "label_relevant", "check_relevant")
    )
    return Compared("m/x", split, label, check, **(fields | kw))  # type: ignore[arg-type]


def test_agreement_per_language_held_out_first(monkeypatch: pytest.MonkeyPatch) -> None:
    labelled = {
        "zh": (),
        "en": (
            _compared(
                "test",
                "invented",
                "wrong_from_passage/noise",
                label_source="invented",
                check_source="from_passage",
            ),
            _compared("test", "refused", "refused", label_relevant=True, check_relevant=True),
            _compared("dev", "correct_grounded", "correct_grounded"),
        ),
    }
    monkeypatch.setattr(cli_grounding, "label_comparisons", lambda lang: labelled[lang])
    result = runner.invoke(app, ["grounding-agreement"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "zh: no labelled grounding answers"
    assert [line.split()[:3] for line in lines[1:]] == [
        ["en", "test", "category"],
        ["en", "test", "source"],
        ["en", "test", "relevance"],
        ["en", "dev", "category"],
        ["en", "all", "category"],
        ["en", "all", "source"],
        ["en", "all", "relevance"],
    ]
    assert lines[1] == (
        "en test category  50.0% [9.5, 90.5] (1 of 2); "
        "confusions (hand -> check): invented -> wrong_from_passage/noise 1"
    )
    assert lines[3].startswith("en test relevance 100.0% [") and lines[3].endswith("none")


def test_agreement_on_the_packaged_labels_prints_every_language() -> None:
    result = runner.invoke(app, ["grounding-agreement"])
    assert result.exit_code == 0, result.output
    for lang in ("zh", "en"):
        assert any(line.startswith(lang) for line in result.output.splitlines())

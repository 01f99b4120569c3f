"""`conflicts list|show|check|panel|agreement` through the real CLI on the fetched data."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from leaderboard.cli import app

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]


def test_list_and_show(rgb_root: Path) -> None:
    res = runner.invoke(app, ["conflicts", "list"])
    assert res.exit_code == 0 and "t1f1" in res.output and "panel: conflict_aware" in res.output
    res = runner.invoke(app, ["conflicts", "show", "t2f1", "--data-dir", str(rgb_root)])
    assert res.exit_code == 0 and "left out" in res.output and "positive_wrong[" in res.output


def test_check_names_file_record_and_passage(rgb_root: Path) -> None:
    res = runner.invoke(app, ["conflicts", "check", "--data-dir", str(rgb_root)])
    assert res.exit_code == 0
    assert "zh_fact.json  id 82" in res.output and "fake_contains_true" in res.output
    assert "positive_wrong[" in res.output


def test_panel_of_a_committed_baseline(rgb_root: Path) -> None:
    folder = REPO / "submissions" / "baseline-copy-first"
    res = runner.invoke(app, ["conflicts", "panel", str(folder), "--data-dir", str(rgb_root)])
    assert res.exit_code == 0, res.output
    assert "| zh | t1f1 |" in res.output and "| order | truthful |" in res.output


def test_unknown_condition_is_one_line() -> None:
    res = runner.invoke(app, ["conflicts", "show", "t9f9"])
    assert res.exit_code != 0 and "unknown conflict condition 't9f9'" in str(res.exception)

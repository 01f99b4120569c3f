"""The scripts that print the README's tables from the committed results (scripts/
board_summary.py, scripts/baseline_table.py): every figure with its interval and n, read through
board.ranking as the site reads it, so the README states what results.json holds."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from leaderboard.board.ranking import score_entry
from leaderboard.core.files import read_results
from leaderboard.core.schema import ScoreEntry

REPO = Path(__file__).resolve().parents[2]
FIGURE = re.compile(r"^-?\d+\.\d( \[-?\d+\.\d, -?\d+\.\d\])? n=\d+$")


def _script(name: str) -> ModuleType:
    """scripts/<name>.py as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("value", "ci", "n", "text"),
    [
        (0.348, (0.326, 0.370), 500, "34.8 [32.6, 37.0] n=500"),
        (0.0, (0.0, 0.008), 500, "0.0 [0.0, 0.8] n=500"),
        (0.25, None, 300, "25.0 n=300"),
    ],
)
def test_baseline_table_states_each_score_with_its_interval_and_n(value, ci, n, text) -> None:
    """The floor beside the models with intervals, as the board shows it: a value alone cannot
    tell a model above the floor from one inside its interval."""
    entry = ScoreEntry(
        lang="zh",
        mode="strict",
        ability="overall",
        metric="score",
        value=value,
        ci=ci,
        n_questions=n,
        complete=True,
        definition="d",
    )
    assert _script("baseline_table").score_text(entry) == text


@pytest.mark.parametrize("sub_id", ["qwen2.5-coder-0.5b-instruct", "baseline-refuse"])
def test_board_summary_row_is_what_results_json_holds(sub_id: str) -> None:
    summary = _script("board_summary")
    res = read_results(REPO / "submissions" / sub_id / "results.json")
    cells = summary.row(res)
    assert len(cells) == len(summary.HEAD) and cells[0] == res.display_name
    for cell in cells[2:]:
        assert cell == "—" or FIGURE.match(cell), cell
    overall = score_entry(res, "zh", "overall", "strict")
    assert overall is not None and cells[2].startswith(f"{100 * overall.value:.1f} [")
    if sub_id == "baseline-refuse":  # refuses every rejection question, makes none up
        assert cells[5].startswith("0.0 ") and cells[6].startswith("100.0 ")


@pytest.mark.parametrize(
    ("readme", "args"), [("README.md", []), ("README_zh.md", ["--lang", "zh"])]
)
def test_the_readmes_board_table_is_what_the_script_prints(
    capsys, monkeypatch, readme: str, args: list[str]
) -> None:
    """Each README's table is the script's output from the committed results, character for
    character: rerun `python scripts/board_summary.py` (with `--lang zh` for README_zh.md) and
    paste it when a result changes."""
    monkeypatch.setattr("sys.argv", ["board_summary.py", *args])
    _script("board_summary").main()
    printed = capsys.readouterr().out.strip()
    text = (REPO / readme).read_text(encoding="utf-8")
    marker = " ".join(["<!-- printed by `python scripts/board_summary.py", *args]) + "`"
    assert marker in text, f"{readme}: the board table's marker line is missing"
    after = text[text.index(marker) :].split("\n", 1)[1]
    table = after.split("\n\n", 1)[0].strip()
    assert table == printed


def test_the_chinese_table_states_the_english_tables_figures(capsys, monkeypatch) -> None:
    """The two READMEs' tables differ only in language and typography: the same rows, and in
    every cell the same numbers (2,200 = 2200; the zh intervals' ～ and U+2212 for [a, b] and -)."""
    tables = []
    for args in ([], ["--lang", "zh"]):
        monkeypatch.setattr("sys.argv", ["board_summary.py", *args])
        _script("board_summary").main()
        tables.append(capsys.readouterr().out.strip().splitlines()[2:])
    number = re.compile(r"\d[\d,]*(?:\.\d+)?")
    en, zh = tables
    assert len(en) == len(zh) > 1
    for row_en, row_zh in zip(en, zh, strict=True):
        cells_en, cells_zh = row_en.split(" | ")[1:], row_zh.split(" | ")[1:]
        for a, b in zip(cells_en, cells_zh, strict=True):
            assert number.findall(a.replace(",", "")) == number.findall(b), (a, b)
            assert a.count("-") == b.count("\u2212"), (a, b)
    names = _script("board_summary").HEADS
    assert len(names["zh"]) == len(names["en"])

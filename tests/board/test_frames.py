"""The pandas board: tidy frames of every entry, the analyst API, and safe CSV/JSON exports."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from leaderboard.board.export import spreadsheet_safe, to_csv, to_json
from leaderboard.board.frames import board_from, load_board
from leaderboard.board.load import load_site_data
from leaderboard.site.build import render
from tests.site_factory import make_repo

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("board"), n_models=3, n=6)


def test_one_row_per_score_entry_with_categoricals(repo: Path) -> None:
    board = load_board(repo / "submissions")
    data = load_site_data(repo, with_predictions=False)
    assert len(board.scores) == sum(len(e.results.scores) for e in data.submissions)
    assert list(board.models["model"]) == [e.id for e in data.submissions]
    for col in ("lang", "ability", "mode"):
        assert isinstance(board.scores[col].dtype, pd.CategoricalDtype)
        assert isinstance(board.cells[col].dtype, pd.CategoricalDtype)
    zh = board.scores.query("lang == 'zh' and mode == 'strict' and metric == 'score'")
    assert set(zh["ability"]) == {"noise", "rejection", "integration", "counterfactual", "overall"}


def test_values_match_the_results_files(repo: Path) -> None:
    board = load_board(repo)  # a repository root works as well as its submissions/ folder
    e = load_site_data(repo, with_predictions=False).submissions[1]
    cell = e.results.cells[0]
    row = board.cells[
        (board.cells["model"] == e.id)
        & (board.cells["lang"] == cell.lang)
        & (board.cells["ability"] == cell.ability)
        & (board.cells["noise_rate"] == cell.noise_rate)
        & (board.cells["mode"] == cell.mode)
        & (board.cells["metric"] == "accuracy")
    ].iloc[0]
    assert row["value"] == cell.accuracy and row["n"] == cell.n
    assert (row["ci_low"], row["ci_high"]) == tuple(cell.accuracy_ci)
    table = board.score_table("rgb")
    entry = next(
        s for s in e.results.scores if (s.lang, s.ability, s.mode) == ("zh", "noise", "rgb")
    )
    assert table.loc[e.id, ("zh", "noise")] == pytest.approx(entry.value)


def test_predictions_are_read_on_demand(repo: Path) -> None:
    board = load_board(repo)
    preds = board.predictions(["model-001"])
    assert set(preds["model"]) == {"model-001"} and len(preds) > 0
    assert len(board.predictions()) > len(preds)


def test_committed_board_loads() -> None:
    board = load_board(REPO / "submissions")
    assert "smollm2-135m-instruct" in set(board.models["model"])
    track = dict(zip(board.models["model"], board.models["track"], strict=True))
    assert track["smollm2-135m-instruct"] == "model"
    assert track["baseline-empty"] == "baseline"
    assert track["system-bm25-qwen2.5-coder-0.5b"] == "system"


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-cmd", "'-cmd"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Qwen-7B", "Qwen-7B"),
        ("中文 = 好", "中文 = 好"),
    ],
)
def test_spreadsheet_safe_text(text: str, safe: str) -> None:
    assert spreadsheet_safe(text) == safe


def test_csv_and_json_exports_keep_numbers_and_neutralise_formulas() -> None:
    df = pd.DataFrame({"model": ["=evil()", "ok"], "value": [-0.12, float("nan")]})
    csv_text = to_csv(df)
    assert "'=evil()" in csv_text and "-0.12" in csv_text and "'-0.12" not in csv_text
    assert json.loads(to_json(df)) == [
        {"model": "=evil()", "value": -0.12},
        {"model": "ok", "value": None},
    ]


def test_site_downloads_are_the_board_frames(repo: Path) -> None:
    data = load_site_data(repo)
    out = render(data)
    scores = json.loads(out.files["downloads/board-scores.json"])
    assert len(scores) == len(board_from(data).scores)
    assert (
        "downloads/board-cells.csv" in out.files and "board-models.csv" in out.pages["downloads.md"]
    )


def test_the_outcomes_frame_carries_shares_and_truthfulness(
    tmp_path: Path, data_root: Path
) -> None:
    """A real scripted run (the hedging policy): one row per cell and outcome and per ability
    figure, the four shares of a cell summing to 1, a negative truthfulness kept a number in the
    CSV (not guarded as a formula)."""
    from leaderboard.core.submission import load_submission
    from leaderboard.run.runner import RunOptions, run_submission
    from leaderboard.run.selection import Selection
    from tests.helpers import write_scripted_submission

    path = write_scripted_submission(
        tmp_path / "submissions" / "hedge",
        scripted={"policy": "hedge"},
        run={"allow_partial_data": True},
    )
    selection = Selection(limit=3, languages=("zh",), abilities=("noise", "rejection"))
    results = run_submission(
        load_submission(path), RunOptions(root=data_root, selection=selection, progress=False)
    )
    board = load_board(tmp_path / "submissions")
    frame = board.outcomes
    cells = frame[frame["noise_rate"].notna()]
    assert len(cells) == 4 * len(results.outcomes)
    sums = cells.groupby(["lang", "ability", "noise_rate", "mode"], observed=True)["value"].sum()
    assert sums.to_numpy() == pytest.approx(1.0)
    figures = frame[frame["noise_rate"].isna()]
    truth = figures.query("metric == 'truthfulness' and mode == 'strict' and ability == 'noise'")
    assert len(truth) == 1 and truth["value"].iloc[0] < 0  # a hedge is wrong
    csv_text = to_csv(frame)
    assert ",-" in csv_text and ",'-" not in csv_text  # negative numbers stay numbers
    assert isinstance(frame["ability"].dtype, pd.CategoricalDtype)

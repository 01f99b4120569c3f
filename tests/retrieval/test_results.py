"""Retrieval result files: round trip, one-line errors for a bad file, the board loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.errors import ResultsError
from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.retrieval.evaluate import run_retrieval
from leaderboard.retrieval.results import (
    RetrievalResult,
    load_retrieval_board,
    read_json,
    result_path,
    write_json,
)
from leaderboard.retrieval.split import load_retrieval_split


def test_round_trip_and_board(rgb_root: Path, tmp_path: Path) -> None:
    split = load_retrieval_split(rgb_root, "en", "fact", limit=3)
    res = run_retrieval(split, "pool", BM25Retriever("en"))
    path = result_path(tmp_path, split.name, "pool", "bm25")
    write_json(path, res)
    assert read_json(path, RetrievalResult) == res
    assert '"schema": "rgb-leaderboard/retrieval/1"' in path.read_text(encoding="utf-8")
    assert not list(tmp_path.rglob("*.tmp"))
    board = load_retrieval_board(tmp_path)
    assert [r.split for r in board.results] == ["en_fact"] and not board.grids
    assert load_retrieval_board(tmp_path / "missing").results == []


def test_bad_file_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "en_fact" / "pool-bm25.json"
    bad.parent.mkdir()
    bad.write_text('{"lang": "en"}', encoding="utf-8")
    with pytest.raises(ResultsError, match=r"pool-bm25.json: field '.*': Field required") as exc:
        load_retrieval_board(tmp_path)
    assert "\n" not in str(exc.value) and "retrieval run" in str(exc.value)

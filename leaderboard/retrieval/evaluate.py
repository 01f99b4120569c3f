"""Run a retriever over a split in the pool or corpus setting and build the result file's model.

`stage(description, total)` is how the caller shows progress (the CLI draws a bar); it returns the
function to call with the number of items finished.
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from leaderboard import __version__
from leaderboard.core.errors import ConfigError
from leaderboard.retrieval.base import Progress, Ranking, Retriever
from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.retrieval.chunking import TOKENIZER, check_chunking
from leaderboard.retrieval.corpus import RELEVANT_GRADE, build_corpus
from leaderboard.retrieval.dense import e5_retriever
from leaderboard.retrieval.hybrid import HybridRetriever
from leaderboard.retrieval.metrics import (
    CONFIDENCE,
    METHOD,
    RESAMPLES,
    SEED,
    per_question,
    summarise,
)
from leaderboard.retrieval.openai_embed import EndpointConfig, openai_retriever
from leaderboard.retrieval.pool import Doc, pool_tasks
from leaderboard.retrieval.results import (
    Bootstrap,
    Chunking,
    QuestionResult,
    Ranked,
    RetrievalResult,
    Stat,
)
from leaderboard.retrieval.split import RetrievalSplit

RETRIEVERS = ("bm25", "dense", "hybrid", "openai")
SETTINGS = ("pool", "corpus")
DEFAULT_CHUNK = 256
DEFAULT_OVERLAP = 0.0
DEPTH = 100
TOP_SHOWN = 10
Stage = Callable[[str, int], Progress]
RELEVANCE = {
    "pool": "binary: 1 = one of the question's positive passages, 0 = a negative passage",
    "corpus": (
        "graded: 2 = chunk of one of the question's positive passages holding a gold answer "
        "string, 1 = chunk of a positive passage without it, 0 = otherwise; P/R/MRR count "
        "grade 2, NDCG uses the grades as gains"
    ),
}
LIBRARIES = ("bm25s", "ir_measures", "pytrec-eval-terrier", "numpy", "jieba", "PyStemmer")


def _quiet(_: str, __: int) -> Progress:
    return lambda n: None


def make_retriever(
    name: str, lang: str, cache_dir: Path, endpoint: EndpointConfig | None = None
) -> Retriever:
    """The retriever a CLI name stands for (heavy libraries load when first used)."""
    if name not in RETRIEVERS:
        raise ConfigError(f"--retriever {name!r}: unknown; use one of {', '.join(RETRIEVERS)}")
    if name == "bm25":
        return BM25Retriever(lang)
    if name == "openai":
        if endpoint is None:
            raise ConfigError(
                "--retriever openai needs an embeddings endpoint: pass --base-url "
                "http://HOST:PORT/v1 and --embed-model NAME"
            )
        return openai_retriever(endpoint, cache_dir)
    dense = e5_retriever(cache_dir)
    if name == "dense":
        return dense
    return HybridRetriever(BM25Retriever(lang), dense)


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "rgb-leaderboard": __version__}
    for lib in LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            continue
    return out


def _warm(retriever: Retriever, texts: Sequence[str], stage: Stage) -> None:
    warm = getattr(retriever, "warm", None)
    if warm is None:
        return
    unique = list(dict.fromkeys(texts))
    parts = getattr(retriever, "parts", (retriever,))
    n_embedders = sum(1 for p in parts if hasattr(p, "warm"))
    warm(unique, stage("embedding passages (cached: skipped)", len(unique) * n_embedders))


def _question_result(
    qid: str,
    docs: Sequence[Doc],
    ranking: Ranking,
    qrels: dict[str, int],
    rel: int,
    values: dict[str, float] | None,
) -> QuestionResult:
    ids = [docs[i].id for i in ranking.order]
    rank_of = {d: r for r, d in enumerate(ids, start=1)}
    relevant = sorted(d for d, g in qrels.items() if g >= rel)
    ranks = sorted((rank_of.get(d) for d in relevant), key=lambda r: (r is None, r or 0))
    top = [
        Ranked(id=docs[i].id, score=s, grade=qrels.get(docs[i].id, 0), ref=docs[i].ref)
        for i, s in list(zip(ranking.order, ranking.scores, strict=True))[:TOP_SHOWN]
    ]
    return QuestionResult(
        qid=qid,
        values=values or {},
        first_relevant=ranks[0] if ranks and ranks[0] is not None else None,
        relevant_ranks=ranks,
        top=top,
    )


def run_retrieval(
    split: RetrievalSplit,
    setting: str,
    retriever: Retriever,
    limit: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    overlap: float = DEFAULT_OVERLAP,
    stage: Stage = _quiet,
    command: str = "",
) -> RetrievalResult:
    """Rank, evaluate, summarise. In the corpus setting the corpus is always the whole split's
    passages, `limit` only cuts the questions asked."""
    if setting not in SETTINGS:
        raise ConfigError(f"--setting {setting!r}: use pool or corpus")
    started = datetime.now(UTC)
    t0 = time.perf_counter()
    questions = split.questions[:limit] if limit is not None else split.questions
    chunking = None
    if setting == "pool":
        tasks = pool_tasks(questions)
        _warm(retriever, [d.text for t in tasks for d in t.docs], stage)
        tick = stage(f"ranking {split.name} pools ({retriever.name})", len(tasks))
        rankings, docs_of, qrels = {}, {}, {}
        for t in tasks:
            rankings[t.question.qid] = retriever.rank(t.question.query, [d.text for d in t.docs])
            docs_of[t.question.qid] = t.docs
            qrels[t.question.qid] = t.qrels
            tick(1)
        rel, depth = 1, None
    else:
        check_chunking(chunk_size, overlap)
        corpus = build_corpus(split.questions, split.lang, chunk_size, overlap)
        texts = [d.text for d in corpus.docs]
        _warm(retriever, texts, stage)
        tick = stage(f"searching the {split.name} corpus ({retriever.name})", len(questions))
        ranked = retriever.rank_shared([q.query for q in questions], texts, DEPTH, tick)
        rankings = {q.qid: r for q, r in zip(questions, ranked, strict=True)}
        docs_of = {q.qid: corpus.docs for q in questions}
        qrels = {q.qid: corpus.qrels[q.qid] for q in questions}
        rel, depth = RELEVANT_GRADE, DEPTH
        chunking = Chunking(
            size=chunk_size,
            overlap=overlap,
            tokenizer=TOKENIZER,
            n_passages=corpus.n_passages,
            n_chunks=len(corpus.docs),
        )
    run = {q: [docs_of[q][i].id for i in r.order] for q, r in rankings.items()}
    values, skipped = per_question(qrels, run, rel)
    stats = summarise(values)
    per_q = [
        _question_result(
            q.qid,
            docs_of[q.qid],
            rankings[q.qid],
            qrels[q.qid],
            rel,
            None if q.qid in skipped else {m: values[m][q.qid] for m in values},
        )
        for q in questions
    ]
    cache = getattr(retriever, "cache", None)
    parts = getattr(retriever, "parts", ())
    embedded = sum(getattr(getattr(p, "cache", None), "embedded", 0) for p in parts)
    embedded += getattr(cache, "embedded", 0)
    prov = {
        "retriever": retriever.provenance(),
        "libraries": _versions(),
        "platform": platform.platform(),
        "data": {"file": split.file, "git_blob_id": split.blob_id, "partial": split.partial},
        "started": started.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "elapsed_s": round(time.perf_counter() - t0, 2),
        "embedded_this_run": embedded,
        "limit": limit,
        "command": command,
    }
    return RetrievalResult(
        lang=split.lang,
        split=split.name,
        file=split.file,
        partial=split.partial,
        setting=setting,
        retriever=retriever.name,
        relevance=RELEVANCE[setting],
        relevant_grade=rel,
        depth=depth,
        chunking=chunking,
        n_questions=len(questions),
        n_evaluated=len(questions) - len(skipped),
        skipped=skipped,
        metrics={m: Stat(mean=s.mean, ci=s.ci) for m, s in stats.items()},
        bootstrap=Bootstrap(resamples=RESAMPLES, seed=SEED, confidence=CONFIDENCE, method=METHOD),
        per_question=per_q,
        provenance=prov,
    )

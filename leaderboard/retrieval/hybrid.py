"""Hybrid retrieval: reciprocal rank fusion (Cormack et al., 2009) of two rankings.

score(d) = sum over rankings r of 1 / (k + rank_r(d)), rank 1-based, k = 60; a passage missing from
a (cut) ranking contributes nothing there. Ties are broken by candidate index, as elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from leaderboard.retrieval.base import Progress, Ranking, Retriever

RRF_K = 60


def rrf(rankings: Sequence[Ranking], k: int = RRF_K, depth: int | None = None) -> Ranking:
    fused: dict[int, float] = {}
    for ranking in rankings:
        for pos, idx in enumerate(ranking.order, start=1):
            fused[idx] = fused.get(idx, 0.0) + 1.0 / (k + pos)
    items = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
    if depth is not None:
        items = items[:depth]
    return Ranking(tuple(i for i, _ in items), tuple(s for _, s in items))


class HybridRetriever(Retriever):
    """RRF of two retrievers (BM25 + dense by default)."""

    def __init__(self, first: Retriever, second: Retriever, k: int = RRF_K) -> None:
        self.name = "hybrid"
        self.parts = (first, second)
        self.k = k

    def warm(self, passages: Sequence[str], progress: Progress | None = None) -> None:
        for part in self.parts:
            warm = getattr(part, "warm", None)
            if warm is not None:
                warm(passages, progress)

    def rank(self, query: str, passages: Sequence[str]) -> Ranking:
        return rrf([p.rank(query, passages) for p in self.parts], self.k)

    def _ranker(
        self, queries: Sequence[str], corpus: Sequence[str], depth: int
    ) -> Callable[[int], Ranking]:
        # fuse deeper lists than reported, so a passage ranked 101st by one side still counts
        inner = max(depth, 10 * depth)
        lists = [p.rank_shared(queries, corpus, inner) for p in self.parts]
        return lambda i: rrf(tuple(ranked[i] for ranked in lists), self.k, depth)

    def provenance(self) -> dict[str, object]:
        return {
            "retriever": "hybrid",
            "fusion": f"reciprocal rank fusion, k={self.k}",
            "parts": [p.provenance() for p in self.parts],
        }

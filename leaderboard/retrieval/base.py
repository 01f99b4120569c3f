"""The one interface every retriever implements, and the ranking it returns.

A retriever turns (query, candidate passages) into an order. Two entry points: `rank` for one
query over its own candidates (the pool setting), `rank_shared` for many queries over one shared
corpus (the corpus setting), where an index or the passage embeddings are built once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

Progress = Callable[[int], None]  # called with the number of items just finished


@dataclass(frozen=True)
class Ranking:
    """Candidate indices, best first, with the retriever's score for each (same length)."""

    order: tuple[int, ...]
    scores: tuple[float, ...]

    def position(self, index: int) -> int | None:
        """1-based rank of candidate `index`, None when it is not in the (possibly cut) ranking."""
        try:
            return self.order.index(index) + 1
        except ValueError:
            return None


def ranking_from_scores(scores: np.ndarray, depth: int | None = None) -> Ranking:
    """Sort by score, descending; ties keep candidate order (stable): reproducible rankings."""
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    if depth is not None:
        order = order[:depth]
    return Ranking(tuple(int(i) for i in order), tuple(float(scores[i]) for i in order))


class Retriever:
    """What the evaluation needs from a retriever, and the one shared-corpus loop they all use.

    Subclasses give `rank`, `provenance` and `_ranker`; `rank_shared` (progress ticks included)
    lives here once, so the three retrievers cannot drift in how they walk the queries.
    """

    name: str

    def rank(self, query: str, passages: Sequence[str]) -> Ranking:
        """Order one query's own candidates (all of them)."""
        raise NotImplementedError

    def _ranker(
        self, queries: Sequence[str], corpus: Sequence[str], depth: int
    ) -> Callable[[int], Ranking]:
        """Build the shared index once; return the ranking of query number i (cut at `depth`)."""
        raise NotImplementedError

    def rank_shared(
        self,
        queries: Sequence[str],
        corpus: Sequence[str],
        depth: int,
        progress: Progress | None = None,
    ) -> list[Ranking]:
        """For each query, the best `depth` passages of one shared corpus."""
        one = self._ranker(queries, corpus, depth)
        out = []
        for i in range(len(queries)):
            out.append(one(i))
            if progress is not None:
                progress(1)
        return out

    def provenance(self) -> dict[str, object]:
        """Library versions, model file hash, tokenizer: what a result must record."""
        raise NotImplementedError

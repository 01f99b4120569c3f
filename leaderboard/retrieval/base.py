"""The one interface every retriever implements, and the ranking it returns.

A retriever turns (query, candidate passages) into an order. Two entry points: `rank` for one
query over its own candidates (the pool setting), `rank_shared` for many queries over one shared
corpus (the corpus setting), where an index or the passage embeddings are built once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

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


class Retriever(Protocol):
    """What the evaluation needs from a retriever."""

    name: str

    def rank(self, query: str, passages: Sequence[str]) -> Ranking:
        """Order one query's own candidates (all of them)."""
        ...

    def rank_shared(
        self,
        queries: Sequence[str],
        corpus: Sequence[str],
        depth: int,
        progress: Progress | None = None,
    ) -> list[Ranking]:
        """For each query, the best `depth` passages of one shared corpus."""
        ...

    def provenance(self) -> dict[str, object]:
        """Library versions, model file hash, tokenizer: what a result must record."""
        ...

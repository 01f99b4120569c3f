"""The retriever behind the chain probe, and what the results record about the probes.

The chain uses the retrieval track's BM25 (bm25s; jieba `cut_for_search` tokens for zh, stemmed
English tokens without stopwords for en) in the `pool` setting: each question ranks its own
positive and negative passages. BM25 is the retriever the track measured on every offline split
(dense e5 only on en_fact), so it is the best offline retriever available for both languages.
Rankings are memoised per (language, question, pool), since a run builds its plan more than once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from leaderboard.core.types import Lang
from leaderboard.protocol.probe_instances import (
    CLOSED_BOOK_RULE,
    REPLACEMENT_RULE,
    REPLACEMENT_SEED,
    Rank,
)
from leaderboard.retrieval.bm25 import BM25Retriever

CHAIN_RETRIEVER = "bm25"
CHAIN_SETTING = "pool"


@lru_cache(maxsize=2)
def _retriever(lang: Lang) -> BM25Retriever:
    return BM25Retriever(lang)


@lru_cache(maxsize=4096)
def _ranked(lang: Lang, query: str, passages: tuple[str, ...]) -> tuple[int, ...]:
    return _retriever(lang).rank(query, passages).order


def chain_rank(lang: Lang) -> Rank:
    """The chain's rank function for one language: candidate indices, best first."""

    def rank(query: str, passages: Sequence[str]) -> Sequence[int]:
        return _ranked(lang, query, tuple(passages))

    return rank


def probes_provenance(langs: Sequence[Lang], passage_num: int, system: bool) -> dict[str, object]:
    """How the probe instances were built, for results.json's provenance."""
    chain: dict[str, object] = {"top_k": passage_num, "order": "rank order, best first"}
    if system:
        chain["retriever"] = "the submitted system's own (it returns the passage ids it used)"
    else:
        chain |= {
            "retriever": CHAIN_RETRIEVER,
            "setting": CHAIN_SETTING,
            "by_lang": {lang: _retriever(lang).provenance() for lang in langs},
        }
    return {
        "chain": chain,
        "replacement": {
            "seed": REPLACEMENT_SEED,
            "rule": REPLACEMENT_RULE.format(k=passage_num, seed=REPLACEMENT_SEED),
        },
        "closedbook": {"rule": CLOSED_BOOK_RULE, "questions": "the noise file's"},
        "closedbook_fact": {"rule": CLOSED_BOOK_RULE, "questions": "the counterfactual file's"},
    }

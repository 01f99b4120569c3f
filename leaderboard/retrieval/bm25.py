"""BM25 (bm25s, Lucene variant k1=1.5, b=0.75) over language-aware tokens.

zh: jieba `cut_for_search` (words plus their shorter in-vocabulary parts, so 北京大学 also matches
北京), lowercased, whitespace and punctuation dropped. en: lowercased word runs (bm25s's default
token pattern), bm25s's English stopword list removed, Snowball English stemming (PyStemmer).
Token lists are memoised per text within a process, as the same passage recurs across questions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import metadata

import numpy as np

from leaderboard.core.errors import BackendUnavailable, ConfigError
from leaderboard.retrieval.base import Ranking, Retriever, ranking_from_scores

_EN_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_ZH_KEEP = re.compile(r"\w")
K1, B = 1.5, 0.75


@lru_cache(maxsize=1)
def _stemmer():
    try:
        import Stemmer  # deferred: PyStemmer is only needed for English BM25
    except ImportError:
        raise BackendUnavailable(
            "English BM25 needs PyStemmer for stemming: `pip install PyStemmer`"
        ) from None
    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _en_stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN  # deferred: bm25s imports scipy-sized modules

    return frozenset(STOPWORDS_EN)


@lru_cache(maxsize=200_000)
def tokens_zh(text: str) -> tuple[str, ...]:
    import jieba  # deferred: jieba loads its dictionary on first use (about a second)

    return tuple(t.lower() for t in jieba.cut_for_search(text) if t.strip() and _ZH_KEEP.search(t))


@lru_cache(maxsize=200_000)
def tokens_en(text: str) -> tuple[str, ...]:
    stop = _en_stopwords()
    words = [w for w in _EN_TOKEN.findall(text.lower()) if w not in stop]
    return tuple(_stemmer().stemWords(words))


def analyser(lang: str):
    if lang == "zh":
        return tokens_zh
    if lang == "en":
        return tokens_en
    raise ConfigError(f"--lang {lang!r}: BM25 has analysers for 'zh' and 'en' only")


def _index(docs: list[tuple[str, ...]]):
    import bm25s  # deferred (see _en_stopwords)

    model = bm25s.BM25(k1=K1, b=B, method="lucene")
    # an empty document would break bm25s's matrix; a placeholder token matches no query
    model.index([list(d) or ["\0"] for d in docs], show_progress=False)
    return model


class BM25Retriever(Retriever):
    """BM25 per language; `rank` indexes the question's own pool (IDF from that pool)."""

    def __init__(self, lang: str) -> None:
        self.name = "bm25"
        self.lang = lang
        self.tokens = analyser(lang)

    def _scores(self, model, query: str, n: int) -> np.ndarray:
        q = [t for t in self.tokens(query) if t in model.vocab_dict]
        if not q:
            return np.zeros(n)
        return np.asarray(model.get_scores(q), dtype=np.float64)

    def rank(self, query: str, passages: Sequence[str]) -> Ranking:
        if not passages:
            return Ranking((), ())
        model = _index([self.tokens(p) for p in passages])
        return ranking_from_scores(self._scores(model, query, len(passages)))

    def _ranker(
        self, queries: Sequence[str], corpus: Sequence[str], depth: int
    ) -> Callable[[int], Ranking]:
        model = _index([self.tokens(p) for p in corpus])
        return lambda i: ranking_from_scores(self._scores(model, queries[i], len(corpus)), depth)

    def provenance(self) -> dict[str, object]:
        prov: dict[str, object] = {
            "retriever": "bm25",
            "bm25s": metadata.version("bm25s"),
            "parameters": {"k1": K1, "b": B, "method": "lucene"},
        }
        if self.lang == "zh":
            prov["tokenizer"] = f"jieba {metadata.version('jieba')} cut_for_search, lowercased"
        else:
            prov["tokenizer"] = (
                "lowercased \\w\\w+ words, bm25s STOPWORDS_EN removed, "
                f"PyStemmer {metadata.version('PyStemmer')} Snowball english"
            )
        return prov

"""Tokens of the strict normal form (jieba words or word tokens, per the language's profile) and
token F1.

Token F1 is a diagnostic partial credit (as in LongBench / CRUD-RAG).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from leaderboard.core.types import Answer, Lang
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.profile import profile

_WORD = re.compile(r"\w+")


@cache
def _jieba() -> Callable[..., list[str]]:
    """jieba's `lcut`, its dictionary loaded (about a second, once per process)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba.lcut


def load_jieba() -> None:
    """Load jieba's dictionary now rather than on the first Chinese prediction (once before forking
    workers, not once per worker)."""
    _jieba()


@lru_cache(maxsize=65536)
def zh_words(text: str) -> list[str]:
    """jieba's words of a raw Chinese text (dictionary only, HMM off: deterministic), joined back
    they are the text: where a character is a word of its own (等 in "刘冠麟等主演"), not part of
    one (平等, 等待)."""
    return _jieba()(text, HMM=False)


def _tokenize_normalized(norm: str, lang: Lang) -> tuple[str, ...]:
    prof = profile(lang)
    if prof.tokens == "jieba":
        # jieba dictionary segmentation with HMM off: deterministic, and keeps dates apart
        # (4/日/至, not 4/日至).
        tokens = _jieba()(norm, HMM=False)
        return tuple(t for t in tokens if t != " ") if " " in norm else tuple(tokens)
    return tuple(t for t in _WORD.findall(norm) if t not in prof.articles)


def tokenize(text: str, lang: Lang) -> list[str]:
    """Tokens of the normalised text: jieba words for zh, word tokens without articles for en."""
    return list(_tokenize_normalized(normalize(text, lang), lang))


@dataclass(frozen=True)
class _Gold:
    """An answer's tokens, prepared once per answer: per element, per alternative, (token counts,
    token count); and every gold token, to skip segmenting outputs that cannot share one."""

    elements: tuple[tuple[tuple[Counter[str], int], ...], ...]
    any_token: re.Pattern[str] | None  # finds any gold token (None: there is none)


@lru_cache(maxsize=65536)
def _gold(answers: Answer, lang: Lang) -> _Gold:
    elements = []
    for element in answers:
        alternatives = (element,) if isinstance(element, str) else element
        toks = [_tokenize_normalized(normalize(alt, lang), lang) for alt in alternatives]
        elements.append(tuple((Counter(t), len(t)) for t in toks))
    every = sorted(
        {t for el in elements for counts, _ in el for t in counts}, key=len, reverse=True
    )
    any_token = re.compile("|".join(map(re.escape, every))) if every else None
    return _Gold(tuple(elements), any_token)


def _f1(pred: Counter[str], n_pred: int, gold: Counter[str], n_gold: int) -> float:
    if not n_pred or not n_gold:
        return 0.0
    common = sum(min(pred[t], c) for t, c in gold.items() if t in pred)
    if common == 0:
        return 0.0
    precision = common / n_pred
    recall = common / n_gold
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, answers: Answer, lang: Lang) -> float:
    """Diagnostic partial credit (as in LongBench / CRUD-RAG): token F1 per answer element.

    Each element scores the best F1 over its alternatives; the result is the mean over elements, so
    a two-part answer with one part right gets about half. 0.0 for an empty prediction or answer.
    """
    return token_f1_normalized(normalize(prediction, lang), answers, lang)


def token_f1_normalized(norm: str, answers: Answer, lang: Lang) -> float:
    """token_f1 for a prediction already in strict normal form."""
    if not answers:
        return 0.0
    gold = _gold(answers, lang)
    # Tokens are substrings of the normal form: if no gold token occurs in it, every F1 is 0 and
    # the output need not be segmented.
    if not norm or gold.any_token is None or gold.any_token.search(norm) is None:
        return 0.0
    tokens = _tokenize_normalized(norm, lang)
    if not tokens:
        return 0.0
    pred, n_pred = Counter(tokens), len(tokens)
    total = 0.0
    for alternatives in gold.elements:
        total += max((_f1(pred, n_pred, g, n) for g, n in alternatives), default=0.0)
    return total / len(answers)

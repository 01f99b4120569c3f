"""Deterministic answer policies: the trivial strategies a ranked score must not reward.

Each policy maps what the model was shown (the request's passages and language, see
core.types.ChatRequest) to an answer, without a model. They are the "trivial baselines" of the
board (submissions/baseline-*): the floor a real model has to beat, and the cases the strict
aggregates are designed against (stats/aggregate.py).

The refusal and error sentences are the ones the RGB system prompt tells the model to produce
(protocol/resources/instruction.yaml); tests check that they are quoted there verbatim.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import cache

from leaderboard.core.types import ChatRequest, Lang

# The sentences the reference instruction asks for, per language.
REFUSAL: dict[Lang, str] = {
    "zh": "文档信息不足，因此我无法基于提供的文档回答该问题。",
    "en": "I can not answer the question because of the insufficient information in documents.",
}
ERROR_CLAIM: dict[Lang, str] = {
    "zh": "提供文档的文档存在事实性错误。",
    "en": "There are factual errors in the provided documents.",
}
_LIST_SEP: dict[Lang, str] = {"zh": "、", "en": "; "}

# Numbers with their unit or date parts (2022年1月3日, 6.4%, 1,313,851, 3人), Chinese numerals.
_ZH_NUMBER = re.compile(
    r"\d{2,4}年(?:\d{1,2}月(?:\d{1,2}[日号])?)?|\d{1,2}月\d{1,2}[日号]"
    r"|\d+(?:[.,，]\d+)*(?:\s*(?:%|％|年|月|日|号|万|亿|元|人|个|岁|天|次|名|届|倍|米|公里|吨))*"
    r"|[〇零一二两三四五六七八九十百千万亿]{2,}"
)
_EN_NUMBER = re.compile(r"\$?\d+(?:[.,]\d+)*(?:\s*(?:%|percent|million|billion|km|m))?")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_EN_DATE = re.compile(rf"(?:{_MONTHS})\s+\d{{1,2}}(?:,\s*\d{{4}})?|\d{{1,2}}\s+(?:{_MONTHS})")
# A capitalised span, allowing short lower-case joiners inside (Bank of England, Lionel Messi).
_EN_NAME = re.compile(
    r"[A-Z][\w'’.&-]*(?:\s+(?:(?:of|the|de|van|von|and|for|da)\s+)?[A-Z][\w'’.&-]*)*"
)
_ZH_QUOTED = re.compile(r"《[^》]{1,40}》|“[^”]{1,20}”")
_ZH_ENTITY_FLAGS = ("nr", "ns", "nt", "nz", "eng")


@cache
def _posseg():
    """jieba's part-of-speech tagger. Deferred: importing jieba.posseg loads its HMM tables (several
    MB), and only the candidates policy needs it."""
    import jieba.posseg

    return jieba.posseg


def _unique(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in (i.strip(_STRIP) for i in items):
        if item and item not in seen:
            seen.add(item)
            out.append(item)
    return out


_STRIP = " ,.;:，。；："


def _spans(passages: tuple[str, ...], lang: Lang) -> list[str]:
    """Every candidate span of the passages, in order of appearance, repeats kept."""
    found: list[tuple[int, int, str]] = []
    for k, text in enumerate(passages):
        if lang == "zh":
            for m in (*_ZH_NUMBER.finditer(text), *_ZH_QUOTED.finditer(text)):
                found.append((k, m.start(), m.group()))
            pos = 0
            for word, flag in _posseg().cut(text):
                start = text.find(word, pos)
                pos = start + len(word) if start >= 0 else pos
                if flag.startswith(_ZH_ENTITY_FLAGS) and len(word) > 1:
                    found.append((k, max(start, 0), word))
        else:
            for pattern in (_EN_DATE, _EN_NUMBER, _EN_NAME):
                found.extend((k, m.start(), m.group()) for m in pattern.finditer(text))
    found.sort(key=lambda t: (t[0], t[1]))
    return [item for item in (t[2].strip(_STRIP) for t in found) if item]


def candidates(passages: tuple[str, ...], lang: Lang) -> list[str]:
    """Every candidate answer in the passages, in order of appearance: numbers, dates and named
    entities (zh: jieba person/place/organisation/other proper-noun tags, titles in 《》 and quoted
    terms; en: capitalised spans), each once."""
    return _unique(_spans(passages, lang))


def top_candidates(passages: tuple[str, ...], lang: Lang, k: int) -> list[str]:
    """The k candidates (see candidates) found most often in the passages (as spans, not as
    substrings: "A" inside every capitalised word does not count); ties keep the order of
    appearance."""
    counts = Counter(_spans(passages, lang))
    return sorted(counts, key=lambda c: -counts[c])[:k]  # stable: Counter keeps first appearance


# Committing to one candidate, and offering k of them as options (hedging must not score above
# committing to the top candidate).
HEDGE_K = 3
# public: scripts/list_top_k.py frames its lists the same way, so its k = 1 is this baseline
COMMIT: dict[Lang, str] = {"zh": "答案是{}。", "en": "The answer is {}."}
_HEDGE: dict[Lang, tuple[str, str, str]] = {
    "zh": ("可能是{}。", "、", "或"),
    "en": ("It could be {}.", ", ", " or "),
}


def _commit(request: ChatRequest) -> str:
    lang = _lang(request)
    top = top_candidates(request.passages, lang, 1)
    return COMMIT[lang].format(top[0]) if top else ""


def _hedge(request: ChatRequest) -> str:
    lang = _lang(request)
    top = top_candidates(request.passages, lang, HEDGE_K)
    if not top:
        return ""
    frame, sep, last = _HEDGE[lang]
    options = top[0] if len(top) == 1 else sep.join(top[:-1]) + last + top[-1]
    return frame.format(options)


def _lang(request: ChatRequest) -> Lang:
    if request.lang is None:
        raise ValueError("a scripted policy needs the request's language (build_request sets it)")
    return request.lang


Policy = Callable[[ChatRequest], str]

POLICIES: dict[str, Policy] = {
    "empty": lambda r: "",
    "refuse": lambda r: REFUSAL[_lang(r)],
    "refuse_error": lambda r: REFUSAL[_lang(r)] + " " + ERROR_CLAIM[_lang(r)],
    "copy_all": lambda r: "\n".join(r.passages),
    "copy_first": lambda r: r.passages[0] if r.passages else "",
    "candidates": lambda r: _LIST_SEP[_lang(r)].join(candidates(r.passages, _lang(r))),
    "top_candidate": _commit,
    "hedge": _hedge,
}

"""Strict answer matching: which gold elements the response asserts as its own answer.

An element is found when one of its alternatives occurs in the normal form at number (and en
word) boundaries, outside any fake answer containing it, and not negated ("It is not Norway",
"答案不是X"). The answer part is judged, not any substring of a long output, so that a
response pasting the passages or listing every candidate is not credited for the gold inside it:
- a copy — a response at least half made of verbatim passage text, with profile.copy_min copied
  characters or more, over two sentences or more — credits nothing, even when the gold string is
  inside it (one quoted passage sentence that states the answer is an answer);
- a candidate list — many short items (every entity of the passages) — credits nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leaderboard.core.types import Answer, Lang
from leaderboard.scoring.normalize import mask, normalize, occurrences
from leaderboard.scoring.profile import profile
from leaderboard.scoring.reason import CONTEXT, ElementReason, ElementStatus

# Copy detection on the normal form (per language: profile.chunk, profile.copy_min): chunks looked
# up verbatim in the passages; a copy has enough copied characters and at least half its chunks
# copied, and it spans at least two sentences (one quoted sentence that states the answer is an
# answer).
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s)")
# A candidate list has at least LIST_MIN items (and twice the answer's elements plus 2),
# 80% of them short (profile.short_item characters at most).
LIST_MIN = 8
_LIST_SEP = re.compile(r"[、,，;；\n/|]")


def _negated(norm: str, start: int, lang: Lang) -> bool:
    """Is the answer found at `start` negated ("It is not Norway", "答案不是X")? profile.py says how
    far a negation word reaches per language."""
    prof = profile(lang)
    neg = prof.answer_negation
    before = norm[max(0, start - neg.reach) : start]
    if not prof.word_boundaries:
        return before.endswith(neg.words)
    words = before.split()
    for word in reversed(words[max(0, len(words) - neg.last_words) :]):
        if word in neg.cancel:
            return False
        if word in neg.words:
            return True
    return False


@lru_cache(maxsize=65536)
def matchers(
    answer: Answer, fakeanswer: Answer, lang: Lang
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]:
    """Per answer element, its non-empty normalised alternatives, each with the normalised fake
    answers that contain it (to be masked before searching); prepared once per instance."""
    fakes = tuple(
        normalize(a, lang) for el in fakeanswer for a in ((el,) if isinstance(el, str) else el)
    )
    out = []
    for el in answer:
        alts = (normalize(a, lang) for a in ((el,) if isinstance(el, str) else el))
        out.append(tuple((alt, tuple(f for f in fakes if alt in f)) for alt in alts if alt))
    return tuple(out)


def found(norm: str, alt: str, covering: tuple[str, ...], lang: Lang) -> bool:
    """Does `alt` occur at a boundary, outside the fake answers covering it, not negated?"""
    text = mask(norm, covering) if covering else norm
    return any(not _negated(text, s, lang) for s in occurrences(text, alt, lang))


def labels(norm: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()) -> tuple[int, ...]:
    """Per answer element 1/0: asserted (not negated), outside fake answers containing it."""
    return tuple(
        int(any(found(norm, alt, covering, lang) for alt, covering in alternatives))
        for alternatives in matchers(answer, fakeanswer, lang)
    )


def _first(el: str | tuple[str, ...]) -> str:
    return el if isinstance(el, str) else el[0]


def element_reasons(
    norm: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()
) -> tuple[ElementReason, ...]:
    """Per answer element what matching found (reason.py): the first alternative asserted, with
    its offset and the normal form around it, or why none is (nowhere, only negated, only inside
    the fake answer). `matched` exactly where `labels` gives 1."""
    out = []
    for el, alternatives in zip(answer, matchers(answer, fakeanswer, lang), strict=True):
        status: ElementStatus = "not_found"
        hit: tuple[str, int] | None = None
        for alt, covering in alternatives:
            text = mask(norm, covering) if covering else norm
            starts = list(occurrences(text, alt, lang))
            kept = [s for s in starts if not _negated(text, s, lang)]
            if kept:
                status, hit = "matched", (alt, kept[0])
                break
            if starts:
                status = "negated"
            elif status == "not_found" and next(occurrences(norm, alt, lang), None) is not None:
                status = "fake_answer"
        if hit is None:
            out.append(ElementReason(_first(el), status))
            continue
        alt, at = hit
        context = norm[max(0, at - CONTEXT) : at + len(alt) + CONTEXT]
        out.append(ElementReason(_first(el), "matched", alt, at, context))
    return tuple(out)


@lru_cache(maxsize=4096)
def _passages(docs: tuple[str, ...], lang: Lang) -> str:
    return "\x00".join(normalize(d, lang) for d in docs)


def _two_sentences(text: str) -> bool:
    return sum(1 for s in _SENTENCE_END.split(text) if len(s.strip()) >= 8) >= 2


def is_copy(text: str, norm: str, docs: tuple[str, ...], lang: Lang) -> bool:
    """Is the response mostly verbatim passage text, and longer than one sentence?"""
    prof = profile(lang)
    if not docs or len(norm) < prof.copy_min or not _two_sentences(text):
        return False
    passages = _passages(docs, lang)
    n = prof.chunk
    chunks = range(0, len(norm) - n + 1, n)
    copied = sum(1 for i in chunks if norm[i : i + n] in passages)
    return copied * n >= prof.copy_min and 2 * copied >= len(chunks)


def is_candidate_list(text: str, answer: Answer, lang: Lang) -> bool:
    """Many short list items: every candidate named, none chosen."""
    need = max(LIST_MIN, 2 * len(answer) + 2)
    if len(_LIST_SEP.findall(text)) < need - 1:
        return False
    items = [x for x in (i.strip() for i in _LIST_SEP.split(text)) if x]
    if len(items) < need:
        return False
    short = sum(1 for x in items if len(x) <= profile(lang).short_item)
    return short >= 0.8 * len(items)

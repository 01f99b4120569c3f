"""Strict answer matching: which gold elements the response asserts as its own answer.

An element is found when one of its alternatives occurs in the normal form at number (and en
word) boundaries, outside any fake answer containing it, and not negated ("It is not Norway",
"答案不是X"). The answer part is judged, not any substring of a long output, so that a
response pasting the passages or listing every candidate is not credited for the gold inside it:
- a copy — a response at least half made of verbatim passage text, with profile.copy_min copied
  characters or more, that holds a whole passage pasted over two of its sentences or more, or runs
  over three sentences or more (sentences.py: initials and abbreviations end none) — credits
  nothing, even when the gold string is inside it. Short of a whole passage, an answer is more
  than its passages: one or two quoted passage sentences that state the answer are an answer (a
  one-sentence passage quoted as one sentence, its snippet date aside, is such a quote), and so
  is a first sentence of the response's own that commits to the answer, whatever quoted evidence
  follows it: mostly not verbatim, or condensed from a passage (its verbatim pieces broken where
  words were dropped) rather than one passage sentence pasted behind a preamble;
- a candidate list (scoring/candidates.py) credits nothing either.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leaderboard.core.types import Answer, Lang
from leaderboard.scoring.hedge import committed
from leaderboard.scoring.normalize import mask, normalize, normalize_surface, occurrences
from leaderboard.scoring.phrases import phrase_table
from leaderboard.scoring.profile import profile
from leaderboard.scoring.reason import CONTEXT, ElementReason, ElementStatus
from leaderboard.scoring.sentences import COPY_SPLIT, split

# Copy detection on the normal form (per language: profile.chunk, profile.copy_min): chunks looked
# up verbatim in the passages; a copy has enough copied characters and at least half its chunks
# copied, and it spans at least COPY_SENTENCES sentences of 8 characters or more.
COPY_SENTENCES = 3
# A response holds a whole passage when it holds this share of the passage's chunks.
WHOLE_PASSAGE = 0.75
# A first sentence whose longest verbatim passage piece is this share of its text is pasted.
PASTED_SENTENCE = 0.75


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
    golds = {normalize(a, lang) for el in answer for a in ((el,) if isinstance(el, str) else el)}
    # a "fake" equal to a gold alternative is no fake (a data slip): it must not hide the gold
    fakes = tuple(
        f
        for el in fakeanswer
        for a in ((el,) if isinstance(el, str) else el)
        if (f := normalize(a, lang)) not in golds
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


_BARE_NUMBER = re.compile(r"\u2212?[0-9]+(?:\.[0-9]+)?")


@lru_cache(maxsize=65536)
def _surface_fakes(fakeanswer: Answer, lang: Lang) -> tuple[str, ...]:
    return tuple(
        normalize_surface(a, lang)
        for el in fakeanswer
        for a in ((el,) if isinstance(el, str) else el)
    )


def _surface_hit(
    surface: str, alt: str, fakeanswer: Answer, lang: Lang
) -> tuple[ElementStatus, int | None]:
    """A bare-number alternative (60.39) looked for among the numbers as written (60.39亿元): the
    gold leaves the unit to the question, the response may say it."""
    covering = tuple(f for f in _surface_fakes(fakeanswer, lang) if alt in f)
    text = mask(surface, covering) if covering else surface
    starts = list(occurrences(text, alt, lang))
    kept = [s for s in starts if not _negated(text, s, lang)]
    if kept:
        return "matched", kept[0]
    return ("negated" if starts else "not_found"), None


def element_reasons(
    norm: str, answer: Answer, lang: Lang, fakeanswer: Answer = (), surface: str | None = None
) -> tuple[ElementReason, ...]:
    """Per answer element what matching found (reason.py): the first alternative asserted, with
    its offset and the normal form around it, or why none is (nowhere, only negated, only inside
    the fake answer). With `surface` (normalize_surface of the response) an alternative that is a
    bare number is also looked for among the numbers as written: 60.39 in 60.39亿元."""
    out = []
    for el, alternatives in zip(answer, matchers(answer, fakeanswer, lang), strict=True):
        status: ElementStatus = "not_found"
        hit: tuple[str, int] | None = None
        where = norm
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
        if hit is None and surface is not None:
            for alt, _ in alternatives:
                if not _BARE_NUMBER.fullmatch(alt):
                    continue
                got, at = _surface_hit(surface, alt, fakeanswer, lang)
                if got == "matched" and at is not None:
                    status, hit, where = "matched", (alt, at), surface
                    break
                if got == "negated" and status == "not_found":
                    status = "negated"
        if hit is None:
            out.append(ElementReason(_first(el), status))
            continue
        alt, at = hit
        context = where[max(0, at - CONTEXT) : at + len(alt) + CONTEXT]
        out.append(ElementReason(_first(el), "matched", alt, at, context))
    return tuple(out)


@lru_cache(maxsize=4096)
def _passages(docs: tuple[str, ...], lang: Lang) -> str:
    return "\x00".join(normalize(d, lang) for d in docs)


def _sentences(text: str, lang: Lang) -> list[str]:
    return [x for x in split(text, lang, COPY_SPLIT) if len(x.strip()) >= 8]


def _copied(norm: str, passages: str, n: int) -> tuple[int, int]:
    """(chunks of n characters found verbatim in the passages, chunks)."""
    chunks = range(0, len(norm) - n + 1, n)
    return sum(1 for i in chunks if norm[i : i + n] in passages), len(chunks)


@lru_cache(maxsize=4096)
def _passage_chunks(docs: tuple[str, ...], lang: Lang) -> tuple[tuple[str, ...], ...]:
    """Each passage's normal form cut into chunks (profile.chunk characters)."""
    n = profile(lang).chunk
    out = []
    for d in docs:
        nd = normalize(d, lang)
        out.append(tuple(nd[i : i + n] for i in range(0, len(nd) - n + 1, n)))
    return tuple(out)


def pastes_a_passage(norm: str, docs: tuple[str, ...], lang: Lang) -> bool:
    """Does the response hold a whole passage (WHOLE_PASSAGE of its chunks or more)?"""
    return bool(_whole_passages(norm, docs, lang))


def _whole_passages(
    norm: str, docs: tuple[str, ...], lang: Lang
) -> list[tuple[tuple[str, ...], str]]:
    """(chunks, normal form) of each passage the response holds whole (WHOLE_PASSAGE of its
    chunks or more)."""
    return [
        (chunks, normalize(d, lang))
        for d, chunks in zip(docs, _passage_chunks(docs, lang), strict=True)
        if chunks and sum(1 for c in chunks if c in norm) >= WHOLE_PASSAGE * len(chunks)
    ]


def _pastes_over_sentences(
    sentences: list[str], norm: str, docs: tuple[str, ...], lang: Lang
) -> bool:
    """Does the response hold a whole passage pasted over two of its sentences or more? A
    sentence holds part of a passage when it holds one of the passage's chunks or is itself
    verbatim in the passage (a snippet's trailing "In the 2019 season, ..."). A one-sentence
    passage quoted as one sentence of the answer ("北京冬奥会：91个国家和地区…", then the next
    part's passage) is a quote, not a passage standing in for an answer."""
    prof = profile(lang)
    whole = _whole_passages(norm, docs, lang)
    if not whole:
        return False
    normed = [normalize(s, lang) for s in sentences]
    for chunks, passage in whole:
        holding = sum(
            1
            for ns in normed
            if any(c in ns for c in chunks) or (len(ns) >= prof.chunk and ns in passage)
        )
        if holding >= 2:
            return True
    return False


def is_copy(
    text: str,
    norm: str,
    docs: tuple[str, ...],
    lang: Lang,
    answer: Answer = (),
    fakeanswer: Answer = (),
    query: str = "",
) -> bool:
    """Is the response mostly verbatim passage text, standing in for an answer? Mostly copied,
    and either it holds a whole passage pasted over two of its sentences or more, or it runs over
    COPY_SENTENCES sentences or more without a first sentence of its own that gives the answer
    (answers_first)."""
    prof = profile(lang)
    if not docs or len(norm) < prof.copy_min:
        return False
    copied, chunks = _copied(norm, _passages(docs, lang), prof.chunk)
    if copied * prof.chunk < prof.copy_min or 2 * copied < chunks:
        return False
    sentences = _sentences(text, lang)
    if len(sentences) >= 2 and _pastes_over_sentences(sentences, norm, docs, lang):
        return True  # a whole passage of two sentences or more stands in for an answer
    if len(sentences) < COPY_SENTENCES:
        return False  # one or two quoted passage sentences that state the answer are an answer
    return not (answer and answers_first(text, answer, docs, lang, fakeanswer, query))


def _longest_run(text: str, passages: str) -> str:
    """The longest piece of `text` found verbatim in `passages`."""
    best, lo, hi = "", 0, len(text)
    while lo < hi:
        k = (lo + hi + 1) // 2
        hit = next(
            (text[i : i + k] for i in range(len(text) - k + 1) if text[i : i + k] in passages), None
        )
        if hit is None:
            hi = k - 1
        else:
            best, lo = hit, k
    return best


def _pasted_sentence(nf: str, docs: tuple[str, ...], lang: Lang, query: str) -> bool:
    """Is the sentence (normal form) one passage sentence pasted, with at most a few words put
    around it: its longest verbatim piece PASTED_SENTENCE of its text or more, once preamble
    words, words for the documents and an echo of the question are set aside ("According to the
    documents, the answer is: <passage sentence>")? A sentence condensed from a passage, its
    verbatim pieces broken where words were dropped or changed, is the response's own."""
    table = phrase_table(lang)
    rest = table.patterns["preamble"].sub("", nf)
    rest = table.patterns["document_words"].sub("", rest)
    nq = normalize(query, lang) if query else ""
    if nq:
        rest = rest.replace(nq, "")
    own = len(rest.replace(" ", ""))  # characters, spaces aside
    longest = len(_longest_run(nf, _passages(docs, lang)).replace(" ", ""))
    return longest >= PASTED_SENTENCE * max(own, 1)


def answers_first(
    text: str,
    answer: Answer,
    docs: tuple[str, ...],
    lang: Lang,
    fakeanswer: Answer = (),
    query: str = "",
) -> bool:
    """Does the first sentence, in the response's own words (fewer than half of its chunks
    verbatim in the passages, or condensed from a passage rather than one passage sentence
    pasted: _pasted_sentence), assert and commit to every answer element? Then what follows is
    evidence, not a copy standing in for an answer."""
    sentences = _sentences(text, lang)
    if not sentences:
        return False
    first = sentences[0]
    nf = normalize(first, lang)
    reasons = element_reasons(nf, answer, lang, fakeanswer, normalize_surface(first, lang))
    found = tuple(int(e.status == "matched") for e in reasons)
    if not found or not all(committed(first, answer, found, lang)):
        return False
    copied, chunks = _copied(nf, _passages(docs, lang), profile(lang).chunk)
    return 2 * copied < chunks or chunks == 0 or not _pasted_sentence(nf, docs, lang, query)

"""Hedged answers: the gold offered as one of several options is not a committed answer.

"可能是甲方、{gold}或者乙方", "It is either {gold} or {fake}" name the gold, but so would a strategy
that lists a few candidates of the passages: strict correctness requires the response to commit.
The rule reads the structure of the clause that holds the gold, not phrasings per item:

1. The text is cut into units at list separators (、; en ", " and "and"), clause separators (，;：),
   sentence ends and the language's disjunctions (the `hedge:` block of phrases/<lang>.yaml: `or`
   — 或者, 还是, 也可能是, or, could also be; `open` — 要么, either, one of, before the options;
   `close` — 之一, 中的一个, after them). Words that only look like one (或许 "perhaps", "or so",
   "or rather") are `not_or` and stay text.
2. The gold's units are the fewest consecutive units whose normal form holds a gold alternative
   (a title with or / 和 / 与 stays one option).
3. From there the coordination is walked both ways over units that are options *of the gold's
   type*: after leading words are dropped (`lead`: 可能是, it could be), a unit is an option when it
   is not empty, not negated ("not X"), names no vague alternative (`vague`: 其他, something
   else) and is a short span like the gold: no longer than the gold (its longest alternative)
   plus `slack` characters (zh) or words (en); a number and a name are both options (the trivial
   hedge mixes them). Across a list separator the list goes on; across a clause separator or a
   sentence end only into a disjunction (", or it might be Y", "。不过也可能是Y": contrast words
   are skipped). The gold's own units are walked from only on a side where they hold at most
   `slack` beyond the gold (leading words dropped): a gold inside a longer clause ("… with X named
   Best Drama and Y as Best Musical or Comedy") is part of a statement, not a short option.
4. The occurrence is hedged when the coordination holds another option than the gold (another gold
   element or alternative is not one) and is disjunctive: a disjunction links two of its options,
   an `open` word precedes them or a `close` word follows them.

An element is committed when some occurrence of one of its alternatives is not hedged. What stays
correct: multi-part answers ("A and B", "A、B": no disjunction), names and titles with or / 和 / 与,
an answer followed by a detail or a caveat that names no other option ("…, or at least that is what
the documents report", "不过也可能存在其他说法"), other options named as wrong.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from leaderboard.core.types import Answer, Lang
from leaderboard.scoring.normalize import normalize, occurrences
from leaderboard.scoring.phrases import phrase_table
from leaderboard.scoring.profile import invalid, language_file, profile
from leaderboard.scoring.relevance import numbers

# Sentence ends: the same in every language (a full stop only before a space or the end).
_END = r"[。！？!?\n]+|\.(?=\s|$)"
_MAX_GOLD_UNITS = 8  # a gold alternative spans at most this many units (a long title)


class _HedgeBlock(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    or_: list[str] = Field(alias="or", min_length=1)
    open: list[str] = []
    close: list[str] = []
    not_or: list[str] = []
    list_: list[str] = Field(alias="list", min_length=1)
    clause: list[str] = []
    lead: list[str] = []
    vague: list[str] = []
    slack: int = Field(ge=0)


@dataclass(frozen=True)
class _Hedge:
    """A language's hedge words, compiled: `tokens` finds every marker (named groups), `any`
    whether a text has a disjunction at all."""

    tokens: re.Pattern[str]
    any: re.Pattern[str]
    lead: tuple[str, ...]
    vague: re.Pattern[str]
    negations: tuple[str, ...]
    contrast: re.Pattern[str]
    slack: int
    bounded: bool


def _words(words: list[str], bounded: bool) -> str:
    """An alternation, longest first; with word boundaries for entries that start and end with a
    word character where the language has them."""
    out = []
    for w in sorted(words, key=len, reverse=True):
        p = re.escape(w)
        if bounded and w[0].isalnum():
            p = r"(?<!\w)" + p
        if bounded and w[-1].isalnum():
            p += r"(?!\w)"
        out.append(p)
    return "|".join(out) or r"(?!x)x"


@cache
def _hedge(lang: Lang) -> _Hedge:
    where, raw = language_file(lang)
    try:
        block = _HedgeBlock.model_validate(raw.get("hedge"))
    except ValidationError as exc:
        raise invalid(where, exc, "hedge.") from None
    prof = profile(lang)
    b = prof.word_boundaries
    tokens = re.compile(
        f"(?P<keep>{_words(block.not_or, b)})|(?P<open>{_words(block.open, b)})"
        f"|(?P<close>{_words(block.close, b)})|(?P<or>{_words(block.or_, b)})"
        f"|(?P<end>{_END})|(?P<clause>{_words(block.clause, b)})|(?P<list>{_words(block.list_, b)})"
    )
    disjunctive = block.or_ + block.open + block.close
    return _Hedge(
        tokens=tokens,
        any=re.compile(f"(?:{_words(block.not_or, b)})|(?P<hit>{_words(disjunctive, b)})"),
        lead=tuple(sorted((normalize(w, lang) for w in block.lead), key=len, reverse=True)),
        vague=re.compile(_words([normalize(w, lang) for w in block.vague], b)),
        negations=prof.answer_negation.words,
        contrast=phrase_table(lang).patterns["contrast"],
        slack=block.slack,
        bounded=b,
    )


def _fold(text: str) -> str:
    """NFKC and casefold, so markers are found whatever the width or case (，-> ,)."""
    return unicodedata.normalize("NFKC", text).casefold()


def _has_disjunction(folded: str, h: _Hedge) -> bool:
    return any(m.group("hit") for m in h.any.finditer(folded))


def _split(folded: str, h: _Hedge) -> tuple[list[tuple[int, int]], list[frozenset[str]]]:
    """Units (start, end offsets in the folded text) and, between units k and k+1, the kind of
    the marker there."""
    units, links = [], []
    start = 0
    for m in h.tokens.finditer(folded):
        kind = m.lastgroup
        if kind == "keep":
            continue  # the words stay in the unit
        units.append((start, m.start()))
        links.append(frozenset({kind}))  # type: ignore[arg-type]
        start = m.end()
    units.append((start, len(folded)))
    return units, links


def _strip_lead(norm: str, h: _Hedge) -> str:
    """Leading words that introduce an option (可能是, it could be), and contrast words, dropped."""
    changed = True
    while changed and norm:
        changed = False
        m = h.contrast.match(norm)
        if m:
            norm, changed = norm[m.end() :].lstrip(), True
        for w in h.lead:
            if norm.startswith(w) and (
                not h.bounded or len(norm) == len(w) or not norm[len(w)].isalnum()
            ):
                norm, changed = norm[len(w) :].lstrip(), True
                break
    return norm


def _size(norm: str, h: _Hedge) -> int:
    return len(norm.split()) if h.bounded else len(norm.replace(" ", ""))


@dataclass(frozen=True)
class _Gold:
    """What an option is compared with: the element's longest alternative (`size`, in the units
    of _size: an alias such as 罗琳 for J·K·罗琳 does not shorten what an option may be), and every
    gold alternative (an option holding one is part of the answer, not another option)."""

    size: int
    every: tuple[str, ...]
    lang: Lang


def _option(unit: str, gold: _Gold, h: _Hedge) -> str | None:
    """'gold', 'other' (an option of the gold's type) or None (not an option: the list ends)."""
    norm = _strip_lead(normalize(unit, gold.lang), h)
    if not norm:
        return None
    if any(next(occurrences(norm, g, gold.lang), None) is not None for g in gold.every):
        return "gold"
    first = norm.split()[0] if h.bounded else norm
    if (first in h.negations) if h.bounded else first.startswith(h.negations):
        return None
    if h.vague.search(norm):
        return None
    return "other" if _size(norm, h) <= gold.size + h.slack else None


def _empty(unit: str, gold: _Gold, h: _Hedge) -> bool:
    """A unit with nothing but leading or contrast words ("，不过也可能是": 不过)."""
    return not _strip_lead(normalize(unit, gold.lang), h)


def _walk(
    units: list[str], links: list[frozenset[str]], at: int, step: int, gold: _Gold, h: _Hedge
) -> tuple[int, bool]:
    """From the gold's unit `at` one way: (other options, whether the coordination is
    disjunctive on that side)."""
    others, disjunctive = 0, False
    k = at
    while True:
        kinds: set[str] = set()
        m: int | None = k
        while m is not None:  # gather the markers up to the next unit with content
            link = m if step > 0 else m - 1
            if not 0 <= link < len(links):
                m = None  # the text ends
                break
            kinds |= links[link]
            m += step
            if not _empty(units[m], gold, h):
                break
        if step > 0 and "close" in kinds:
            return others, True
        if step < 0 and "open" in kinds:
            return others, True
        joins = "or" in kinds or (step > 0 and "open" in kinds)
        if m is None or (not joins and kinds & {"end", "clause", "close"}):
            return others, disjunctive
        kind = _option(units[m], gold, h)
        if kind is None:
            return others, disjunctive
        others += kind == "other"
        disjunctive = disjunctive or joins
        k = m


def _gold_spans(
    folded: str, offsets: list[tuple[int, int]], alt: str, lang: Lang
) -> list[tuple[int, int]]:
    """The fewest consecutive units (first, last) whose text, markers between included, holds
    `alt`."""
    spans = []
    for i in range(len(offsets)):
        for j in range(i, min(i + _MAX_GOLD_UNITS, len(offsets))):
            joined = normalize(folded[offsets[i][0] : offsets[j][1]], lang)
            if next(occurrences(joined, alt, lang), None) is not None:
                spans.append((i, j))
                break
    # drop a span that holds a shorter one starting later (the same occurrence)
    return [(i, j) for i, j in spans if not any(i < a and b <= j for a, b in spans)]


def committed(text: str, answer: Answer, found: tuple[int, ...], lang: Lang) -> tuple[int, ...]:
    """`found` (answer.labels) with an element set to 0 when every occurrence of its alternatives
    offers it as one option among others (module docstring)."""
    if not any(found):
        return found
    h = _hedge(lang)
    folded = _fold(text)
    if not _has_disjunction(folded, h):
        return found
    offsets, links = _split(folded, h)
    units = [folded[a:b] for a, b in offsets]
    alts = [
        tuple(a for a in (normalize(x, lang) for x in ((el,) if isinstance(el, str) else el)) if a)
        for el in answer
    ]
    every = tuple(a for el in alts for a in el)
    out = []
    for hit, element in zip(found, alts, strict=True):
        hedged = not _any_committed(folded, offsets, units, links, element, every, lang, h)
        out.append(int(bool(hit) and not hedged))
    return tuple(out)


def _any_committed(
    folded: str,
    offsets: list[tuple[int, int]],
    units: list[str],
    links: list[frozenset[str]],
    element: tuple[str, ...],
    every: tuple[str, ...],
    lang: Lang,
    h: _Hedge,
) -> bool:
    gold = _Gold(max(_size(a, h) for a in element), every, lang)
    spans: dict[tuple[int, int], list[str]] = {}
    for alt in element:
        for span in _gold_spans(folded, offsets, alt, lang):
            spans.setdefault(span, []).append(alt)
    # an alias inside a longer alternative's occurrence (罗琳 in J·K·罗琳,J.K.罗琳) is judged as it
    outer = [
        (i, j)
        for i, j in spans
        if not any(a <= i and j <= b and (a, b) != (i, j) for a, b in spans)
    ]
    for i, j in sorted(outer):
        before, after = _beside(folded[offsets[i][0] : offsets[j][1]], spans[(i, j)], lang, h)
        left, left_or = _walk(units, links, i, -1, gold, h) if before <= h.slack else (0, False)
        right, right_or = _walk(units, links, j, 1, gold, h) if after <= h.slack else (0, False)
        if not (left + right and (left_or or right_or)):
            return True
    return not spans  # found in the whole text but in no span of units: not judged here


def _beside(text: str, alts: list[str], lang: Lang, h: _Hedge) -> tuple[int, int]:
    """How much the gold's units hold before and after the gold (in _size units; leading words
    dropped before it), the least over its occurrences. An option is a short span, the gold's
    own included: a gold inside a longer clause ("… with X named best drama and Y as best musical
    or comedy") is coordinated as that clause, a statement, not offered as an option, on the side
    where the clause goes on beyond `slack`. A number or date that holds the gold counts as the
    gold (a year before a gold day and month is no clause)."""
    norm = normalize(text, lang)
    values = numbers(norm, lang)
    before, after = [], []
    for alt in alts:
        for at in occurrences(norm, alt, lang):
            start, end = at, at + len(alt)
            # a number or date holding the gold is the gold's value (2023年2月6日 for 2月6日)
            for s, e in values:
                if s < end and start < e:
                    start, end = min(start, s), max(end, e)
            before.append(_size(_strip_lead(norm[:start].strip(), h), h))
            after.append(_size(norm[end:].strip(), h))
    return min(before, default=0), min(after, default=0)

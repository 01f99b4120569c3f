"""Phrase tables of the strict mode (scoring/phrases/<lang>.yaml), validated and compiled.

Rejection and error phrases are matched on the strict normal form; `leaderboard.scoring.claims`
decides whether a hit is the response's own claim. Weak error phrases (是错误的, wrong,
incorrect) only count next to a word for the documents; the negation pattern (无法 ... 判断,
"did not ... mention") is a negation and a verb within a window of characters (zh) or words (en).
Every kind of phrase is declared once, in KINDS: the file schema, the table and its patterns follow
from it. Whether phrases match on word boundaries is the language's profile (scoring/profile.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.profile import LangProfile, invalid, language_file, profile


class _Phrase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    phrase: str = Field(min_length=1)
    note: str


class _Negation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    window: int = Field(ge=1)
    negations: list[str]
    verbs: list[str]


Shape = Literal["phrase", "start", "tail", "pair"]


@dataclass(frozen=True)
class Kind:
    """One kind of phrase in a phrase file, and the one pattern compiled from it.

    shape: `phrase` — any entry (on word boundaries where the language has them); `start` — an
    entry at the start of the text searched; `tail` — an entry, then at most `words` words (or
    `chars` characters) before the end of the text searched; `pair` — an entry of the first kind
    named in `pair`, then within `words` words (or `chars` characters) one of the second.
    `noted`: entries are {phrase, note} (and the list is required) rather than plain strings.
    """

    name: str
    shape: Shape = "phrase"
    words: int = 0
    chars: int = 0
    noted: bool = False
    pair: tuple[str, str] = ("", "")


# Every kind of a phrase file, in one place: the file schema, the table and its patterns come
# from this tuple (claims.py says what each kind is for).
KINDS: tuple[Kind, ...] = (
    Kind("rejection", noted=True),
    Kind("error", noted=True),
    Kind("weak_error", noted=True),
    Kind("full_refusal"),
    Kind("document_words"),
    Kind("reporting"),
    Kind("contrast"),
    Kind("preamble"),
    Kind("anaphora", shape="start"),  # a sentence opening that points back ("This is wrong")
    Kind("correction"),
    # a contrast word, then the corrected answer ("but the actual answer", "但正确答案是")
    Kind("corrected_answer", "pair", 2, 2, pair=("contrast", "corrected_answer")),
    Kind("speaker", shape="start"),  # the response's own voice before a reporting verb
    # a first-person subject just before a weak error word: "I might be wrong"
    Kind("first_person", shape="tail", words=1, chars=1),
    # absent from the documents: "not in the documents", "不在文档中"
    Kind("absence", "pair", 2, 4, pair=("absence", "document_words")),
    # words that hold an error word and say nothing of an error: "不错" (not bad, good)
    Kind("not_error"),
    # a thing asked about that is not settled yet: "席位没有确定归属", "has not been determined" (a
    # statement about the world, not the response declining to answer)
    Kind("undecided"),
    # a subject ending in a form of "be" is a passive's: "The date is not mentioned" (the thing
    # not mentioned, not someone who did not mention it)
    Kind("passive", shape="tail", words=1, chars=1),
    # grounding (scoring/grounding.py): words that assert nothing of their own, word endings a
    # question word may take; relevance by code (scoring/relevance.py): the question words that
    # fix the answer's type, and the capitalised sentence openers that name no one (relevance of
    # a who-question's answer)
    Kind("function_words"),
    Kind("inflections"),
    Kind("asks_date"),
    Kind("asks_number"),
    Kind("asks_person"),
    Kind("not_names"),
)
_PhraseFile = create_model(  # type: ignore[call-overload]
    "_PhraseFile",
    __config__=ConfigDict(extra="forbid", frozen=True),
    profile=(dict[str, Any], ...),  # validated by scoring.profile
    hedge=(dict[str, Any], ...),  # validated by scoring.hedge
    negation=(_Negation | None, None),
    **{k.name: ((list[_Phrase], ...) if k.noted else (list[str], [])) for k in KINDS},
)


@dataclass(frozen=True)
class PhraseTable:
    """A language's phrase table: every phrase in strict normal form, and one compiled regex per
    kind (one C-level search per text), built once per language.

    `patterns` holds a pattern per kind of KINDS (its shape) plus `any_error` (a strong or weak
    error word: a negated verb followed by one denies an error), `negated_verb` (see negated_verb)
    and `negated_claim` (a negation just before an error word: "no factual errors", from the
    profile).
    """

    lang: str
    profile: LangProfile
    phrases: Mapping[str, tuple[str, ...]]
    negations: tuple[str, ...]
    verbs: tuple[str, ...]
    window: int
    patterns: Mapping[str, re.Pattern[str]]


_NEVER = re.compile(r"(?!x)x")


def _alternation(phrases: tuple[str, ...], bounded: bool) -> str:
    """Longest first; an entry ending in `*` is a stem where words have boundaries ("incorrect*"
    also matches "incorrectly"); without word boundaries the `*` is dropped."""
    out = []
    for p in sorted(phrases, key=len, reverse=True):
        if p.endswith("*"):
            out.append(re.escape(p[:-1]) + (r"\w*" if bounded else ""))
        else:
            out.append(re.escape(p))
    return "|".join(out)


@cache
def phrase_regex(phrases: tuple[str, ...], bounded: bool) -> re.Pattern[str]:
    """One alternation; on word boundaries when `bounded` (the profile's word_boundaries)."""
    if not phrases:
        return _NEVER
    alternatives = _alternation(phrases, bounded)
    if bounded:
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    return re.compile(alternatives)


@cache
def _start_regex(phrases: tuple[str, ...], bounded: bool) -> re.Pattern[str]:
    """One of the phrases at the start of a piece (after spaces)."""
    if not phrases:
        return _NEVER
    tail = r"(?!\w)" if bounded else ""
    return re.compile(rf"^\s*(?:{_alternation(phrases, bounded)}){tail}")


@cache
def _pair_regex(
    first: tuple[str, ...], second: tuple[str, ...], words: int, chars: int, bounded: bool
) -> re.Pattern[str]:
    """A phrase of `first`, then within `words` words (bounded) or `chars` characters one of
    `second`."""
    if not first or not second:
        return _NEVER
    a, b = _alternation(first, bounded), _alternation(second, bounded)
    if bounded:
        return re.compile(rf"(?<!\w)(?:{a})(?: \w+){{0,{words}}}? (?:{b})(?!\w)")
    return re.compile(rf"(?:{a})[^ ]{{0,{chars}}}?(?:{b})")


@cache
def _tail_regex(phrases: tuple[str, ...], words: int, chars: int, bounded: bool) -> re.Pattern[str]:
    """One of the phrases, then at most `words` words (bounded) or `chars` characters before the
    end of the text searched (a subject just before the word that follows it)."""
    if not phrases:
        return _NEVER
    a = _alternation(phrases, bounded)
    if bounded:
        return re.compile(rf"(?<!\w)(?:{a})(?: \w+){{0,{words}}} ?$")
    return re.compile(rf"(?:{a})[^ ]{{0,{chars}}}$")


def _negated_claim_regex(words: tuple[str, ...], reach: int, bounded: bool) -> re.Pattern[str]:
    """A negation, then at most `reach` words (bounded) or characters (any but a line break) before
    the end of the text searched: "no factual errors", "没有事实性错误" (the text ends where the
    error word starts)."""
    a = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    if bounded:
        return re.compile(rf"(?<!\w)(?:{a})(?: \w+){{0,{reach}}}$")
    return re.compile(rf"(?:{a}).{{0,{reach}}}$")


@cache
def _negated_verb_regex(
    negations: tuple[str, ...], verbs: tuple[str, ...], window: int, bounded: bool
) -> re.Pattern[str]:
    if not negations or not verbs:
        return _NEVER
    neg = "|".join(re.escape(n) for n in sorted(negations, key=len, reverse=True))
    verb = "|".join(re.escape(v) for v in sorted(verbs, key=len, reverse=True))
    if bounded:  # whole words, at most `window` words between
        return re.compile(rf"(?<!\w)(?:{neg})(?: \w+){{0,{window}}}? (?:{verb})(?!\w)")
    return re.compile(f"(?:{neg})[^ ]{{0,{window}}}?(?:{verb})")


def _norm_all(words: list[str], lang: str) -> tuple[str, ...]:
    """Normal forms; a trailing `*` (a stem) survives normalisation."""
    out = []
    for x in words:
        w = normalize(x.rstrip("*"), lang)  # type: ignore[arg-type]
        if w:
            out.append(w + "*" if x.endswith("*") else w)
    return tuple(out)


def _pattern(kind: Kind, phrases: Mapping[str, tuple[str, ...]], bounded: bool) -> re.Pattern[str]:
    own = phrases[kind.name]
    if kind.shape == "start":
        return _start_regex(own, bounded)
    if kind.shape == "tail":
        return _tail_regex(own, kind.words, kind.chars, bounded)
    if kind.shape == "pair":
        first, second = (phrases[k] for k in kind.pair)
        return _pair_regex(first, second, kind.words, kind.chars, bounded)
    return phrase_regex(own, bounded)


@cache
def phrase_table(lang: str) -> PhraseTable:
    """Load and validate scoring/phrases/<lang>.yaml (once per process)."""
    where, raw = language_file(lang)
    try:
        parsed = _PhraseFile.model_validate(raw)
    except ValidationError as exc:
        raise invalid(where, exc) from None
    prof = profile(lang)
    bounded = prof.word_boundaries
    phrases: dict[str, tuple[str, ...]] = {}
    for kind in KINDS:
        entries = getattr(parsed, kind.name)
        words = [e.phrase for e in entries] if kind.noted else entries
        phrases[kind.name] = _norm_all(words, lang)
    neg = parsed.negation
    negations = _norm_all(neg.negations, lang) if neg else ()
    verbs = _norm_all(neg.verbs, lang) if neg else ()
    window = neg.window if neg else 0
    patterns = {kind.name: _pattern(kind, phrases, bounded) for kind in KINDS}
    patterns["any_error"] = phrase_regex(phrases["error"] + phrases["weak_error"], bounded)
    patterns["negated_verb"] = _negated_verb_regex(negations, verbs, window, bounded)
    claim = prof.negated_claim
    patterns["negated_claim"] = _negated_claim_regex(claim.words, claim.reach, bounded)
    return PhraseTable(
        lang=lang,
        profile=prof,
        phrases=MappingProxyType(phrases),
        negations=negations,
        verbs=verbs,
        window=window,
        patterns=MappingProxyType(patterns),
    )


def negated_verb(norm: str, table: PhraseTable) -> int | None:
    """Where a negation is followed within `window` characters (zh) or words (en) by a verb of
    answering, knowing or stating (the negation's start offset), else None.

    One regex over the normal form: "无法根据文档判断", "没有在文档中找到", "did not clearly
    state", "is not something the documents tell". A window, not a parse: a negation farther from
    its verb ("不能因为天气很差而取消回答") does not count, and whose claim it is is decided by
    claims.py (reported speech, an answer before it).
    """
    m = table.patterns["negated_verb"].search(norm)
    return m.start() if m else None

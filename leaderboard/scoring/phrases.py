"""Phrase tables of the strict mode (scoring/phrases/<lang>.yaml), validated and compiled.

Rejection and error phrases are matched on the strict normal form; `leaderboard.scoring.claims`
decides whether a hit is the response's own claim. Weak error phrases (是错误的, wrong,
incorrect) only count next to a word for the documents; the negation pattern (无法 ... 判断,
"did not ... mention") is a negation and a verb within a window of characters (zh) or words (en).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Lang
from leaderboard.scoring.normalize import normalize


class _Phrase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    phrase: str = Field(min_length=1)
    note: str


class _Negation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    window: int = Field(ge=1)
    negations: list[str]
    verbs: list[str]


class _PhraseFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    rejection: list[_Phrase]
    error: list[_Phrase]
    weak_error: list[_Phrase] = []
    full_refusal: list[str] = []
    document_words: list[str] = []
    reporting: list[str] = []
    contrast: list[str] = []
    preamble: list[str] = []
    negation: _Negation | None = None
    anaphora: list[str] = []
    correction: list[str] = []
    corrected_answer: list[str] = []
    speaker: list[str] = []
    first_person: list[str] = []
    absence: list[str] = []


@dataclass(frozen=True)
class PhraseTable:
    """A language's phrase table with every phrase already in strict normal form.

    Each list is compiled into one regex (one C-level search per text); for en the regex requires
    word boundaries. The patterns are built once per table (cached_property; the tables themselves
    are cached per language), not per prediction.
    """

    lang: Lang
    rejection: tuple[str, ...]
    error: tuple[str, ...]
    weak_error: tuple[str, ...] = ()
    full_refusal: tuple[str, ...] = ()
    document_words: tuple[str, ...] = ()
    reporting: tuple[str, ...] = ()
    contrast: tuple[str, ...] = ()
    preamble: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    window: int = 0
    anaphora: tuple[str, ...] = ()
    correction: tuple[str, ...] = ()
    corrected_answer: tuple[str, ...] = ()
    speaker: tuple[str, ...] = ()
    first_person: tuple[str, ...] = ()
    absence: tuple[str, ...] = ()

    @cached_property
    def rejection_re(self) -> re.Pattern[str]:
        return phrase_regex(self.rejection, self.lang)

    @cached_property
    def claim_hint_re(self) -> re.Pattern[str]:
        """Any refusal or error phrase, without word boundaries: a pattern that starts with its
        literals scans fast, so most texts are cleared with one search (the exact, bounded
        patterns run only after a hit)."""
        return phrase_regex(
            self.rejection + self.error + self.weak_error + self.correction + self.corrected_answer,
            "zh",
        )

    @cached_property
    def error_re(self) -> re.Pattern[str]:
        return phrase_regex(self.error, self.lang)

    @cached_property
    def weak_error_re(self) -> re.Pattern[str]:
        return phrase_regex(self.weak_error, self.lang)

    @cached_property
    def full_refusal_re(self) -> re.Pattern[str]:
        return phrase_regex(self.full_refusal, self.lang)

    @cached_property
    def document_re(self) -> re.Pattern[str]:
        return phrase_regex(self.document_words, self.lang)

    @cached_property
    def reporting_re(self) -> re.Pattern[str]:
        return phrase_regex(self.reporting, self.lang)

    @cached_property
    def contrast_re(self) -> re.Pattern[str]:
        return phrase_regex(self.contrast, self.lang)

    @cached_property
    def preamble_re(self) -> re.Pattern[str]:
        return phrase_regex(self.preamble, self.lang)

    @cached_property
    def any_error_re(self) -> re.Pattern[str]:
        """A strong or weak error word (a negated verb followed by one denies an error)."""
        return phrase_regex(self.error + self.weak_error, self.lang)

    @cached_property
    def anaphora_re(self) -> re.Pattern[str]:
        """A sentence opening that points back ("This is wrong", "这一说法有误")."""
        return _start_regex(self.anaphora, self.lang)

    @cached_property
    def correction_re(self) -> re.Pattern[str]:
        return phrase_regex(self.correction, self.lang)

    @cached_property
    def corrected_answer_re(self) -> re.Pattern[str]:
        """A contrast word, then the corrected answer ("but the actual answer", "但正确答案是")."""
        return _pair_regex(self.contrast, self.corrected_answer, 2, 2, self.lang)

    @cached_property
    def speaker_re(self) -> re.Pattern[str]:
        return _start_regex(self.speaker, self.lang)

    @cached_property
    def first_person_re(self) -> re.Pattern[str]:
        """A first-person subject just before a weak error word: "I might be wrong"."""
        return _tail_regex(self.first_person, 1, 1, self.lang)

    @cached_property
    def absence_re(self) -> re.Pattern[str]:
        """Absent from the documents: "not in the documents", "不在文档中"."""
        return _pair_regex(self.absence, self.document_words, 2, 4, self.lang)

    @cached_property
    def negated_verb_re(self) -> re.Pattern[str]:
        """A negation, then a verb within the window (see negated_verb)."""
        return _negated_verb_regex(self.negations, self.verbs, self.window, self.lang)


_NEVER = re.compile(r"(?!x)x")


def _alternation(phrases: tuple[str, ...], lang: Lang) -> str:
    """Longest first; an en entry ending in `*` is a stem ("incorrect*" also matches
    "incorrectly"), in zh the `*` is dropped (no word boundaries there)."""
    out = []
    for p in sorted(phrases, key=len, reverse=True):
        if p.endswith("*"):
            out.append(re.escape(p[:-1]) + (r"\w*" if lang == "en" else ""))
        else:
            out.append(re.escape(p))
    return "|".join(out)


@cache
def phrase_regex(phrases: tuple[str, ...], lang: Lang) -> re.Pattern[str]:
    """One alternation; en phrases match on word boundaries."""
    if not phrases:
        return _NEVER
    alternatives = _alternation(phrases, lang)
    if lang == "en":
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    return re.compile(alternatives)


@cache
def _start_regex(phrases: tuple[str, ...], lang: Lang) -> re.Pattern[str]:
    """One of the phrases at the start of a piece (after spaces)."""
    if not phrases:
        return _NEVER
    tail = r"(?!\w)" if lang == "en" else ""
    return re.compile(rf"^\s*(?:{_alternation(phrases, lang)}){tail}")


@cache
def _pair_regex(
    first: tuple[str, ...], second: tuple[str, ...], words: int, chars: int, lang: Lang
) -> re.Pattern[str]:
    """A phrase of `first`, then within `words` words (en) or `chars` characters (zh) one of
    `second`."""
    if not first or not second:
        return _NEVER
    a, b = _alternation(first, lang), _alternation(second, lang)
    if lang == "en":
        return re.compile(rf"(?<!\w)(?:{a})(?: \w+){{0,{words}}}? (?:{b})(?!\w)")
    return re.compile(rf"(?:{a})[^ ]{{0,{chars}}}?(?:{b})")


@cache
def _tail_regex(phrases: tuple[str, ...], words: int, chars: int, lang: Lang) -> re.Pattern[str]:
    """One of the phrases, then at most `words` words (en) or `chars` characters (zh) before the
    end of the text searched (a subject just before the word that follows it)."""
    if not phrases:
        return _NEVER
    a = _alternation(phrases, lang)
    if lang == "en":
        return re.compile(rf"(?<!\w)(?:{a})(?: \w+){{0,{words}}} ?$")
    return re.compile(rf"(?:{a})[^ ]{{0,{chars}}}$")


@cache
def _negated_verb_regex(
    negations: tuple[str, ...], verbs: tuple[str, ...], window: int, lang: Lang
) -> re.Pattern[str]:
    if not negations or not verbs:
        return _NEVER
    neg = "|".join(re.escape(n) for n in sorted(negations, key=len, reverse=True))
    verb = "|".join(re.escape(v) for v in sorted(verbs, key=len, reverse=True))
    if lang == "en":  # whole words, at most `window` words between
        return re.compile(rf"(?<!\w)(?:{neg})(?: \w+){{0,{window}}}? (?:{verb})(?!\w)")
    return re.compile(f"(?:{neg})[^ ]{{0,{window}}}?(?:{verb})")


def _norm_all(words: list[str], lang: Lang) -> tuple[str, ...]:
    """Normal forms; a trailing `*` (a stem) survives normalisation."""
    out = []
    for x in words:
        w = normalize(x.rstrip("*"), lang)
        if w:
            out.append(w + "*" if x.endswith("*") else w)
    return tuple(out)


@cache
def phrase_table(lang: Lang) -> PhraseTable:
    """Load and validate scoring/phrases/<lang>.yaml (once per process)."""
    raw = resources.files("leaderboard.scoring").joinpath(f"phrases/{lang}.yaml").read_text("utf-8")
    parsed = _PhraseFile.model_validate(yaml.safe_load(raw))
    neg = parsed.negation
    return PhraseTable(
        lang=lang,
        rejection=_norm_all([p.phrase for p in parsed.rejection], lang),
        error=_norm_all([p.phrase for p in parsed.error], lang),
        weak_error=_norm_all([p.phrase for p in parsed.weak_error], lang),
        full_refusal=_norm_all(parsed.full_refusal, lang),
        document_words=_norm_all(parsed.document_words, lang),
        reporting=_norm_all(parsed.reporting, lang),
        contrast=_norm_all(parsed.contrast, lang),
        preamble=_norm_all(parsed.preamble, lang),
        negations=_norm_all(neg.negations, lang) if neg else (),
        verbs=_norm_all(neg.verbs, lang) if neg else (),
        window=neg.window if neg else 0,
        anaphora=_norm_all(parsed.anaphora, lang),
        correction=_norm_all(parsed.correction, lang),
        corrected_answer=_norm_all(parsed.corrected_answer, lang),
        speaker=_norm_all(parsed.speaker, lang),
        first_person=_norm_all(parsed.first_person, lang),
        absence=_norm_all(parsed.absence, lang),
    )


def negated_verb(norm: str, table: PhraseTable) -> int | None:
    """Where a negation is followed within `window` characters (zh) or words (en) by a verb of
    answering, knowing or stating (the negation's start offset), else None.

    One regex over the normal form: "无法根据文档判断", "没有在文档中找到", "did not clearly
    state", "is not something the documents tell". A window, not a parse: a negation farther from
    its verb ("不能因为天气很差而取消回答") does not count, and whose claim it is is decided by
    claims.py (reported speech, an answer before it).
    """
    m = table.negated_verb_re.search(norm)
    return m.start() if m else None

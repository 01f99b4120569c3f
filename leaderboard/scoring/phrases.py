"""Phrase tables of the strict mode (scoring/phrases/<lang>.yaml), validated and compiled.

Rejection and error phrases are matched on the strict normal form; `leaderboard.scoring.claims`
decides whether a hit is the response's own claim. Weak error phrases (是错误的, wrong,
incorrect) only count next to a word for the documents; the zh negation pattern (无法 ... 判断) is
found on jieba tokens.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Lang
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.tokens import tokenize_normalized


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


@dataclass(frozen=True)
class PhraseTable:
    """A language's phrase table with every phrase already in strict normal form.

    Each list is compiled into one regex (one C-level search per text); for en the regex requires
    word boundaries.
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

    @property
    def rejection_re(self) -> re.Pattern[str]:
        return phrase_regex(self.rejection, self.lang)

    @property
    def claim_hint_re(self) -> re.Pattern[str]:
        """Any refusal or error phrase, without word boundaries: a pattern that starts with its
        literals scans fast, so most texts are cleared with one search (the exact, bounded
        patterns run only after a hit)."""
        return phrase_regex(self.rejection + self.error + self.weak_error, "zh")

    @property
    def error_re(self) -> re.Pattern[str]:
        return phrase_regex(self.error, self.lang)

    @property
    def weak_error_re(self) -> re.Pattern[str]:
        return phrase_regex(self.weak_error, self.lang)

    @property
    def full_refusal_re(self) -> re.Pattern[str]:
        return phrase_regex(self.full_refusal, self.lang)

    @property
    def document_re(self) -> re.Pattern[str]:
        return phrase_regex(self.document_words, self.lang)

    @property
    def reporting_re(self) -> re.Pattern[str]:
        return phrase_regex(self.reporting, self.lang)

    @property
    def contrast_re(self) -> re.Pattern[str]:
        return phrase_regex(self.contrast, self.lang)

    @property
    def preamble_re(self) -> re.Pattern[str]:
        return phrase_regex(self.preamble, self.lang)

    @property
    def negation_re(self) -> re.Pattern[str] | None:
        return phrase_regex(self.negations, "zh") if self.negations else None

    @property
    def negated_verb_re(self) -> re.Pattern[str]:
        """A string-level stand-in for negated_verb (a negation, then a verb within 2 characters
        per token of the window), used only to locate the pattern inside a text that
        negated_verb already accepted (no second jieba pass per sentence)."""
        return _negated_verb_regex(self.negations, self.verbs, self.window)


_NEVER = re.compile(r"(?!x)x")


@cache
def phrase_regex(phrases: tuple[str, ...], lang: Lang) -> re.Pattern[str]:
    """One alternation, longest first; en phrases match on word boundaries."""
    if not phrases:
        return _NEVER
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    if lang == "en":
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    return re.compile(alternatives)


@cache
def _negated_verb_regex(
    negations: tuple[str, ...], verbs: tuple[str, ...], window: int
) -> re.Pattern[str]:
    if not negations or not verbs:
        return _NEVER
    neg = "|".join(re.escape(n) for n in sorted(negations, key=len, reverse=True))
    verb = "|".join(re.escape(v) for v in sorted(verbs, key=len, reverse=True))
    return re.compile(f"(?:{neg}).{{0,{2 * window}}}?(?:{verb})")


def _norm_all(words: list[str], lang: Lang) -> tuple[str, ...]:
    return tuple(w for w in (normalize(x, lang) for x in words) if w)


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
    )


def negated_verb(norm: str, table: PhraseTable) -> int | None:
    """zh: where a negation is followed within `window` jieba tokens by an answering/knowing verb
    (the negation's start offset), else None.

    The negation is found in the text and mapped to the token holding its last character, so it
    matches whether jieba keeps it as a word (无法), splits it (没/办法) or glues the verb on
    (无法回答).
    """
    negation_re = table.negation_re
    if negation_re is None or negation_re.search(norm) is None:
        return None  # cheap pre-filter: most outputs never reach jieba here
    tokens = tokenize_normalized(norm, table.lang)
    ends, pos = [], 0
    for t in tokens:  # token end offsets in norm (spaces between digits are not tokens)
        pos = norm.index(t, pos) + len(t)
        ends.append(pos)
    for m in negation_re.finditer(norm):
        j = bisect_left(ends, m.end())  # token holding the negation's last character
        if j >= len(tokens):
            continue
        rest = norm[m.end() : ends[j]]
        if rest and rest.startswith(table.verbs):
            return m.start()
        if not rest and any(
            t.startswith(table.verbs) for t in tokens[j + 1 : j + 1 + table.window]
        ):
            return m.start()
    return None

"""Judging one prediction in the two scoring modes.

`rgb` reproduces the reference scorer (chen700564/RGB evalue.py: predict / checkanswer and the
accuracy, fact-check and correction counts in its main) bit for bit, so numbers compare with the
paper:
- zh: every ASCII space is removed from the prediction first;
- labels are [-1] when the prediction contains 信息不足 or `insufficient information`
  (case-sensitive); otherwise one label per answer element, 1 when its lowercase form (or any
  lowercase alternative of a list element) is a substring of the lowercased prediction;
- correct: no 0 label and some 1 label, or (noise rate 1.0 only) labels == [-1] — the reference's
  rejection figure at noise 1.0 is this same count;
- error detected: 事实性错误 or `factual errors` in the (space-stripped) prediction, case-sensitive.

`strict` is the leaderboard's corrected judgement (see leaderboard/normalize.py for the normal form
and boundary rules): labels are never [-1]; rejection comes from the phrase tables in
scoring/phrases/<lang>.yaml (plus the zh negation+verb pattern on jieba tokens) and is independent
of correctness; a true answer that is a substring of the fake answer only counts outside the fake
answer.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Answer, Lang, Mode, Score, TestInstance
from leaderboard.scoring.normalize import (
    find_normalized,
    mask,
    normalize,
    token_f1_normalized,
    tokenize_normalized,
)

RGB_REJECTION = ("信息不足", "insufficient information")
RGB_ERROR = ("事实性错误", "factual errors")


# ------------------------------------------------------------------------------------ phrase tables


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
    negation: _Negation | None = None


@dataclass(frozen=True)
class PhraseTable:
    """A language's phrase table with every phrase already in strict normal form.

    The phrases are also compiled into one regex per list (one C-level search per output instead of
    a Python loop); for en the regex requires word boundaries.
    """

    lang: Lang
    rejection: tuple[str, ...]
    error: tuple[str, ...]
    negations: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    window: int = 0

    @property
    def rejection_re(self) -> re.Pattern[str]:
        return _phrase_regex(self.rejection, self.lang)

    @property
    def error_re(self) -> re.Pattern[str]:
        return _phrase_regex(self.error, self.lang)

    @property
    def negation_re(self) -> re.Pattern[str] | None:
        return _phrase_regex(self.negations, "zh") if self.negations else None


@cache
def _phrase_regex(phrases: tuple[str, ...], lang: Lang) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    if lang == "en":
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    return re.compile(alternatives)


@cache
def phrase_table(lang: Lang) -> PhraseTable:
    """Load and validate scoring/phrases/<lang>.yaml (once per process)."""
    raw = resources.files("leaderboard.scoring").joinpath(f"phrases/{lang}.yaml").read_text("utf-8")
    parsed = _PhraseFile.model_validate(yaml.safe_load(raw))
    neg = parsed.negation
    return PhraseTable(
        lang=lang,
        rejection=tuple(normalize(p.phrase, lang) for p in parsed.rejection),
        error=tuple(normalize(p.phrase, lang) for p in parsed.error),
        negations=tuple(normalize(w, lang) for w in neg.negations) if neg else (),
        verbs=tuple(normalize(w, lang) for w in neg.verbs) if neg else (),
        window=neg.window if neg else 0,
    )


def _negated_verb(norm: str, table: PhraseTable) -> bool:
    """zh: a negation followed within `window` jieba tokens by an answering/knowing verb.

    The negation is found in the text and mapped to the token holding its last character, so it
    matches whether jieba keeps it as a word (无法), splits it (没/办法) or glues the verb on
    (无法回答).
    """
    negation_re = table.negation_re
    if negation_re is None or negation_re.search(norm) is None:
        return False  # cheap pre-filter: most outputs never reach jieba here
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
            return True
        if not rest and any(
            t.startswith(table.verbs) for t in tokens[j + 1 : j + 1 + table.window]
        ):
            return True
    return False


# ------------------------------------------------------------------------------------- detectors


def _rgb_text(text: str, lang: Lang) -> str:
    return text.replace(" ", "") if lang == "zh" else text


def is_rejection(text: str, lang: Lang, mode: Mode) -> bool:
    """Does the output refuse to answer for lack of information? (rgb: the reference's two
    phrases.)"""
    if mode == "rgb":
        rgb = _rgb_text(text, lang)
        return any(p in rgb for p in RGB_REJECTION)
    return _rejects(normalize(text, lang), lang)


def _rejects(norm: str, lang: Lang) -> bool:
    table = phrase_table(lang)
    return table.rejection_re.search(norm) is not None or _negated_verb(norm, table)


def detects_error(text: str, lang: Lang, mode: Mode) -> bool:
    """Does the output say the documents contain factual errors?"""
    if mode == "rgb":
        rgb = _rgb_text(text, lang)
        return any(p in rgb for p in RGB_ERROR)
    return _flags_error(normalize(text, lang), lang)


def _flags_error(norm: str, lang: Lang) -> bool:
    return phrase_table(lang).error_re.search(norm) is not None


# ---------------------------------------------------------------------------------------- labels


def rgb_check_answer(prediction: str, answer: Answer) -> tuple[int, ...]:
    """The reference's checkanswer: per element, lowercase substring test (any alternative of a
    list)."""
    prediction = prediction.lower()
    labels = []
    for element in answer:
        if isinstance(element, str):
            labels.append(int(element.lower() in prediction))
        else:
            labels.append(int(any(alt.lower() in prediction for alt in element)))
    return tuple(labels)


@lru_cache(maxsize=65536)
def _lowered(answer: Answer) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (el.lower(),) if isinstance(el, str) else tuple(a.lower() for a in el) for el in answer
    )


def _rgb_labels(prediction: str, answer: Answer) -> tuple[int, ...]:
    """rgb_check_answer with the answer lowercased once per instance (same labels)."""
    prediction = prediction.lower()
    return tuple(int(any(a in prediction for a in alts)) for alts in _lowered(answer))


@lru_cache(maxsize=65536)
def _matchers(
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


def strict_labels(
    prediction: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()
) -> tuple[int, ...]:
    """Per answer element 1/0 under strict matching; fake answers containing a true one are
    masked."""
    return _labels(normalize(prediction, lang), answer, lang, fakeanswer)


def _labels(norm: str, answer: Answer, lang: Lang, fakeanswer: Answer) -> tuple[int, ...]:
    labels = []
    for alternatives in _matchers(answer, fakeanswer, lang):
        hit = 0
        for alt, covering in alternatives:
            if find_normalized(mask(norm, covering) if covering else norm, alt, lang):
                hit = 1
                break
        labels.append(hit)
    return tuple(labels)


# ----------------------------------------------------------------------------------------- score


def _score_rgb(prediction: str, instance: TestInstance) -> Score:
    pred = _rgb_text(prediction, instance.lang)
    if any(p in pred for p in RGB_REJECTION):
        labels: tuple[int, ...] = (-1,)
    else:
        labels = _rgb_labels(pred, instance.answer)
    rejected = labels == (-1,)
    correct = (instance.noise_rate == 1 and rejected) or (0 not in labels and 1 in labels)
    return Score(
        labels=labels,
        correct=correct,
        rejected=rejected,
        error_detected=any(p in pred for p in RGB_ERROR),
    )


def _score_strict(prediction: str, instance: TestInstance) -> Score:
    lang = instance.lang
    norm = normalize(prediction, lang)
    labels = _labels(norm, instance.answer, lang, instance.fakeanswer)
    return Score(
        labels=labels,
        correct=bool(labels) and all(labels),
        rejected=_rejects(norm, lang),
        error_detected=_flags_error(norm, lang),
        token_f1=token_f1_normalized(norm, instance.answer, lang),
    )


def score(prediction: str, instance: TestInstance, mode: Mode) -> Score:
    """Judge one prediction for one instance. Generation errors are the caller's business
    (incorrect)."""
    if mode == "rgb":
        return _score_rgb(prediction, instance)
    if mode == "strict":
        return _score_strict(prediction, instance)
    raise ValueError(f"unknown scoring mode {mode!r}: use 'rgb' or 'strict'")


def score_both(prediction: str, instance: TestInstance) -> dict[Mode, Score]:
    """Both modes, as stored in results (the leaderboard always keeps both)."""
    return {"rgb": _score_rgb(prediction, instance), "strict": _score_strict(prediction, instance)}


__all__ = [
    "PhraseTable",
    "detects_error",
    "is_rejection",
    "phrase_table",
    "rgb_check_answer",
    "score",
    "score_both",
    "strict_labels",
]

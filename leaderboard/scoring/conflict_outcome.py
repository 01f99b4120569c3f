"""What an answer of the knowledge-conflict track did: one label per answer, the first that applies.

- `error_claimed`: the response's own claim that the documents hold a factual error (RGB's
  sentence or a paraphrase; scoring/claims.py, as strict scoring reads it, once the phrases that
  flag a disagreement are blanked out: "the documents contradict each other" flags, it does not
  claim an error); whether it also gives the true answer is recorded (`with_true`);
- `refused`: the response's own refusal (claims.py) with no answer given, or a full refusal;
- `both_flagged`: the true and the planted answer both given, and a statement that the sources
  disagree (phrases/conflict_flags.yaml);
- `both_merged`: both given, no such statement;
- `true_only`, `fake_only`: one of them given;
- `other`: neither.

"Given" is strict scoring's reading: a pasted passage or a list of every candidate gives nothing,
an answer offered as one option among others is not given (scoring.hedge), and the matching is
language-aware: the normal form (numbers, dates, script,
width), number boundaries (70 never matches 170, nor 2.3% 12.3%), word boundaries in English,
every alternative of `answer` and of `fakeanswer`, not negated ("not Sweden"), and an answer
inside the other one masked (true "10", planted "10万"). The surface forms strict scoring misses
in running text (an English possessive, a zero-padded date) are read as conflict_check reads
the passages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import yaml

from leaderboard.core.types import Answer, Lang, TestInstance
from leaderboard.scoring.answer import found, is_copy
from leaderboard.scoring.candidates import is_candidate_list
from leaderboard.scoring.claims import own_error_claim, own_full_refusal, own_refusal
from leaderboard.scoring.conflict_check import surface
from leaderboard.scoring.hedge import committed
from leaderboard.scoring.normalize import normalize

Label = Literal[
    "error_claimed", "refused", "both_flagged", "both_merged", "true_only", "fake_only", "other"
]
LABELS: tuple[Label, ...] = (
    "error_claimed",
    "refused",
    "both_flagged",
    "both_merged",
    "true_only",
    "fake_only",
    "other",
)


@dataclass(frozen=True)
class ConflictOutcome:
    """One answer's label, with what it rests on."""

    label: Label
    gives_true: bool
    gives_fake: bool
    flags_conflict: bool
    with_true: bool  # error_claimed only: the true answer is given too

    @property
    def truthful(self) -> bool:
        """The true answer without the planted one taken as fact: true_only, a flagged conflict,
        or an error claim that gives the true answer."""
        return self.label in ("true_only", "both_flagged") or (
            self.label == "error_claimed" and self.with_true
        )


@cache
def flag_phrases(lang: Lang) -> tuple[str, ...]:
    """The language's "the sources disagree" phrases, normalised."""
    raw = resources.files("leaderboard.scoring").joinpath("phrases", "conflict_flags.yaml")
    data = yaml.safe_load(raw.read_text("utf-8"))
    return tuple(normalize(p, lang) for p in data[lang])


@cache
def _raw_flag_regex(lang: Lang) -> re.Pattern[str]:
    """The phrases as written, to blank them out of a raw answer before the error-claim reader
    sees it: a flagged disagreement ("文档之间存在矛盾") is not a claim of a factual error."""
    raw = resources.files("leaderboard.scoring").joinpath("phrases", "conflict_flags.yaml")
    words = sorted(yaml.safe_load(raw.read_text("utf-8"))[lang], key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)


@cache
def _flag_regex(lang: Lang) -> re.Pattern[str]:
    words = sorted(flag_phrases(lang), key=len, reverse=True)
    body = "|".join(re.escape(w) for w in words)
    # English phrases are whole words ("differ" is not inside "different"); Chinese has none
    return re.compile(rf"(?<![a-z])(?:{body})(?![a-z])" if lang == "en" else f"(?:{body})")


def _alternatives(answer: Answer) -> list[tuple[str, ...]]:
    return [(el,) if isinstance(el, str) else tuple(el) for el in answer]


def gives(norm: str, answer: Answer, other: Answer, lang: Lang) -> bool:
    """Is every element of `answer` given (one of its alternatives found, not negated), with the
    alternatives of `other` that contain it masked first?"""
    others = [surface(a, lang) for alts in _alternatives(other) for a in alts]
    elements = _alternatives(answer)
    if not elements:
        return False
    for alts in elements:
        hit = False
        for a in alts:
            needle = surface(a, lang)
            if not needle:
                continue
            covering = tuple(o for o in others if needle in o and o != needle)
            if found(norm, needle, covering, lang):
                hit = True
                break
        if not hit:
            return False
    return True


def _committed(prediction: str, answer: Answer, lang: Lang) -> bool:
    """Not offered only as one option among others (scoring.hedge, strict scoring's rule)."""
    return all(committed(prediction, answer, (1,) * len(answer), lang))


def flags_conflict(text_norm: str, query_norm: str, lang: Lang) -> bool:
    """Does the answer say its sources disagree (a phrase of the list, not one the question
    itself uses)?"""
    pattern = _flag_regex(lang)
    asked = {m.group(0) for m in pattern.finditer(query_norm)}
    return any(m.group(0) not in asked for m in pattern.finditer(text_norm))


def conflict_outcome(prediction: str, instance: TestInstance) -> ConflictOutcome:
    """The label of one answer (module docstring), and what it rests on."""
    lang = instance.lang
    norm = surface(prediction, lang)
    plain = normalize(prediction, lang)
    if is_copy(prediction, plain, instance.docs, lang) or is_candidate_list(
        prediction, instance.answer, lang
    ):
        # a pasted passage or a list of every candidate asserts nothing of its own (as in strict
        # scoring): copying the first passage must not read as taking its side
        true = fake = False
    else:
        true = _committed(prediction, instance.answer, lang) and gives(
            norm, instance.answer, instance.fakeanswer, lang
        )
        fake = _committed(prediction, instance.fakeanswer, lang) and gives(
            norm, instance.fakeanswer, instance.answer, lang
        )
    flag = flags_conflict(norm, surface(instance.query, lang), lang)
    unflagged = _raw_flag_regex(lang).sub(" ", prediction)
    if own_error_claim(unflagged, lang, normalize(unflagged, lang)):
        label: Label = "error_claimed"
    elif own_full_refusal(prediction, lang, plain) or (
        not true and not fake and own_refusal(prediction, lang, plain, instance.query)
    ):
        label = "refused"
    elif true and fake:
        label = "both_flagged" if flag else "both_merged"
    elif true:
        label = "true_only"
    elif fake:
        label = "fake_only"
    else:
        label = "other"
    return ConflictOutcome(label, true, fake, flag, label == "error_claimed" and true)

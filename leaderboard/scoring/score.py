"""Judging one prediction in the two scoring modes: the API the rest of the package uses.

`rgb` reproduces the reference scorer (reference.py) so numbers compare with the paper; `strict`
is the leaderboard's corrected judgement (strict.py: normal form in normalize.py, Chinese numbers in
numerals.py, answer matching in answer.py, own-claim detection in claims.py over the phrase tables
of phrases/<lang>.yaml).
"""

from __future__ import annotations

from leaderboard.core.types import Answer, Lang, Mode, Score, TestInstance
from leaderboard.scoring.answer import labels
from leaderboard.scoring.claims import own_error_claim, own_refusal
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.reference import rgb_flags_error, rgb_rejects, score_rgb
from leaderboard.scoring.strict import score_strict


def is_rejection(text: str, lang: Lang, mode: Mode) -> bool:
    """Does the output refuse to answer for lack of information? (rgb: the reference's two
    phrases; strict: the response's own refusal claim, whatever else it says.)"""
    if mode == "rgb":
        return rgb_rejects(text, lang)
    return own_refusal(text, lang, normalize(text, lang))


def detects_error(text: str, lang: Lang, mode: Mode) -> bool:
    """Does the output say the documents contain factual errors?"""
    if mode == "rgb":
        return rgb_flags_error(text, lang)
    return own_error_claim(text, lang, normalize(text, lang))


def strict_labels(
    prediction: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()
) -> tuple[int, ...]:
    """Per answer element 1/0 under strict matching (no passages: no copy check)."""
    return labels(normalize(prediction, lang), answer, lang, fakeanswer)


def score(prediction: str, instance: TestInstance, mode: Mode) -> Score:
    """Judge one prediction for one instance. Generation errors are the caller's business
    (incorrect)."""
    if mode == "rgb":
        return score_rgb(prediction, instance)
    if mode == "strict":
        return score_strict(prediction, instance)
    raise ValueError(f"unknown scoring mode {mode!r}: use 'rgb' or 'strict'")


def score_both(prediction: str, instance: TestInstance) -> dict[Mode, Score]:
    """Both modes, as stored in results (the leaderboard always keeps both)."""
    return {"rgb": score_rgb(prediction, instance), "strict": score_strict(prediction, instance)}

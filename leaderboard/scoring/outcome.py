"""Scored predictions and the one definition of success per ability, which metrics, paired
comparisons, rescoring and the instance browser all use.

A generation failure (error set) counts as an incorrect, non-rejecting, non-detecting answer,
whatever text was scored for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from leaderboard.core.types import MODES, Ability, Mode, Score, TestInstance
from leaderboard.scoring.reference import rgb_check_answer, rgb_text
from leaderboard.scoring.score import score_both, strict_labels


@dataclass(frozen=True)
class SplitInfo:
    """The data file behind a (language, ability) split, as the runner resolved it.

    `answer_shown` (rejection splits): ids whose noise-rate-1.0 passages hold the whole answer
    (scoring.audit.answer_in_passages; the data audit's answer_in_negative), so refusing is not the
    right answer there: the ranked rejection score leaves them out and counts them apart.
    """

    data_file: str
    data_complete: bool
    expected_n: int
    answer_shown: frozenset[int] = frozenset()


@dataclass(frozen=True)
class ScoredItem:
    instance: TestInstance
    prediction: str
    error: str | None
    scores: dict[Mode, Score]
    # the answer's mean token log-probability (PredictionRecord.mean_logprob), when recorded
    mean_logprob: float | None = None


def _failed(instance: TestInstance, mode: Mode) -> Score:
    return Score(
        labels=(0,) * len(instance.answer),
        correct=False,
        rejected=False,
        error_detected=False,
        token_f1=0.0 if mode == "strict" else None,
    )


def effective_score(item: ScoredItem, mode: Mode) -> Score:
    """The item's score, or an all-wrong one when generation failed (whatever was scored for it)."""
    return _failed(item.instance, mode) if item.error is not None else item.scores[mode]


def scored_items(pairs: Iterable[tuple[TestInstance, str, str | None]]) -> list[ScoredItem]:
    """Score (instance, prediction, error) triples in both modes."""
    out = []
    for inst, pred, err in pairs:
        scores = {m: _failed(inst, m) for m in MODES} if err is not None else score_both(pred, inst)
        out.append(ScoredItem(inst, pred, err, scores))
    return out


def corrected(score: Score, mode: Mode) -> bool:
    """Counterfactual: detected the error and gave the answer (rgb: the reference's `0 not in
    label`)."""
    if not score.error_detected:
        return False
    return 0 not in score.labels if mode == "rgb" else score.correct


def passed(ability: Ability, score: Score, mode: Mode) -> bool:
    """The one per-instance outcome each ability's score counts: noise / integration: correct;
    rejection: rejected; counterfactual: detected the error and corrected it. Paired comparisons
    and the instance browser use it, so a pass there is exactly what the ability score counts."""
    if ability == "rejection":
        return score.rejected
    if ability == "counterfactual":
        return corrected(score, mode)
    return score.correct


def success(item: ScoredItem, mode: Mode) -> bool:
    """`passed` for a scored item; a generation failure never passes."""
    return passed(item.instance.ability, effective_score(item, mode), mode)


# What an answer did, whatever the ability asked for: exactly one of these, in this order of
# precedence (the first that applies):
#   refused        the response's own refusal (Score.rejected: strict, its own refusal claim or a
#                  full refusal even next to an answer; rgb, the reference's phrase);
#   correct        the answer found (Score.correct; rgb: every element found, without the
#                  reference's rule that counts a refusal at noise rate 1.0 as correct), so a
#                  correct answer on a rejection question is correct (from memory) and an answer
#                  repeating a counterfactual's planted fake fact is not (strict matching skips the
#                  fake answer);
#   error_claimed  says the documents hold a factual error, without refusing or answering right;
#   wrong          none of these: a wrong answer, a hedge between options, a copy of the
#                  passages, an empty answer, or a generation failure.
# "correct" is what the strict noise and integration scores count ("answered": correct and not
# refused), so the correct share of a noise cell is its ranked per-cell score.
Outcome = Literal["correct", "refused", "error_claimed", "wrong"]
OUTCOMES: tuple[Outcome, ...] = ("correct", "refused", "error_claimed", "wrong")


def answer_found(score: Score, mode: Mode) -> bool:
    """The answer is given (rgb: no missed element and some found, whatever the noise rate)."""
    if mode == "rgb":
        return 0 not in score.labels and 1 in score.labels
    return score.correct


def outcome_of(score: Score, mode: Mode) -> Outcome:
    """The one outcome class of a score (see OUTCOMES for the precedence)."""
    if score.rejected:
        return "refused"
    if answer_found(score, mode):
        return "correct"
    if score.error_detected:
        return "error_claimed"
    return "wrong"


def outcome(item: ScoredItem, mode: Mode) -> Outcome:
    """`outcome_of` a scored item; a generation failure is wrong."""
    return outcome_of(effective_score(item, mode), mode)


def repeats_fake(item: ScoredItem, mode: Mode) -> bool:
    """A counterfactual answer that is wrong (OUTCOMES) and states the planted fake answer (strict:
    every element of the fake answer asserted under normalised matching; rgb: as a lowercase
    substring, the reference's matching)."""
    inst = item.instance
    if not inst.fakeanswer or outcome(item, mode) != "wrong" or item.error is not None:
        return False
    if mode == "rgb":
        found = rgb_check_answer(rgb_text(item.prediction, inst.lang), inst.fakeanswer)
    else:
        found = strict_labels(item.prediction, inst.fakeanswer, inst.lang)
    return bool(found) and all(found)

"""Scored predictions and the one definition of success per ability, which metrics, paired
comparisons, rescoring and the instance browser all use.

A generation failure (error set) counts as an incorrect, non-rejecting, non-detecting answer,
whatever text was scored for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from leaderboard.core.types import MODES, Ability, Mode, Score, TestInstance
from leaderboard.scoring.score import score_both


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

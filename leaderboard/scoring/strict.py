"""The strict judgement: the leaderboard's corrected reading of one prediction.

- correct: every answer element asserted (answer.py: normal form, boundaries, not negated, not
  inside a fake answer) and committed to (hedge.py: not offered as one option among others), and
  the response is neither a copy of the passages (a system's: of its question's own passages,
  `TestInstance.pool`) nor a candidate list;
- rejected: the response's own refusal (claims.py) and no answer element given, or a full refusal
  (信息不足, "cannot answer") stated even next to an answer (a hedge is not a decision);
- error detected: the response's own claim that the documents hold a factual error (claims.py);
- token F1: diagnostic partial credit.
"""

from __future__ import annotations

from leaderboard.core.types import Score, TestInstance
from leaderboard.scoring.answer import element_reasons, is_copy
from leaderboard.scoring.candidates import is_candidate_list
from leaderboard.scoring.claims import own_error_claim, own_full_refusal, own_refusal
from leaderboard.scoring.hedge import committed
from leaderboard.scoring.normalize import normalize, normalize_surface
from leaderboard.scoring.reason import StrictReason, withheld_rule
from leaderboard.scoring.tokens import token_f1_normalized


def judge_strict(prediction: str, instance: TestInstance) -> tuple[Score, StrictReason]:
    """The strict Score and why (reason.py): the same judgement, with the rule that withheld
    credit and where each answer element was found."""
    lang = instance.lang
    norm = normalize(prediction, lang)
    surface = normalize_surface(prediction, lang)
    elements = element_reasons(norm, instance.answer, lang, instance.fakeanswer, surface)
    found = tuple(int(e.status == "matched") for e in elements)
    copy = candidates = False
    if any(found):
        copy = is_copy(
            prediction,
            norm,
            instance.docs or instance.pool,  # a system's: the passages it could have pasted
            lang,
            instance.answer,
            instance.fakeanswer,
            instance.query,
        )
        candidates = not copy and is_candidate_list(prediction, instance.answer, lang)
        if copy or candidates:
            found = (0,) * len(found)  # the gold string is there, but not as the response's answer
    before = found
    found = committed(prediction, instance.answer, found, lang)  # not one option among others
    full = own_full_refusal(prediction, lang, norm)
    own = not full and not any(found) and own_refusal(prediction, lang, norm, instance.query)
    error = own_error_claim(prediction, lang, norm)
    score = Score(
        labels=found,
        correct=bool(found) and all(found),
        rejected=full or own,
        error_detected=error,
        token_f1=token_f1_normalized(norm, instance.answer, lang),
    )
    rule = withheld_rule(elements, copy, candidates, found != before, score.rejected)
    reason = StrictReason(
        elements=elements,
        withheld=rule,
        refusal="full" if full else "own" if own else None,
        error_claim=error,
    )
    return score, reason


def score_strict(prediction: str, instance: TestInstance) -> Score:
    return judge_strict(prediction, instance)[0]

"""The strict judgement: the leaderboard's corrected reading of one prediction.

- correct: every answer element asserted (answer.py: normal form, boundaries, not negated, not
  inside a fake answer) and committed to (hedge.py: not offered as one option among others), and
  the response is neither a copy of the passages nor a candidate list;
- rejected: the response's own refusal (claims.py) and no answer element given, or a full refusal
  (信息不足, "cannot answer") stated even next to an answer (a hedge is not a decision);
- error detected: the response's own claim that the documents hold a factual error (claims.py);
- token F1: diagnostic partial credit.
"""

from __future__ import annotations

from leaderboard.core.types import Score, TestInstance
from leaderboard.scoring.answer import is_candidate_list, is_copy, labels
from leaderboard.scoring.claims import own_error_claim, own_full_refusal, own_refusal
from leaderboard.scoring.hedge import committed
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.tokens import token_f1_normalized


def score_strict(prediction: str, instance: TestInstance) -> Score:
    lang = instance.lang
    norm = normalize(prediction, lang)
    found = labels(norm, instance.answer, lang, instance.fakeanswer)
    if any(found) and (
        is_copy(prediction, norm, instance.docs, lang)
        or is_candidate_list(prediction, instance.answer, lang)
    ):
        found = (0,) * len(found)  # the gold string is there, but not as the response's answer
    found = committed(prediction, instance.answer, found, lang)  # not one option among others
    return Score(
        labels=found,
        correct=bool(found) and all(found),
        rejected=own_full_refusal(prediction, lang, norm)
        or (not any(found) and own_refusal(prediction, lang, norm, instance.query)),
        error_detected=own_error_claim(prediction, lang, norm),
        token_f1=token_f1_normalized(norm, instance.answer, lang),
    )

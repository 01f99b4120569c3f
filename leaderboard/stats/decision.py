"""Strict (ranked) ability scores: decisions measured against their false alarms.

The reference (rgb) ability scores reward a constant answer: always refusing scores 100% on
rejection, and always claiming a factual error 50% on the counterfactual. The strict scores
below are built so that no answer policy that ignores the question scores above chance:

- noise / integration: mean over noise rates of the share of answers that give the answer and do
  not refuse (an answer that also refuses is not a decision to answer);
- rejection: Youden's J of the refusal decision, the refusal rate at noise rate 1.0 minus the
  refusal rate on answerable instances (noise rates 0-0.8, the same questions), floored at 0.
  Instances whose noise-rate-1.0 passages hold the whole answer (data audit answer_in_negative)
  are left out of the first term and reported apart;
- counterfactual: mean of the net error detection (error-claim rate on the counterfactual
  instances minus the error-claim rate on noise instances, where no passage is false; floored at
  0) and the share of counterfactual answers that give the true answer without refusing.
  Instances whose fake answer equals the true answer (data audit fake_equals_answer) are left out
  of the detection term: their passages are not wrong.

Replicates of a difference pair the two rates' bootstrap draws: the same questions share draws
(rejection), and different data files draw independently (counterfactual), so either way
replicate k of one minus replicate k of the other is a draw of the difference.
"""

from __future__ import annotations

import numpy as np

from leaderboard.stats.cells import Cell
from leaderboard.stats.values import Value, combine, questions

NOISE_RATES_NEEDED = "the noise cells (rates 0-0.8) of this language"

DEFINITIONS: dict[str, str] = {
    "noise": "Mean over noise rates 0, 0.2, 0.4, 0.6, 0.8 of the share of answers that give the "
    "answer (normalised matching) and do not refuse.",
    "integration": "Mean over noise rates 0, 0.2, 0.4 of the share of answers that give every "
    "part of the answer and do not refuse.",
    "rejection": "Youden's J of refusing: refusal rate at noise rate 1.0 minus the refusal rate "
    "on answerable instances (noise rates 0-0.8), floored at 0; instances whose noise passages "
    "hold the answer are left out (reported apart).",
    "counterfactual": "Mean of net error detection (error-claim rate on counterfactual instances "
    "minus the error-claim rate on noise instances, floored at 0) and the share of counterfactual "
    "answers giving the true answer without refusing.",
}
COMPANIONS: dict[str, str] = {
    "refusal": "Refusal rate at noise rate 1.0, instances whose passages hold the answer left out.",
    "over_refusal": "Mean refusal rate on answerable instances (noise rates 0-0.8).",
    "refusal_answer_shown": "Refusal rate on the instances left out of the ranked score because "
    "their noise-rate-1.0 passages hold the whole answer (data audit answer_in_negative); "
    "n = how many.",
    "ed_strict": "Error-claim rate on counterfactual instances whose passages are really wrong.",
    "ed_false_alarm": "Error-claim rate on noise instances (rates 0-0.8), whose passages hold no "
    "false fact: claims there are false alarms.",
    "accuracy": "Share of counterfactual answers giving the true answer without refusing.",
}


def _value(
    cell_rate: tuple[float | None, np.ndarray | None], cells: list[Cell], full: bool
) -> Value:
    v, reps = cell_rate
    return Value(v, reps, questions(cells), full and v is not None)


def answered(present: list[Cell], full: bool) -> dict[str, Value]:
    """noise / integration: mean over rates of the answered-and-not-refused share."""
    score = combine([_value(c.rate("answered"), [c], full) for c in present], len(present))
    score.complete = full
    return {"score": score}


def _net(first: Value, second: Value, complete: bool) -> Value:
    """first - second floored at 0 (a decision no better than chance scores 0)."""
    if first.value is None or second.value is None:
        return Value(None, None, first.questions | second.questions, False)
    reps = None
    if first.reps is not None and second.reps is not None:
        reps = np.maximum(first.reps - second.reps, 0.0)  # NaN replicates stay NaN
    value = max(first.value - second.value, 0.0)
    return Value(value, reps, first.questions | second.questions, complete)


def _noise_rate_of(name: str, noise: list[Cell], noise_full: bool) -> Value:
    if not noise:
        return Value(None, None, set(), False, f"needs {NOISE_RATES_NEEDED}")
    v = combine([_value(c.rate(name), [c], noise_full) for c in noise], len(noise))
    v.complete = noise_full
    return v


def rejection(cell: Cell, full: bool, noise: list[Cell], noise_full: bool) -> dict[str, Value]:
    """Youden's J of the refusal decision, with its two terms and the left-out instances."""
    keep = 1.0 - cell.excluded
    refusal = _value(cell.rate("rejected", keep), [cell], full)
    shown = _value(cell.rate("rejected", cell.excluded), [cell], full)
    shown.questions = questions([cell], keep=False)
    over = _noise_rate_of("rejected", noise, noise_full)
    score = _net(refusal, over, full and noise_full)
    if over.value is None:
        score.note = f"needs {NOISE_RATES_NEEDED} for the over-refusal term"
    return {
        "score": score,
        "refusal": refusal,
        "over_refusal": over,
        "refusal_answer_shown": shown,
    }


def counterfactual(cell: Cell, full: bool, noise: list[Cell], noise_full: bool) -> dict[str, Value]:
    """Net error detection and non-refusing accuracy, averaged."""
    ed = _value(cell.rate("detected", 1.0 - cell.excluded), [cell], full)
    false_alarm = _noise_rate_of("detected", noise, noise_full)
    net = _net(ed, false_alarm, full and noise_full)
    acc = _value(cell.rate("answered"), [cell], full)
    if net.value is None:
        score = Value(
            None,
            None,
            acc.questions,
            False,
            f"needs {NOISE_RATES_NEEDED} for the false-alarm rate of error claims",
        )
    else:
        score = combine([net, acc], 2)
        score.complete = full and noise_full
    return {"score": score, "ed_strict": ed, "ed_false_alarm": false_alarm, "accuracy": acc}

"""The reference (`rgb`) judgement: chen700564/RGB evalue.py reproduced bit for bit.

- zh: every ASCII space is removed from the prediction first;
- labels are [-1] when the prediction contains 信息不足 or `insufficient information`
  (case-sensitive); otherwise one label per answer element, 1 when its lowercase form (or any
  lowercase alternative of a list element) is a substring of the lowercased prediction;
- correct: no 0 label and some 1 label, or (noise rate 1.0 only) labels == [-1] — the reference's
  rejection figure at noise 1.0 is this same count;
- error detected: 事实性错误 or `factual errors` in the (space-stripped) prediction, case-sensitive.
"""

from __future__ import annotations

from functools import lru_cache

from leaderboard.core.types import Answer, Lang, Score, TestInstance

RGB_REJECTION = ("信息不足", "insufficient information")
RGB_ERROR = ("事实性错误", "factual errors")


def rgb_text(text: str, lang: Lang) -> str:
    return text.replace(" ", "") if lang == "zh" else text


def rgb_rejects(text: str, lang: Lang) -> bool:
    rgb = rgb_text(text, lang)
    return any(p in rgb for p in RGB_REJECTION)


def rgb_flags_error(text: str, lang: Lang) -> bool:
    rgb = rgb_text(text, lang)
    return any(p in rgb for p in RGB_ERROR)


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


def score_rgb(prediction: str, instance: TestInstance) -> Score:
    pred = rgb_text(prediction, instance.lang)
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

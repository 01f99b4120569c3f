"""Risk-coverage (selective accuracy): does the model know when it is wrong?

For every set of answers of one language, ability or probe and mode that recorded a confidence
(the answer's mean token log-probability, `PredictionRecord.mean_logprob`; answers without one are
left out, `n` counts those kept), the answers are ordered from the most to the least confident and
the least confident are withheld one by one: at coverage k / n the selective accuracy is the
correct share (`scoring.outcome`: right and not refused) of the k most confident answers. Answers
of equal confidence are withheld together in expectation: within a tie, each answer counts as the
tie's mean correctness (the expected value over every order of the tie), so the curve does not
depend on the order answers were stored in.

The area: AURC is the mean selective risk (1 - selective accuracy) over k = 1..n. Normalised as

    area = (AURC_random - AURC) / (AURC_random - AURC_oracle)

where AURC_random = 1 - accuracy (withholding at random leaves the risk unchanged in expectation)
and AURC_oracle is the AURC of the ordering that puts every correct answer first. A perfectly
ranked set scores 1, a confidence no better than chance 0, one ranking the wrong answers first
below 0; undefined (None) when every answer is right or every answer is wrong (no ranking to
judge). The stored curve samples the coverages 100 %, 95 %, ..., 5 % (k = ceil(c n)).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from leaderboard.core.schema import RiskCoverage
from leaderboard.core.types import ABILITIES, LANGS, MODES, PROBES, Ability, Lang, Mode
from leaderboard.scoring.outcome import ScoredItem, outcome

DEFINITION = (
    "Selective accuracy as the least confident answers (mean token log-probability) are "
    "withheld; area = (AURC_random - AURC) / (AURC_random - AURC_oracle): 1 for a perfectly "
    "ranked set, 0 for a confidence no better than chance."
)
COVERAGES = tuple(round(1.0 - 0.05 * i, 2) for i in range(20))  # 1.0, 0.95, ..., 0.05


def _ordered(confidence: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """Correctness from the most to the least confident, ties replaced by their mean."""
    order = np.argsort(-confidence, kind="stable")
    conf, right = confidence[order], correct[order].astype(float)
    out = right.copy()
    start = 0
    for i in range(1, len(conf) + 1):
        if i == len(conf) or conf[i] != conf[start]:
            out[start:i] = right[start:i].mean()
            start = i
    return out


def selective_accuracy(ordered: np.ndarray) -> np.ndarray:
    """Accuracy of the k most confident answers, k = 1..n."""
    return np.cumsum(ordered) / np.arange(1, len(ordered) + 1)


def aurc(ordered: np.ndarray) -> float:
    """Mean selective risk over k = 1..n."""
    return float(np.mean(1.0 - selective_accuracy(ordered)))


def normalised_area(confidence: np.ndarray, correct: np.ndarray) -> tuple[float, float | None]:
    """(AURC, normalised area); the area is None when all answers are right or all wrong."""
    ordered = _ordered(confidence, correct)
    value = aurc(ordered)
    acc = float(np.mean(correct))
    oracle = aurc(np.sort(correct.astype(float))[::-1])
    random = 1.0 - acc
    if random - oracle <= 1e-12:
        return value, None
    return value, min((random - value) / (random - oracle), 1.0)


def curve(confidence: np.ndarray, correct: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """(coverage, selective accuracy) at COVERAGES."""
    sel = selective_accuracy(_ordered(confidence, correct))
    n = len(sel)
    ks = [max(1, math.ceil(c * n - 1e-9)) for c in COVERAGES]
    return tuple(k / n for k in ks), tuple(float(sel[k - 1]) for k in ks)


def risk_coverage(
    lang: Lang, ability: Ability, mode: Mode, items: Sequence[ScoredItem]
) -> RiskCoverage | None:
    """The curve of the items that recorded a confidence; None when none did."""
    kept = [it for it in items if it.mean_logprob is not None]
    if not kept:
        return None
    conf = np.array([it.mean_logprob for it in kept], dtype=float)
    right = np.array([outcome(it, mode) == "correct" for it in kept], dtype=float)
    value, area = normalised_area(conf, right)
    coverage, accuracy = curve(conf, right)
    return RiskCoverage(
        lang=lang,
        mode=mode,
        ability=ability,
        n=len(kept),
        accuracy=float(right.mean()),
        aurc=min(max(value, 0.0), 1.0),
        area=area,
        coverage=coverage,
        selective_accuracy=accuracy,
        definition=DEFINITION,
    )


def risk_coverage_entries(items: Sequence[ScoredItem]) -> list[RiskCoverage]:
    """One curve per mode, language and ability or probe that has answers with a confidence
    (all noise rates of an ability pooled)."""
    by: dict[tuple[Lang, Ability], list[ScoredItem]] = defaultdict(list)
    for it in items:
        if it.mean_logprob is not None:
            by[(it.instance.lang, it.instance.ability)].append(it)
    out = []
    for mode in MODES:
        for lang in LANGS:
            for ability in ABILITIES + PROBES:
                group = by.get((lang, ability))
                if group:
                    rc = risk_coverage(lang, ability, mode, group)
                    if rc is not None:
                        out.append(rc)
    return out

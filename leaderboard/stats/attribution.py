"""Where a probe's answers come from, computed from the probe cells: the chain's attribution
(retrieval or generation) and the replacement probe's context reliance (passages or memory).

Chain (retrieve-then-generate): an instance is *supported* when the passages shown (the top k of the
retriever, or the passages a system says it used) hold every answer element
(`protocol.probe_instances.supported`). Each instance is then exactly one of: retrieval miss (not
supported, wrong or refused), generation miss (supported, wrong or refused), correct (supported,
right), correct without support (right from memory). recall@k = supported share; accuracy given
support = correct / supported; end-to-end = right share; the end-to-end loss (1 - end-to-end) splits
into the retrieval-miss and generation-miss shares.

Replacement: accuracy there is answering from memory; context reliance = accuracy with the
question's own positives (noise rate 0) minus accuracy with replaced passages, on the questions
both were run on. Every cell of one data file shares the bootstrap draws (`stats.cells.groups`),
so the difference's replicates are paired by construction.

Intervals (`stats.intervals`, the one home of the rule): every figure here except context
reliance is a *rate*, a share of questions, and gets the RGB scores' interval: Wilson at the
cluster-bootstrap effective n of its denominator's questions, so a rate at 0 (no correct answer
without support, no refusal) keeps an upper bound above 0. The loss shares are rates too (retrieval
misses among the lost questions: a share of those questions, n = the lost questions), as is
accuracy given support (n = the supported questions). Context reliance is a paired difference:
`intervals.paired_difference` (MOVER of its discordant shares with the paired bootstrap's
correlation), which does not collapse to a point when every question agrees.
"""

from __future__ import annotations

import numpy as np

from leaderboard.core.schema import ProbeEntry
from leaderboard.core.types import Lang, Mode
from leaderboard.stats.bootstrap import ratio_replicates
from leaderboard.stats.cells import Cell
from leaderboard.stats.intervals import paired_difference, score_interval

Cells = dict[tuple[Lang, str, Mode], dict[float, Cell]]

CHAIN_DEFINITIONS = {
    "recall_at_k": "Retrieval recall@k: share of questions whose top-k passages hold the answer.",
    "accuracy_given_support": "Answer accuracy on the questions whose passages hold the answer.",
    "end_to_end": "End-to-end accuracy of retrieve-then-generate (all questions).",
    "retrieval_miss": "Share of questions wrong or refused with no passage holding the answer.",
    "generation_miss": "Share of questions wrong or refused although a passage held the answer.",
    "correct": "Share of questions answered right with a passage holding the answer.",
    "correct_without_support": "Share answered right although no passage held the answer "
    "(from memory).",
    "loss_retrieval": "Share of the end-to-end loss caused by retrieval misses.",
    "loss_generation": "Share of the end-to-end loss caused by generation misses.",
}
REPLACEMENT_DEFINITIONS = {
    "memory_accuracy": "Accuracy with the passages replaced by passages of unrelated questions "
    "of the same language (answering from memory).",
    "refusal": "Share refusing with replaced passages (the right behaviour: the passages do not "
    "hold the answer).",
    "own_accuracy": "Accuracy with the question's own positive passages (noise rate 0), on the "
    "same questions.",
    "context_reliance": "Accuracy with own positives (noise 0) minus accuracy with replaced "
    "passages, same questions; paired CI (MOVER of the discordant shares, correlation from the "
    "paired cluster bootstrap).",
}


def _entry(lang, mode, probe, metric, value, ci, n, definition) -> ProbeEntry:
    return ProbeEntry(
        lang=lang,
        mode=mode,
        probe=probe,
        metric=metric,
        value=value,
        ci=ci if value is not None else None,
        n_questions=n,
        definition=definition,
    )


def _rate(
    cell: Cell, num: np.ndarray, den: np.ndarray
) -> tuple[float | None, tuple[float, float] | None]:
    """sum(num) / sum(den) and its Wilson interval at the effective n (the questions with den >
    0 are the clusters); (None, None) with an empty denominator."""
    total = float(den.sum())
    if total <= 0:
        return None, None
    value = float(num.sum() / total)
    reps = ratio_replicates(cell.group.weights, num, den) if cell.bootstrapped else None
    return value, score_interval(value, reps, int(np.count_nonzero(den)))


def chain_entries(lang: Lang, mode: Mode, cell: Cell) -> list[ProbeEntry]:
    """The chain table and attribution of one language and mode."""
    p = cell.present
    s = cell.values["supported"] * p
    y = cell.values["correct"] * p
    parts = {
        "recall_at_k": (s, p),
        "accuracy_given_support": (y * s, s),
        "end_to_end": (y, p),
        "retrieval_miss": ((1 - s) * (1 - y) * p, p),
        "generation_miss": (s * (1 - y), p),
        "correct": (s * y, p),
        "correct_without_support": ((1 - s) * y, p),
        "loss_retrieval": ((1 - s) * (1 - y) * p, (1 - y) * p),
        "loss_generation": (s * (1 - y), (1 - y) * p),
    }
    n = int(p.sum())
    out = []
    for metric, (num, den) in parts.items():
        value, ci = _rate(cell, num, den)
        out.append(_entry(lang, mode, "chain", metric, value, ci, n, CHAIN_DEFINITIONS[metric]))
    return out


def replacement_entries(
    lang: Lang, mode: Mode, replaced: Cell, own: Cell | None
) -> list[ProbeEntry]:
    """Memory accuracy and refusal under replacement; context reliance against noise rate 0."""
    p = replaced.present
    n = int(p.sum())
    out = []
    defs = REPLACEMENT_DEFINITIONS
    for metric, name in (("memory_accuracy", "correct"), ("refusal", "rejected")):
        value, ci = _rate(replaced, replaced.values[name] * p, p)
        out.append(_entry(lang, mode, "replacement", metric, value, ci, n, defs[metric]))
    if own is None or own.group is not replaced.group:
        return out
    both = p * own.present
    if not both.any():
        return out
    own_v, own_ci = _rate(own, own.values["correct"] * both, both)
    reliance, reliance_ci = paired_difference(
        own.group.weights, own.values["correct"], replaced.values["correct"], both
    )
    m = int(both.sum())
    out.append(
        _entry(lang, mode, "replacement", "own_accuracy", own_v, own_ci, m, defs["own_accuracy"])
    )
    out.append(
        _entry(
            lang,
            mode,
            "replacement",
            "context_reliance",
            reliance,
            reliance_ci,
            m,
            defs["context_reliance"],
        )
    )
    return out

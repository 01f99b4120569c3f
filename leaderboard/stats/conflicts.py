"""The knowledge-conflict track's figures: which answer a model takes when its passages disagree,
and what sways it.

Per (language, condition) over the answers of one run folder (one instruction):
- every outcome's share (scoring.conflict_outcome.LABELS, mutually exclusive, summing to 1);
- `truthful`: true_only + both_flagged + error_claimed with the true answer;
- `misled`: fake_only (the planted fact taken alone; both_merged is shown beside it);
- `flagged`: the answer says its sources disagree, whatever else it does (under `true_only`, where
  nothing disagrees, it is a false alarm).
Each with its n and Wilson's 95 % interval (questions are the units: one answer per question and
condition). A failed generation counts as `other`.

Paired effects over the questions both conditions answered (`EFFECTS`: what one altered passage
costs, reading order, majority), first minus second, on `truthful` and `misled`, with
`stats.intervals.paired_difference` (bootstrap draws over questions, MOVER of the discordant
shares). Across folders (the track's own instruction against RGB's, on the same condition) the
same function pairs two sets of answers (`paired_effect`). zh and en ask different questions, so
the languages are compared by their effects: the difference of the two paired differences, its
interval from independent bootstraps of each language (`language_gap`). The prior: every outcome
split by the model's own closed-book answer to the question (`prior_split`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.types import CONFLICT, Lang
from leaderboard.protocol.conflicts import ORDER
from leaderboard.scoring.conflict_outcome import LABELS, ConflictOutcome, conflict_outcome
from leaderboard.scoring.outcome import ScoredItem, effective_score
from leaderboard.stats.bootstrap import draw_weights, percentile_ci, rng_for
from leaderboard.stats.intervals import paired_difference, wilson_share

RESAMPLES = 1000
SEED = 2333
SUMMARY = ("truthful", "misled", "flagged")
METRICS = (*LABELS, *SUMMARY)
# (effect, first condition, second condition): first minus second on the shared questions
EFFECTS = (
    ("fake_cost", "true_only", "t1f1"),
    ("order", "t1f1", "f1t1"),
    ("majority", "t2f1", "t1f2"),
)
EFFECT_METRICS = ("truthful", "misled")
# the closed-book answer a question's prior is read from (stats/closed_book's probe)
PRIOR_GROUPS = ("true", "fake", "other", "refused")

_FAILED = ConflictOutcome("other", False, False, False, False)

DEFINITIONS = {
    "error_claimed": "Share of answers that claim the documents hold a factual error.",
    "refused": "Share of answers that refuse, giving neither answer.",
    "both_flagged": "Share of answers giving the true and the planted answer and saying the "
    "sources disagree.",
    "both_merged": "Share of answers giving the true and the planted answer without saying "
    "they disagree.",
    "true_only": "Share of answers giving the true answer and not the planted one.",
    "fake_only": "Share of answers giving the planted answer and not the true one.",
    "other": "Share of answers giving neither answer (failed generations included).",
    "truthful": "Share of answers that give the true answer without taking the planted one as "
    "fact: true only, both with the disagreement flagged, or an error claim with the true answer.",
    "misled": "Share of answers that give the planted answer alone.",
    "flagged": "Share of answers that say their sources disagree (under true_only, where "
    "nothing disagrees, a false alarm).",
}
EFFECT_DEFINITIONS = {
    "fake_cost": "One true passage alone minus the same passage beside one altered passage "
    "(true_only - t1f1), paired over questions.",
    "order": "True passage first minus altered passage first (t1f1 - f1t1), the same passages, "
    "paired over questions.",
    "majority": "Two true and one altered minus one true and two altered (t2f1 - t1f2), "
    "the odd passage in the same place, paired over questions.",
    "instruction": "The track's instruction (conflict_aware) minus RGB's on the same condition, "
    "paired over questions.",
}


@dataclass(frozen=True)
class Answered:
    """One conflict answer as the figures read it."""

    lang: Lang
    condition: str
    id: int
    outcome: ConflictOutcome

    def value(self, metric: str) -> float:
        o = self.outcome
        if metric == "truthful":
            return float(o.truthful)
        if metric == "misled":
            return float(o.label == "fake_only")
        if metric == "flagged":
            return float(o.flags_conflict)
        return float(o.label == metric)


def answered(items: Sequence[ScoredItem]) -> list[Answered]:
    """The conflict answers among scored items, each with its outcome (a failure is `other`)."""
    out = []
    for it in items:
        inst = it.instance
        if inst.ability != CONFLICT:
            continue
        o = _FAILED if it.error is not None else conflict_outcome(it.prediction, inst)
        out.append(Answered(inst.lang, inst.condition, inst.id, o))
    return out


@dataclass(frozen=True)
class Figure:
    lang: Lang
    condition: str
    metric: str
    value: float
    ci: tuple[float, float] | None
    n: int


@dataclass(frozen=True)
class Effect:
    """A paired difference, first minus second, on `n` shared questions (lang "zh-en": the zh
    effect minus the en effect, n the smaller of the two)."""

    lang: str
    effect: str
    metric: str
    value: float | None
    ci: tuple[float, float] | None
    n: int


def figures(answers: Sequence[Answered]) -> list[Figure]:
    """Every metric's share per (language, condition), with its Wilson interval and n."""
    cells: dict[tuple[Lang, str], list[Answered]] = {}
    for a in answers:
        cells.setdefault((a.lang, a.condition), []).append(a)
    out = []
    for (lang, cond), group in sorted(cells.items(), key=lambda kv: _order(kv[0])):
        n = len(group)
        for metric in METRICS:
            p = sum(a.value(metric) for a in group) / n
            out.append(Figure(lang, cond, metric, p, wilson_share(p, n), n))
    return out


def _order(key: tuple[str, str]) -> tuple[int, int, str]:
    lang, cond = key
    rank = ORDER.index(cond) if cond in ORDER else len(ORDER)
    return ({"zh": 0, "en": 1}.get(lang, 2), rank, cond)


def _replicates(diffs: np.ndarray, label: str) -> np.ndarray:
    weights = draw_weights(len(diffs), RESAMPLES, rng_for(SEED, label))
    return weights @ diffs / np.maximum(weights.sum(axis=1), 1e-12)


def paired_effect(
    first: Mapping[int, Answered], second: Mapping[int, Answered], metric: str, label: str
) -> tuple[float | None, tuple[float, float] | None, int, np.ndarray | None]:
    """first minus second on the questions both answered: value, interval, n, and the bootstrap
    replicates of the mean difference (for the language gap)."""
    shared = sorted(set(first) & set(second))
    if not shared:
        return None, None, 0, None
    a = np.array([first[i].value(metric) for i in shared])
    b = np.array([second[i].value(metric) for i in shared])
    weights = draw_weights(len(shared), RESAMPLES, rng_for(SEED, f"conflict:{label}"))
    value, ci = paired_difference(weights, a, b, np.ones(len(shared)))
    return value, ci, len(shared), _replicates(a - b, f"conflict-rep:{label}")


def _by_condition(answers: Sequence[Answered], lang: str, cond: str) -> dict[int, Answered]:
    return {a.id: a for a in answers if a.lang == lang and a.condition == cond}


def effects(
    answers: Sequence[Answered],
    pairs: Sequence[tuple[str, str, str]] = EFFECTS,
    other: Sequence[Answered] | None = None,
) -> list[Effect]:
    """Each effect per language and the zh - en gap. With `other`, an effect's second condition
    is read from `other` (another instruction's answers on the same questions)."""
    out: list[Effect] = []
    second_pool = answers if other is None else other
    for name, c1, c2 in pairs:
        for metric in EFFECT_METRICS:
            reps: dict[str, tuple[np.ndarray | None, int, float | None]] = {}
            for lang in ("zh", "en"):
                v, ci, n, rep = paired_effect(
                    _by_condition(answers, lang, c1),
                    _by_condition(second_pool, lang, c2),
                    metric,
                    f"{name}:{lang}:{metric}",
                )
                if n:
                    out.append(Effect(lang, name, metric, v, ci, n))
                    reps[lang] = (rep, n, v)
            gap = language_gap(reps.get("zh"), reps.get("en"))
            if gap is not None:
                out.append(Effect("zh-en", name, metric, *gap))
    return out


Side = tuple[np.ndarray | None, int, float | None]  # replicates, n, value


def language_gap(
    zh: Side | None, en: Side | None
) -> tuple[float, tuple[float, float] | None, int] | None:
    """The zh effect minus the en effect (different questions: independent bootstraps, the
    percentile interval of the replicates' difference)."""
    if zh is None or en is None or zh[0] is None or en[0] is None:
        return None
    if zh[2] is None or en[2] is None:
        return None
    return zh[2] - en[2], percentile_ci(zh[0] - en[0]), min(zh[1], en[1])


def closed_book_group(item: ScoredItem) -> str:
    """What the model answers to the question with no passage: the true answer, the planted one,
    something else, or a refusal (strict scoring's reading of the closed-book answer)."""
    score = effective_score(item, "strict")
    if score.rejected and not score.correct:
        return "refused"
    if score.correct:
        return "true"
    inst = item.instance
    o = conflict_outcome(item.prediction, inst) if item.error is None else _FAILED
    return "fake" if o.gives_fake else "other"


def prior_split(
    answers: Sequence[Answered], prior: Mapping[tuple[str, int], str]
) -> list[tuple[str, str, str, Figure]]:
    """Every outcome's share per (language, condition) split by the closed-book group of the
    question: (lang, condition, group, figure) rows; questions with no closed-book answer are
    left out."""
    cells: dict[tuple[str, str, str], list[Answered]] = {}
    for a in answers:
        group = prior.get((a.lang, a.id))
        if group is not None:
            cells.setdefault((a.lang, a.condition, group), []).append(a)
    out = []
    for (lang, cond, group), items in sorted(cells.items()):
        n = len(items)
        for metric in METRICS:
            p = sum(a.value(metric) for a in items) / n
            fig = Figure(lang, cond, metric, p, wilson_share(p, n), n)  # type: ignore[arg-type]
            out.append((lang, cond, group, fig))
    return out

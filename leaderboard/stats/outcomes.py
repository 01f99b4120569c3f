"""What the answers did, cell by cell: the shares of the four outcomes, truthfulness and the
answer rate.

Every answer is exactly one of refused, correct, error claimed or wrong: the rule and its
precedence live in `scoring.outcome` (OUTCOMES, `outcome`); a generation failure is wrong. Per
(language, ability or probe, noise rate, mode) cell the four shares sum to 1, each a rate with the
RGB scores' interval (`stats.intervals`: Wilson at the cluster-bootstrap effective n, drawing the
questions of the cell's data file with the draws every cell of that file shares, `stats.cells`).

Truthfulness of an ability (or probe) in one language: over all its answers (every noise rate
of the ability pooled, which is the mean over the rates when every rate asks the same questions)
the correct share minus the wrong share, on -1..1 (the site shows -100..100): a correct answer
counts +1, a wrong one -1, a refusal or an error claim 0 (CRAG's scoring). It is a difference of
two shares of the same answers, so its interval is `stats.intervals.discordant_difference`: each
share's Wilson interval at the cluster-bootstrap effective n (questions are the clusters, all
their noise rates together), joined by MOVER with the correlation of the two shares' bootstrap
replicates; an always-refusing policy gets 0 with a narrow interval, not a point. The answer rate
is the share of the answers not refused (a rate, Wilson at the effective n). zh - en joins the two
languages' intervals by Newcombe's method, as `stats.aggregate` does for the ability scores (the
languages' questions are disjoint).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.schema import DIFF_LANG, OutcomeCell, OutcomeScore
from leaderboard.core.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    MODES,
    PROBES,
    Ability,
    Lang,
    Mode,
)
from leaderboard.scoring.outcome import OUTCOMES, ScoredItem, outcome, repeats_fake
from leaderboard.stats.bootstrap import ratio_replicates
from leaderboard.stats.cells import Cell, Group
from leaderboard.stats.intervals import (
    UNIT,
    Bounds,
    discordant_difference,
    newcombe_difference,
    score_interval,
)

CellsByKey = dict[tuple[Lang, Ability, Mode], dict[float, Cell]]

DEFINITIONS = {
    "truthfulness": "Correct share minus wrong share of the answers (all noise rates of the "
    "ability), refused and error-claiming answers counting 0: CRAG's +1 / 0 / -1 scoring, -1..1.",
    "answer_rate": "Share of the answers (all noise rates of the ability) that do not refuse.",
    "correct": "Share of the answers (all noise rates of the ability) giving the answer without "
    "refusing.",
    "refused": "Share of the answers (all noise rates of the ability) that refuse.",
    "error_claimed": "Share of the answers (all noise rates of the ability) that claim a factual "
    "error in the documents, neither refusing nor giving the answer.",
    "wrong": "Share of the answers (all noise rates of the ability) that are none of these: a "
    "wrong answer, a hedge, a copy of the passages, nothing, or a generation failure.",
}
DIFF_DEFINITION = (
    "zh minus en; its CI joins the two languages' Wilson intervals by Newcombe's method (their "
    "question sets are disjoint)."
)


@dataclass
class OutcomeVectors:
    """One cell's per-question outcome indicators, aligned with its group's ids: one vector per
    outcome and `repeated_fake` (a wrong counterfactual answer stating the planted fact)."""

    cell: Cell
    values: dict[str, np.ndarray]

    @property
    def group(self) -> Group:
        return self.cell.group

    @property
    def present(self) -> np.ndarray:
        return self.cell.present


VectorsByKey = dict[tuple[Lang, Ability, Mode], dict[float, OutcomeVectors]]


def outcome_vectors(items: Sequence[ScoredItem], cells: CellsByKey) -> VectorsByKey:
    """The outcome indicators of every cell (the cells of `stats.metrics.build_cells`)."""
    by_cell: dict[tuple[Lang, Ability, float], list[ScoredItem]] = defaultdict(list)
    for it in items:
        by_cell[(it.instance.lang, it.instance.ability, float(it.instance.noise_rate))].append(it)
    out: VectorsByKey = defaultdict(dict)
    for (lang, ability, rate), cell_items in by_cell.items():
        for mode in MODES:
            cell = cells[(lang, ability, mode)][rate]
            size = len(cell.group.ids)
            values = {k: np.zeros(size) for k in (*OUTCOMES, "repeated_fake")}
            for it in cell_items:
                k = cell.group.index[it.instance.id]
                values[outcome(it, mode)][k] = 1.0
                values["repeated_fake"][k] = float(repeats_fake(it, mode))
            out[(lang, ability, mode)][rate] = OutcomeVectors(cell, values)
    return out


def share(
    group: Group, num: np.ndarray, den: np.ndarray, bounds: Bounds = UNIT
) -> tuple[float | None, tuple[float, float] | None, int]:
    """sum(num) / sum(den), its Wilson interval at the cluster-bootstrap effective n (the questions
    with den > 0 are the clusters), and that number of questions; (None, None, 0) when den is 0."""
    n = int(np.count_nonzero(den))
    if n == 0:
        return None, None, 0
    value = float(num.sum() / den.sum())
    reps = ratio_replicates(group.weights, num, den) if group.weights.shape[0] else None
    return value, score_interval(value, reps, n, bounds), n


def outcome_rows(vectors: VectorsByKey) -> list[OutcomeCell]:
    """One row per cell, in the cells' canonical order (language, ability, noise rate, mode)."""
    order = {a: i for i, a in enumerate(ABILITIES + PROBES)}
    keys = sorted(
        (
            (lang, ability, mode, rate)
            for (lang, ability, mode), by in vectors.items()
            for rate in by
        ),
        key=lambda k: (MODES.index(k[2]), LANGS.index(k[0]), order[k[1]], k[3]),
    )
    rows = []
    for lang, ability, mode, rate in keys:
        v = vectors[(lang, ability, mode)][rate]
        fields: dict[str, object] = {}
        for name in OUTCOMES:
            value, ci, _ = share(v.group, v.values[name], v.present)
            fields[name], fields[f"{name}_ci"] = value, ci
        rows.append(
            OutcomeCell(
                lang=lang,
                ability=ability,
                noise_rate=rate,
                mode=mode,
                n=int(v.present.sum()),
                **fields,  # type: ignore[arg-type]
            )
        )
    return rows


@dataclass(frozen=True)
class Figure:
    value: float
    ci: tuple[float, float] | None
    n_questions: int
    complete: bool


def _complete(ability: Ability, by_rate: dict[float, OutcomeVectors]) -> bool:
    rates = DEFAULT_NOISE_RATES.get(ability, (0.0,))
    return all(
        r in by_rate
        and by_rate[r].cell.metrics.data_complete
        and by_rate[r].cell.metrics.n >= by_rate[r].cell.metrics.expected_n
        for r in rates
    )


def pooled(by_rate: dict[float, OutcomeVectors]) -> tuple[Group, dict[str, np.ndarray]]:
    """Per question, the count of its answers over the cells (noise rates) of one ability in each
    outcome ("present": how many it has); the cells of one ability share one group."""
    cells = list(by_rate.values())
    group = cells[0].group
    sums = {k: sum(v.values[k] * v.present for v in cells) for k in OUTCOMES}
    sums["present"] = sum(v.present for v in cells)
    return group, sums  # type: ignore[return-value]


def truthfulness(group: Group, sums: dict[str, np.ndarray], complete: bool) -> Figure:
    """Correct share minus wrong share over the answers, with the paired interval of
    `stats.intervals.discordant_difference` (the two shares' Wilson intervals at the cluster-
    bootstrap effective n, joined by MOVER with their replicates' correlation)."""
    value, ci = discordant_difference(
        group.weights, sums["correct"], sums["wrong"], sums["present"]
    )
    n = int(np.count_nonzero(sums["present"]))
    return Figure(0.0 if value is None else value, ci, n, complete)


def answer_rate(group: Group, sums: dict[str, np.ndarray], complete: bool) -> Figure:
    """The share of the answers that do not refuse, Wilson at the effective n."""
    value, ci, n = share(group, sums["present"] - sums["refused"], sums["present"])
    return Figure(0.0 if value is None else value, ci, n, complete)


def _share_of(name: str):
    def figure(group: Group, sums: dict[str, np.ndarray], complete: bool) -> Figure:
        value, ci, n = share(group, sums[name], sums["present"])
        return Figure(0.0 if value is None else value, ci, n, complete)

    return figure


METRICS = {"truthfulness": truthfulness, "answer_rate": answer_rate}
# the four shares over all the ability's answers (what the model page's bars show)
SHARES = {name: _share_of(name) for name in OUTCOMES}


def ability_figures(vectors: VectorsByKey) -> dict[tuple[Lang, Ability, Mode, str], Figure]:
    """Truthfulness and answer rate of every (language, ability or probe, mode) measured."""
    out = {}
    for (lang, ability, mode), by_rate in vectors.items():
        full = _complete(ability, by_rate)
        group, sums = pooled(by_rate)
        for metric, fn in (METRICS | SHARES).items():
            out[(lang, ability, mode, metric)] = fn(group, sums, full)
    return out


def _entry(lang: str, ability: Ability, mode: Mode, metric: str, f: Figure, definition: str):
    return OutcomeScore(
        lang=lang,  # type: ignore[arg-type]
        mode=mode,
        ability=ability,
        metric=metric,  # type: ignore[arg-type]
        value=f.value,
        ci=f.ci,
        n_questions=f.n_questions,
        complete=f.complete,
        definition=definition,
    )


def truthfulness_entries(vectors: VectorsByKey) -> list[OutcomeScore]:
    """Per mode: every language's truthfulness, answer rate and four outcome shares per ability
    and probe, then truthfulness and answer rate zh - en where both languages have them."""
    figures = ability_figures(vectors)
    order = ABILITIES + PROBES
    out = []
    for mode in MODES:
        for lang in LANGS:
            for ability in order:
                for metric in (*METRICS, *SHARES):
                    f = figures.get((lang, ability, mode, metric))
                    if f is not None:
                        out.append(_entry(lang, ability, mode, metric, f, DEFINITIONS[metric]))
        for ability in order:
            for metric in METRICS:
                zh = figures.get(("zh", ability, mode, metric))
                en = figures.get(("en", ability, mode, metric))
                if zh is None or en is None:
                    continue
                ci = None
                if zh.ci is not None and en.ci is not None:
                    ci = newcombe_difference(zh.value, zh.ci, en.value, en.ci)
                diff = Figure(
                    zh.value - en.value,
                    ci,
                    zh.n_questions + en.n_questions,
                    zh.complete and en.complete,
                )
                out.append(_entry(DIFF_LANG, ability, mode, metric, diff, DIFF_DEFINITION))
    return out

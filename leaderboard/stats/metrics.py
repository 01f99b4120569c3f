"""compute_metrics: scored items -> the cells, scores and bootstrap record results.json stores.

Cells are (language, ability, noise rate, mode): leaderboard.stats.cells computes them, and
leaderboard.stats.aggregate turns them into ability and overall scores (its definition strings are
the documentation of record).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from leaderboard.core.schema import (
    Bootstrap,
    CellMetrics,
    ConflictEffect,
    ConflictFigure,
    ConflictGroundingCell,
    ConflictGroundingScore,
    GroundingCell,
    GroundingScore,
    OutcomeCell,
    OutcomeScore,
    ProbeEntry,
    RiskCoverage,
    ScoreEntry,
)
from leaderboard.core.types import ABILITIES, CONFLICT, LANGS, MODES, PROBES, Ability, Lang, Mode
from leaderboard.scoring.outcome import ScoredItem, SplitInfo
from leaderboard.stats.aggregate import score_entries
from leaderboard.stats.attribution import chain_entries, replacement_entries
from leaderboard.stats.bootstrap import CONFIDENCE
from leaderboard.stats.cells import Cell, build_cell, check_items, groups
from leaderboard.stats.cliff import cliff_entries
from leaderboard.stats.closed_book import closed_book_entries
from leaderboard.stats.conflicts import DEFINITIONS as CONFLICT_DEFINITIONS
from leaderboard.stats.conflicts import EFFECT_DEFINITIONS, Answered, answered
from leaderboard.stats.conflicts import effects as conflict_effects
from leaderboard.stats.conflicts import figures as conflict_figures
from leaderboard.stats.grounding import conflict_grounding_results, grounding_results
from leaderboard.stats.intervals import METHOD
from leaderboard.stats.outcomes import outcome_rows, outcome_vectors, truthfulness_entries
from leaderboard.stats.risk_coverage import risk_coverage_entries

CellKey = tuple[Lang, Ability, float]


def _by_cell(items: Sequence[ScoredItem]) -> dict[CellKey, list[ScoredItem]]:
    by_cell: dict[CellKey, list[ScoredItem]] = defaultdict(list)
    for it in items:
        by_cell[(it.instance.lang, it.instance.ability, float(it.instance.noise_rate))].append(it)
    return by_cell


def _cell_order(keys: Sequence[CellKey]) -> list[CellKey]:
    """Language, then the abilities' canonical order, then noise rate."""
    order = {a: i for i, a in enumerate(ABILITIES + PROBES)}
    return sorted(keys, key=lambda k: (LANGS.index(k[0]), order[k[1]], k[2]))


CellsByKey = dict[tuple[Lang, Ability, Mode], dict[float, Cell]]


def build_cells(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int,
    seed: int,
) -> tuple[CellsByKey, list[CellMetrics], list[Lang]]:
    """Every (lang, ability, noise rate, mode) cell with its per-question vectors and shared
    draws, the schema rows in canonical order, and the languages present."""
    check_items(items, splits)
    by_group = groups(items, splits, resamples, seed)
    by_cell = _by_cell(items)
    keys = _cell_order(list(by_cell))
    cells: CellsByKey = defaultdict(dict)
    rows: list[CellMetrics] = []
    for mode in MODES:
        for lang, ability, rate in keys:
            split = splits[(lang, ability)]
            group = by_group[(lang, split.data_file)]
            c = build_cell(
                (lang, ability, rate, mode), by_cell[(lang, ability, rate)], group, split
            )
            cells[(lang, ability, mode)][rate] = c
            rows.append(c.metrics)
    langs = [lang for lang in LANGS if any(k[0] == lang for k in keys)]
    return cells, rows, langs


@dataclass(frozen=True)
class Metrics:
    """Everything results.json stores from the scored items."""

    cells: list[CellMetrics]
    scores: list[ScoreEntry]
    probes: list[ProbeEntry]
    bootstrap: Bootstrap
    # what the answers did: the outcome shares of every cell, truthfulness and answer rate,
    # risk-coverage
    outcomes: list[OutcomeCell]
    truthfulness: list[OutcomeScore]
    risk_coverage: list[RiskCoverage]
    # the knowledge-conflict track's figures and paired effects (stats.conflicts)
    conflicts: list[ConflictFigure]
    conflict_effects: list[ConflictEffect]
    # where the answers came from (stats.grounding): per-cell counts and per-ability figures
    grounding: list[GroundingCell]
    grounding_scores: list[GroundingScore]
    # where the conflict track's answers came from, per (language, condition)
    conflict_grounding: list[ConflictGroundingCell]
    conflict_grounding_scores: list[ConflictGroundingScore]


def probe_entries(cells: CellsByKey, langs: list[Lang]) -> list[ProbeEntry]:
    """Chain, replacement and cliff figures per mode and language; the RGB scores never read
    them."""
    out: list[ProbeEntry] = []
    for mode in MODES:
        for lang in langs:
            chain = cells.get((lang, "chain", mode), {}).get(0.0)
            if chain is not None:
                out += chain_entries(lang, mode, chain)
            replaced = cells.get((lang, "replacement", mode), {}).get(0.0)
            noise = cells.get((lang, "noise", mode), {})
            if replaced is not None:
                out += replacement_entries(lang, mode, replaced, noise.get(0.0))
            out += cliff_entries(lang, mode, noise)
    return out


def compute_results(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int = 1000,
    seed: int = 2333,
) -> Metrics:
    """Cells for every (lang, ability or probe, noise rate, mode) present, ability/overall scores
    (the four RGB abilities only), probe figures (the closed-book ones included), bootstrap info,
    what the answers did (stats.outcomes, stats.risk_coverage) and where they came from
    (stats.grounding). The conflict track's answers have figures of their own
    (stats.conflicts, and their grounding per condition), never cells."""
    conflict = answered(items)
    conflict_rows, conflict_figures = conflict_grounding_results(items)
    items = [it for it in items if it.instance.ability != CONFLICT]
    cells, rows, langs = build_cells(items, splits, resamples, seed)
    entries = score_entries(cells, langs)
    boot = Bootstrap(method=METHOD, resamples=resamples, seed=seed, confidence=CONFIDENCE)
    vectors = outcome_vectors(items, cells)
    grounding_rows, grounding_figures = grounding_results(items, cells)
    return Metrics(
        rows,
        entries,
        probe_entries(cells, langs) + closed_book_entries(vectors),
        boot,
        outcome_rows(vectors),
        truthfulness_entries(vectors),
        risk_coverage_entries(items),
        conflict_figure_rows(conflict),
        conflict_effect_rows(conflict),
        grounding_rows,
        grounding_figures,
        conflict_rows,
        conflict_figures,
    )


def conflict_figure_rows(answers: Sequence[Answered]) -> list[ConflictFigure]:
    """The conflict track's outcome shares per (language, condition), as results.json stores
    them."""
    return [
        ConflictFigure(
            lang=f.lang,
            condition=f.condition,
            metric=f.metric,
            value=f.value,
            ci=f.ci,
            n=f.n,
            definition=CONFLICT_DEFINITIONS[f.metric],
        )
        for f in conflict_figures(answers)
    ]


def conflict_effect_rows(answers: Sequence[Answered]) -> list[ConflictEffect]:
    """The conflict track's paired effects within one folder (one instruction)."""
    return [
        ConflictEffect(
            lang=e.lang,  # type: ignore[arg-type]
            effect=e.effect,
            metric=e.metric,
            value=e.value,
            ci=e.ci,
            n=e.n,
            definition=EFFECT_DEFINITIONS[e.effect],
        )
        for e in conflict_effects(answers)
    ]


def compute_metrics(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int = 1000,
    seed: int = 2333,
) -> tuple[list[CellMetrics], list[ScoreEntry], Bootstrap]:
    """Cells, ability/overall scores and bootstrap info (compute_results without the probes)."""
    m = compute_results(items, splits, resamples, seed)
    return m.cells, m.scores, m.bootstrap

"""compute_metrics: scored items -> the cells, scores and bootstrap record results.json stores.

Cells are (language, ability, noise rate, mode): leaderboard.stats.cells computes them, and
leaderboard.stats.aggregate turns them into ability and overall scores (its definition strings are
the documentation of record).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from leaderboard.core.schema import Bootstrap, CellMetrics, ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS, MODES, Ability, Lang, Mode
from leaderboard.scoring.outcome import ScoredItem, SplitInfo
from leaderboard.stats.aggregate import score_entries
from leaderboard.stats.bootstrap import CONFIDENCE
from leaderboard.stats.cells import Cell, build_cell, check_items, groups
from leaderboard.stats.intervals import METHOD

CellKey = tuple[Lang, Ability, float]


def _by_cell(items: Sequence[ScoredItem]) -> dict[CellKey, list[ScoredItem]]:
    by_cell: dict[CellKey, list[ScoredItem]] = defaultdict(list)
    for it in items:
        by_cell[(it.instance.lang, it.instance.ability, float(it.instance.noise_rate))].append(it)
    return by_cell


def _cell_order(keys: Sequence[CellKey]) -> list[CellKey]:
    """Language, then the abilities' canonical order, then noise rate."""
    order = {a: i for i, a in enumerate(ABILITIES)}
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


def compute_metrics(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int = 1000,
    seed: int = 2333,
) -> tuple[list[CellMetrics], list[ScoreEntry], Bootstrap]:
    """Cells for every (lang, ability, noise rate, mode) present, ability/overall scores, bootstrap
    info."""
    cells, rows, langs = build_cells(items, splits, resamples, seed)
    entries = score_entries(cells, langs)
    boot = Bootstrap(method=METHOD, resamples=resamples, seed=seed, confidence=CONFIDENCE)
    return rows, entries, boot

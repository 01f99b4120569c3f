"""The instruction-sensitivity track on the board: per model, what its answers did under RGB's
instruction and each alternative on the same panel questions (protocol/instructions.PANEL),
with the paired differences and the sensitivity (stats/instruction_panel.py).

The official instruction's answers are the entry's ranked answers, restricted to the panel's
questions (the first N records of each panel split, as `run --panel` selects them); the
alternatives' are the entry's instructions/<id>/ folders. Nothing here enters a ranked cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from leaderboard.board.instances import entry_build
from leaderboard.board.load import Entry
from leaderboard.board.paired import ScoreCache, score_records
from leaderboard.core.errors import DataError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import TestInstance
from leaderboard.data.splits import load_split
from leaderboard.protocol.instructions import OFFICIAL, PANEL, instruction_ids
from leaderboard.scoring.outcome import ScoredItem
from leaderboard.stats.instruction_panel import Figure, Sensitivity, panel_figures, sensitivity


@dataclass(frozen=True)
class ModelPanel:
    """One entry's panel: its figures, its sensitivity per language, and per (instruction,
    language, ability) how many of the panel's questions it answered (`expected`: how many the
    panel asks offline)."""

    entry_id: str
    name: str
    figures: tuple[Figure, ...]
    sensitivity: tuple[Sensitivity, ...]
    answered: dict[tuple[str, str, str], int]
    expected: dict[tuple[str, str], int]

    @property
    def instructions(self) -> tuple[str, ...]:
        have = {f.instruction for f in self.figures}
        return tuple(i for i in instruction_ids() if i in have)


def panel_keys(root: Path) -> dict[tuple[str, str], tuple[str, ...]]:
    """The panel's instance keys per (language, ability): the first N records of each split in
    the data here (the partial en file stands in offline, as in the runs); a split whose file is
    absent has none."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for lang, ability, rate, n in PANEL:
        try:
            _, records = load_split(root, lang, ability, allow_partial=True)
        except DataError:
            out[(lang, ability)] = ()
            continue
        out[(lang, ability)] = tuple(
            TestInstance(lang, ability, rate, r.id, "", (), ()).key for r in records[:n]
        )
    return out


def _scored(
    records: Sequence[PredictionRecord], root: Path, build: tuple[int, bool], cache: ScoreCache
) -> list[ScoredItem]:
    """On the instances as the runs built them (the passages shown: strict's copy rule)."""
    items, _ = score_records(records, root, {}, cache, build=build)
    return items


def model_panel(
    entry: Entry,
    root: Path,
    keys: dict[tuple[str, str], tuple[str, ...]] | None = None,
    cache: ScoreCache | None = None,
) -> ModelPanel | None:
    """The panel of one entry, or None when it has no alternative instruction measured; `keys`
    (panel_keys) and `cache` (the built instances) let a caller build the data once for many
    entries."""
    if not entry.instructions:
        return None
    keys = panel_keys(root) if keys is None else keys
    build, cache = entry_build(entry), (ScoreCache() if cache is None else cache)
    wanted = {k for ks in keys.values() for k in ks}
    answers: dict[str, list[ScoredItem]] = {
        OFFICIAL: _scored([r for r in entry.predictions if r.key in wanted], root, build, cache)
    }
    for run in entry.instructions:
        answers[run.instruction] = _scored(
            [r for r in run.predictions if r.key in wanted], root, build, cache
        )
    answered: dict[tuple[str, str, str], int] = {}
    for instruction, items in answers.items():
        for it in items:
            k = (instruction, it.instance.lang, it.instance.ability)
            answered[k] = answered.get(k, 0) + 1
    figures = panel_figures(answers, OFFICIAL)
    return ModelPanel(
        entry_id=entry.id,
        name=entry.name,
        figures=tuple(figures),
        sensitivity=tuple(sensitivity(answers)),
        answered=answered,
        expected={k: len(v) for k, v in keys.items()},
    )


def instruction_panels(entries: Sequence[Entry], root: Path) -> list[ModelPanel]:
    """Every entry's panel that has one, in the entries' order."""
    measured = [e for e in entries if e.instructions]
    keys = panel_keys(root) if measured else {}
    cache = ScoreCache()  # the data and instances, read and built once for every entry
    return [p for e in measured if (p := model_panel(e, root, keys, cache)) is not None]


def panel_frame(panels: Sequence[ModelPanel]) -> pd.DataFrame:
    """One row per (model, language, instruction, ability, metric): value, interval, n, and the
    paired difference from the official instruction with its interval and n."""
    rows = []
    for p in panels:
        for f in p.figures:
            rows.append(
                {
                    "submission_id": p.entry_id,
                    "name": p.name,
                    "lang": f.lang,
                    "instruction": f.instruction,
                    "ability": f.ability,
                    "metric": f.metric,
                    "value": f.value,
                    "ci_low": f.ci[0] if f.ci else float("nan"),
                    "ci_high": f.ci[1] if f.ci else float("nan"),
                    "n": f.n,
                    "expected_n": p.expected.get((f.lang, f.ability), 0),
                    "diff": float("nan") if f.diff is None else f.diff,
                    "diff_ci_low": f.diff_ci[0] if f.diff_ci else float("nan"),
                    "diff_ci_high": f.diff_ci[1] if f.diff_ci else float("nan"),
                    "n_paired": f.n_paired,
                }
            )
    columns = [
        "submission_id", "name", "lang", "instruction", "ability", "metric", "value", "ci_low",
        "ci_high", "n", "expected_n", "diff", "diff_ci_low", "diff_ci_high", "n_paired",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)

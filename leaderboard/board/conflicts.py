"""The knowledge-conflict track on the board: per model, which answer it takes when its passages
disagree (every outcome's share per language and condition), and what sways it: the paired
effects within RGB's instruction (what one altered passage costs, order, majority), the track's
own instruction against RGB's on the same condition, and the model's prior (its closed-book
answer to the question, from the entry's ranked `closedbook_fact` answers).

The per-folder figures are results.json's (recomputed by `verify`); the effects across folders
and the prior are computed here from the committed answers and the data, with the same
functions (stats/conflicts.py). Nothing here enters a ranked cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from leaderboard.board.load import ConflictRun, Entry
from leaderboard.board.paired import score_records
from leaderboard.core.errors import DataError
from leaderboard.core.schema import ConflictCoverage, ConflictEffect, ConflictFigure
from leaderboard.core.types import LANGS, TestInstance
from leaderboard.protocol.conflicts import PANEL, condition_ids
from leaderboard.run.plan import conflict_instances
from leaderboard.scoring.outcome import scored_items
from leaderboard.stats.conflicts import (
    EFFECT_DEFINITIONS,
    Answered,
    Effect,
    Figure,
    answered,
    closed_book_group,
    effects,
    prior_split,
)

OFFICIAL = "rgb"
TRACK_INSTRUCTION = "conflict_aware"


@dataclass(frozen=True)
class ConflictPanel:
    """One entry's conflict track: per instruction the stored figures, effects and coverage; the
    instruction effects (the track's instruction minus RGB's, per condition it was asked on) and
    the prior split, computed from the answers."""

    entry_id: str
    name: str
    figures: dict[str, tuple[ConflictFigure, ...]]  # instruction -> rows
    effects: dict[str, tuple[ConflictEffect, ...]]
    coverage: dict[str, tuple[ConflictCoverage, ...]]
    instruction_effects: tuple[Effect, ...] = ()
    prior: tuple[tuple[str, str, str, Figure], ...] = ()
    answers: dict[str, tuple[Answered, ...]] = field(default_factory=dict)

    @property
    def instructions(self) -> tuple[str, ...]:
        return tuple(i for i in PANEL if i in self.figures)

    def figure(
        self, lang: str, condition: str, metric: str, instruction: str = OFFICIAL
    ) -> ConflictFigure | None:
        for f in self.figures.get(instruction, ()):
            if (f.lang, f.condition, f.metric) == (lang, condition, metric):
                return f
        return None

    def effect(self, lang: str, effect: str, metric: str) -> ConflictEffect | Effect | None:
        for e in (*self.effects.get(OFFICIAL, ()), *self.instruction_effects):
            if (e.lang, e.effect, e.metric) == (lang, effect, metric):
                return e
        return None

    def complete(self, instructions: Sequence[str] | None = None) -> bool:
        """Every condition of each instruction's panel answered on every eligible question, in
        both languages (default: the instructions this entry has a folder for; a model's panel
        is whole with `PANEL`'s every instruction)."""
        for instruction in instructions if instructions is not None else self.instructions:
            chosen = PANEL[instruction]
            rows = {(c.lang, c.condition): c for c in self.coverage.get(instruction, ())}
            for lang in LANGS:
                for cond in chosen or condition_ids():
                    c = rows.get((lang, cond))
                    if c is None or c.answered < c.eligible:
                        return False
        return True


def _instances(root: Path) -> dict[str, TestInstance]:
    """Every conflict instance of the data here, by key (the passages as the runs showed them)."""
    out: dict[str, TestInstance] = {}
    for lang in LANGS:
        try:
            _, instances, _ = conflict_instances(root, lang, condition_ids())
        except DataError:
            continue
        out |= {i.key: i for i in instances}
    return out


def _answers(run: ConflictRun, instances: dict[str, TestInstance]) -> list[Answered]:
    triples = [
        (instances[r.key], r.prediction, r.error) for r in run.predictions if r.key in instances
    ]
    return answered(scored_items(triples))


def _prior(entry: Entry, root: Path) -> dict[tuple[str, int], str]:
    """(lang, question id) -> the closed-book group of the entry's ranked closedbook_fact answer."""
    records = [r for r in entry.predictions if r.ability == "closedbook_fact"]
    if not records:
        return {}
    items, _ = score_records(records, root, {})
    return {(it.instance.lang, it.instance.id): closed_book_group(it) for it in items}


def model_conflicts(
    entry: Entry, root: Path, instances: dict[str, TestInstance] | None = None
) -> ConflictPanel | None:
    """One entry's conflict panel, or None when it has no conflict folder; `instances`
    (from `_instances`) lets a caller build the data once for many entries."""
    if not entry.conflicts:
        return None
    instances = _instances(root) if instances is None else instances
    answers = {run.instruction: tuple(_answers(run, instances)) for run in entry.conflicts}
    inst_effects: list[Effect] = []
    if OFFICIAL in answers and TRACK_INSTRUCTION in answers:
        pairs = [("instruction", c, c) for c in PANEL[TRACK_INSTRUCTION] or ()]
        for name, c1, c2 in pairs:
            for e in effects(answers[TRACK_INSTRUCTION], [(name, c1, c2)], answers[OFFICIAL]):
                inst_effects.append(
                    Effect(e.lang, f"instruction:{c1}", e.metric, e.value, e.ci, e.n)
                )
    prior = _prior(entry, root)
    return ConflictPanel(
        entry_id=entry.id,
        name=entry.name,
        figures={r.instruction: tuple(r.results.conflicts) for r in entry.conflicts},
        effects={r.instruction: tuple(r.results.conflict_effects) for r in entry.conflicts},
        coverage={r.instruction: tuple(r.results.conflict_coverage) for r in entry.conflicts},
        instruction_effects=tuple(inst_effects),
        prior=tuple(prior_split(answers.get(OFFICIAL, ()), prior)) if prior else (),
        answers=answers,
    )


def conflict_panels(entries: Sequence[Entry], root: Path) -> list[ConflictPanel]:
    """Every entry's conflict panel that has one, in the entries' order."""
    measured = [e for e in entries if e.conflicts]
    instances = _instances(root) if measured else {}
    return [p for e in measured if (p := model_conflicts(e, root, instances)) is not None]


def effect_definition(effect: str) -> str:
    """The definition of an effect id (an instruction effect names its condition after ':')."""
    return EFFECT_DEFINITIONS[effect.split(":", 1)[0]]


def conflict_frame(panels: Sequence[ConflictPanel]) -> pd.DataFrame:
    """One row per (model, instruction, language, condition, metric): value, interval, n."""
    rows = [
        {
            "submission_id": p.entry_id,
            "name": p.name,
            "instruction": instruction,
            "lang": f.lang,
            "condition": f.condition,
            "metric": f.metric,
            "value": f.value,
            "ci_low": f.ci[0] if f.ci else float("nan"),
            "ci_high": f.ci[1] if f.ci else float("nan"),
            "n": f.n,
        }
        for p in panels
        for instruction, figs in p.figures.items()
        for f in figs
    ]
    columns = [
        "submission_id", "name", "instruction", "lang", "condition", "metric", "value",
        "ci_low", "ci_high", "n",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def effect_frame(panels: Sequence[ConflictPanel]) -> pd.DataFrame:
    """One row per (model, language or zh-en, effect, metric): the paired difference, its
    interval and the questions it is taken on."""
    rows = []
    for p in panels:
        for e in (*p.effects.get(OFFICIAL, ()), *p.instruction_effects):
            rows.append(
                {
                    "submission_id": p.entry_id,
                    "name": p.name,
                    "lang": e.lang,
                    "effect": e.effect,
                    "metric": e.metric,
                    "value": float("nan") if e.value is None else e.value,
                    "ci_low": e.ci[0] if e.ci else float("nan"),
                    "ci_high": e.ci[1] if e.ci else float("nan"),
                    "n": e.n,
                }
            )
    columns = [
        "submission_id", "name", "lang", "effect", "metric", "value", "ci_low", "ci_high", "n",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)

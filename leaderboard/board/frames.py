"""The board as tidy pandas DataFrames: the analyst's API and the site's table source.

    >>> from leaderboard.board.frames import load_board
    >>> board = load_board("submissions")
    >>> board.scores.query("lang == 'zh' and mode == 'strict' and ability == 'overall'")

One row per cell (`cells`), per score entry (`scores`), per entry (`models`) and per outcome figure
(`outcomes`: the four outcome shares of every cell, and per ability the shares, truthfulness and
answer rate; `noise_rate` NaN for an ability's figure), with categorical dtypes for lang,
ability and mode, so filters, group-bys and pivots need no hand-written loops.
Rates are fractions (0-1) as stored in results.json; `ci_low`/`ci_high` are NaN without a CI.
Predictions are large, so `Board.predictions()` reads them on demand through each run's store.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from leaderboard.board.instructions import instruction_panels, panel_frame
from leaderboard.board.load import Entry, SiteData, load_entry, load_site_data
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.board.systems import is_system
from leaderboard.core.schema import DIFF_LANG, Results, ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS, MODES, PROBES
from leaderboard.run.store import RunStore

LANG_CATEGORIES = [*LANGS, "all", DIFF_LANG]
ABILITY_CATEGORIES = [*ABILITIES, "overall", *PROBES]
# The rate fields of a cell that carry a CI in results.json: (column, CI field).
_CELL_RATES = (
    ("accuracy", "accuracy_ci"),
    ("rejection_rate", "rejection_rate_ci"),
    ("ed", "ed_ci"),
    ("cr", "cr_ci"),
    ("token_f1", "token_f1_ci"),
)
_CELL_PLAIN = ("over_refusal_rate", "cr_all", "mean_output_chars")


def _ci(ci: tuple[float, float] | None) -> tuple[float, float]:
    return (float(ci[0]), float(ci[1])) if ci is not None else (float("nan"), float("nan"))


def _categorical(df: pd.DataFrame) -> pd.DataFrame:
    """The fixed vocabularies as ordered categoricals: sorting follows the protocol's order."""
    vocab = {"lang": LANG_CATEGORIES, "ability": ABILITY_CATEGORIES, "mode": list(MODES)}
    for col, cats in vocab.items():
        if col in df:
            df[col] = pd.Categorical(df[col], categories=cats, ordered=True)
    return df


def _track(e: Entry) -> str:
    """Where the site shows the entry: "system" (the Systems page), "baseline" (the trivial
    floor, never ranked) or "model" (the model tables), so an analyst can filter as it does."""
    if is_system(e):
        return "system"
    return "baseline" if is_trivial_baseline(e.results) else "model"


def _model_row(e: Entry) -> dict[str, object]:
    p = e.results.provenance
    return {
        "model": e.id,
        "display_name": e.results.display_name,
        "track": _track(e),
        "backend": p.backend,
        "model_ref": p.model,
        "model_revision": p.model_revision,
        "fingerprint": p.fingerprint,
        "git_commit": p.git_commit,
        "git_dirty": p.git_dirty,
        "partial": e.results.partial,
        "partial_reasons": len(e.results.partial_reasons),
        "finished": p.finished,
    }


def _cell_rows(e: Entry) -> Iterable[dict[str, object]]:
    return _results_cell_rows(e.id, e.results)


def _instruction_cell_rows(e: Entry) -> Iterable[dict[str, object]]:
    """The cells of the entry's answers under each alternative instruction, never ranked."""
    for run in e.instructions:
        for row in _results_cell_rows(e.id, run.results):
            yield row | {"instruction": run.instruction}


def _results_cell_rows(model: str, results: Results) -> Iterable[dict[str, object]]:
    for c in results.cells:
        where = {
            "model": model,
            "lang": c.lang,
            "ability": c.ability,
            "noise_rate": c.noise_rate,
            "mode": c.mode,
        }
        size = {
            "n": c.n,
            "expected_n": c.expected_n,
            "n_errors": c.n_errors,
            "data_file": c.data_file,
            "data_complete": c.data_complete,
        }
        metrics = [(m, getattr(c, ci)) for m, ci in _CELL_RATES] + [(m, None) for m in _CELL_PLAIN]
        for metric, ci in metrics:
            value = getattr(c, metric)
            if value is None:
                continue
            low, high = _ci(ci)
            yield (
                where
                | {
                    "metric": metric,
                    "value": float(value),
                    "ci_low": low,
                    "ci_high": high,
                }
                | size
            )


def score_row(model: str, s: ScoreEntry) -> dict[str, object]:
    """One row of the scores frame: what a release freezes and `verify` re-derives."""
    low, high = _ci(s.ci)
    return {
        "model": model,
        "lang": s.lang,
        "ability": s.ability,
        "mode": s.mode,
        "metric": s.metric,
        "value": float("nan") if s.value is None else float(s.value),
        "ci_low": low,
        "ci_high": high,
        "n_questions": s.n_questions,
        "complete": s.complete,
    }


def _score_rows(e: Entry) -> Iterable[dict[str, object]]:
    return (score_row(e.id, s) for s in e.results.scores)


_MODEL_COLUMNS = [
    "model", "display_name", "track", "backend", "model_ref", "model_revision", "fingerprint",
    "git_commit", "git_dirty", "partial", "partial_reasons", "finished",
]  # fmt: skip
_CELL_COLUMNS = [
    "model", "lang", "ability", "noise_rate", "mode", "metric", "value", "ci_low", "ci_high",
    "n", "expected_n", "n_errors", "data_file", "data_complete",
]  # fmt: skip
_INSTRUCTION_CELL_COLUMNS = ["instruction", *_CELL_COLUMNS]
_SCORE_COLUMNS = [
    "model", "lang", "ability", "mode", "metric", "value", "ci_low", "ci_high", "n_questions",
    "complete",
]  # fmt: skip


def _outcome_rows(e: Entry) -> Iterable[dict[str, object]]:
    """The four outcome shares of every cell, then the ability figures (shares over all its noise
    rates, truthfulness, answer rate)."""
    for c in e.results.outcomes:
        for name in ("correct", "refused", "error_claimed", "wrong"):
            low, high = _ci(getattr(c, f"{name}_ci"))
            yield {
                "model": e.id,
                "lang": c.lang,
                "ability": c.ability,
                "noise_rate": c.noise_rate,
                "mode": c.mode,
                "metric": name,
                "value": float(getattr(c, name)),
                "ci_low": low,
                "ci_high": high,
                "n": c.n,
            }
    for t in e.results.truthfulness:
        low, high = _ci(t.ci)
        yield {
            "model": e.id,
            "lang": t.lang,
            "ability": t.ability,
            "noise_rate": float("nan"),
            "mode": t.mode,
            "metric": t.metric,
            "value": float(t.value),
            "ci_low": low,
            "ci_high": high,
            "n": t.n_questions,
        }


_OUTCOME_COLUMNS = [
    "model", "lang", "ability", "noise_rate", "mode", "metric", "value", "ci_low", "ci_high", "n",
]  # fmt: skip


@dataclass(frozen=True)
class Board:
    """Every measured entry of a repository as DataFrames (see the module docstring)."""

    models: pd.DataFrame
    cells: pd.DataFrame
    scores: pd.DataFrame
    entries: tuple[Entry, ...] = field(repr=False, default=())
    outcomes: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=_OUTCOME_COLUMNS), repr=False
    )
    # the cells of every entry's answers under the alternative instructions (an `instruction`
    # column; RGB's own are `cells`): the instruction track, never ranked
    instruction_cells: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=_INSTRUCTION_CELL_COLUMNS), repr=False
    )

    def instruction_panel(self, data_root: Path | str) -> pd.DataFrame:
        """The instruction panel per model, language, instruction, ability and metric (strict;
        intervals, n, the paired difference from RGB's instruction): board.instructions, with
        the predictions read now and the answers scored against the data in `data_root`."""
        with_runs = [load_entry(e.dir) for e in self.entries if e.instructions]
        return panel_frame(instruction_panels(with_runs, Path(data_root)))

    def predictions(self, models: Iterable[str] | None = None) -> pd.DataFrame:
        """One row per prediction of the entries' own settings (read now, not at load)."""
        wanted = set(models) if models is not None else None
        rows = []
        for e in self.entries:
            if wanted is not None and e.id not in wanted:
                continue
            fp = e.results.provenance.fingerprint
            for r in RunStore(e.dir).read().records:
                if r.fingerprint == fp:
                    rows.append(
                        {
                            "model": e.id,
                            "lang": r.lang,
                            "ability": r.ability,
                            "noise_rate": r.noise_rate,
                            "id": r.id,
                            "prediction": r.prediction,
                            "error": r.error,
                        }
                    )
        columns = ["model", "lang", "ability", "noise_rate", "id", "prediction", "error"]
        return _categorical(pd.DataFrame(rows, columns=columns))

    def score_table(self, mode: str = "strict", metric: str = "score") -> pd.DataFrame:
        """Models x (lang, ability) values of one mode: the shape of the ranking tables."""
        rows = self.scores[(self.scores["mode"] == mode) & (self.scores["metric"] == metric)]
        return rows.pivot_table(
            index="model", columns=["lang", "ability"], values="value", observed=True
        )


def board_from(data: SiteData) -> Board:
    """DataFrames of already loaded entries (the site build loads once and uses both views)."""
    entries = data.submissions
    models = pd.DataFrame([_model_row(e) for e in entries], columns=_MODEL_COLUMNS)
    cells = pd.DataFrame([r for e in entries for r in _cell_rows(e)], columns=_CELL_COLUMNS)
    scores = pd.DataFrame([r for e in entries for r in _score_rows(e)], columns=_SCORE_COLUMNS)
    outcomes = pd.DataFrame(
        [r for e in entries for r in _outcome_rows(e)], columns=_OUTCOME_COLUMNS
    )
    instruction_cells = pd.DataFrame(
        [r for e in entries for r in _instruction_cell_rows(e)], columns=_INSTRUCTION_CELL_COLUMNS
    )
    return Board(
        models,
        _categorical(cells),
        _categorical(scores),
        entries,
        _categorical(outcomes),
        _categorical(instruction_cells),
    )


def load_board(path: Path | str = "submissions") -> Board:
    """Load every entry under a `submissions/` folder (or a repository root holding one)."""
    path = Path(path)
    root = path.parent if path.name == "submissions" else path
    return board_from(load_site_data(root, with_predictions=False))

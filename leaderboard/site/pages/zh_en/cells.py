"""The cells the zh versus en page and a model's report card share: a score with its CI and
n, the difference's verdict (a language named only when its interval excludes 0), and the
"matched abilities" row that stands in for an overall difference when a language has no overall;
the difference tables of both families (scores, truthfulness).
"""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.load import Entry
from leaderboard.board.ranking import score_entry
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.pages.zh_en.charts import beyond
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.tables import Cell, Row, Table


def value_of(e: ScoreEntry | None) -> float | None:
    return None if e is None else e.value


def ci_of(e: ScoreEntry | None) -> tuple[float, float] | None:
    return None if e is None or e.value is None else e.ci


def n_of(e: ScoreEntry | None) -> int | None:
    return None if e is None or e.value is None else e.n_questions


def matched_abilities(s: Entry, mode: str) -> tuple[str, ...] | None:
    """The abilities a stored overall zh − en covers when a language has no overall (None
    when both have one: then it is the overall difference)."""
    both = [score_entry(s.results, lang, "overall", mode) for lang in LANGS]
    if all(e is not None and e.value is not None for e in both):
        return None
    return tuple(
        a
        for a in ABILITIES
        if all(value_of(score_entry(s.results, lang, a, mode)) is not None for lang in LANGS)
    )


def ability_label(lg: str, a: str, matched: tuple[str, ...] | None) -> str:
    if a != "overall" or matched is None:
        return ui(lg, f"ability.{a}")
    names = ui(lg, "coverage.list_sep").join(ui(lg, f"coverage.ability_{m}") for m in matched)
    return ui(lg, "zhen.matched", abilities=names)


def matched_cells(s: Entry, matched: tuple[str, ...], mode: str, lg: str) -> dict[str, Cell]:
    """The zh, en and n cells of a matched-abilities row: no score of its own in either
    language (the rows below give them), the questions of the matched abilities counted."""
    cells: dict[str, Cell] = {}
    n = []
    for lang in LANGS:
        why = ui(lg, "zhen.matched_cell")
        cells[lang] = Cell({"value": None, "missing": "matched abilities"}, esc("—"), -1.0, why=why)
        n.append(sum(n_of(score_entry(s.results, lang, a, mode)) or 0 for a in matched))
    cells["n"] = Cell.text(f"{n[0]} / {n[1]}", n[0])
    return cells


def better_cell(lg: str, diff_value: float | None, ci: tuple[float, float] | None) -> Cell:
    if diff_value is None or not beyond(ci):
        return Cell.text(ui(lg, "zhen.no_difference"), "")
    return Cell.text("zh" if diff_value > 0 else "en")


def diff_table(
    family: str,
    table_id: str,
    title: str,
    mode: str,
    rows: Sequence[Row],
    band: Sequence[Row],
    lg: str,
    reported: Sequence[Row] = (),
) -> Table:
    """A zh-vs-en difference table (model, ability, zh, en, n, diff, better), titled by message
    `title` for `mode`: `family` ("zhen" or "zhtruth", render.columns) gives the zh/en and diff
    tips, the better label and the note; the trivial baselines in `band`, the paper's rows last."""
    fam = (f"{family}.{k}" for k in ("zh", "en"))
    tail = (f"{family}.{k}" for k in ("diff", "better"))
    return Table(
        id=table_id,
        title=ui(lg, title, mode=ui(lg, f"mode.{mode}")),
        columns=columns(lg, "col.model", "zhen.ability", *fam, "zhen.n", *tail),
        rows=tuple(rows),
        baseline_rows=tuple(band),
        reported_rows=tuple(reported),
        note=ui(lg, f"{family}.note"),
        ui=lg,
    )

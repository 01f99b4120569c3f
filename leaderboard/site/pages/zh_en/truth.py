"""The zh versus en page's truthfulness table: per entry and ability, truthfulness in
zh and in en and zh − en with their intervals, read from results.json's `truthfulness` list (the
difference and its interval are computed by stats/outcomes, as stats/aggregate computes the
ability scores' zh − en; the page only reads them)."""

from __future__ import annotations

from leaderboard.board.load import SiteData
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.core.schema import DIFF_LANG, OutcomeScore
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.pages.zh_en.cells import better_cell, diff_table
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import model_cell
from leaderboard.site.render.tables import Cell, Row, Table

METRIC = "truthfulness"


def truthfulness_table(data: SiteData, mode: str, prefix: str, lg: str) -> Table:
    """One row per entry and ability measured in both languages."""
    rows, band = [], []
    for s in sorted(data.submissions, key=lambda s: s.id):
        got: dict[tuple[str, str], OutcomeScore] = {
            (t.lang, t.ability): t
            for t in s.results.truthfulness
            if t.mode == mode and t.metric == METRIC
        }
        for a in ABILITIES:
            d = got.get((DIFF_LANG, a))
            if d is None:
                continue
            cells = {
                "model": model_cell(s, prefix, compact=True, lg=lg),
                "ability": Cell.text(ui(lg, f"ability.{a}")),
            }
            for lang in LANGS:
                e = got[(lang, a)]
                cells[lang] = Cell.score(e)
            cells["n"] = Cell.text(
                " / ".join(str(got[(lang, a)].n_questions) for lang in LANGS),
                got[("zh", a)].n_questions,
            )
            cells["diff"] = Cell.score(d)
            cells["better"] = better_cell(lg, d.value, d.ci)
            row = Row(cells, "lb-baseline-row" if is_trivial_baseline(s.results) else "")
            (band if row.css else rows).append(row)
    return diff_table(
        "zhtruth", f"zh-vs-en-truthfulness-{mode}", "zhtruth.title", mode, rows, band, lg
    )

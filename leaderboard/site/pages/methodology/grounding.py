"""The methodology page's section on where each answer came from (scoring/grounding.py,
stats/grounding.py): what the check does in a paragraph, then, per entry and language, the
rejection questions' made-up share split into invented and copied from a noise passage, with the
undetermined share beside them. Read from each results.json's `grounding_scores` (strict)."""

from __future__ import annotations

from leaderboard.board.load import SiteData
from leaderboard.core.types import LANGS
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output, entry_name
from leaderboard.site.render.tables import Cell, Row, Table

FIGURES = ("made_up", "invented", "copied_noise", "undetermined")


def rejection_table(data: SiteData, lg: str) -> Table | None:
    """One row per entry and language with rejection answers: the FIGURES with their intervals
    and the number of answers; None when no entry has grounding figures yet."""
    rows = []
    for sub in data.submissions:
        got = {
            (s.lang, s.metric): s for s in sub.results.grounding_scores if s.ability == "rejection"
        }
        for lang in LANGS:
            if (lang, "made_up") not in got:
                continue
            name = entry_name(sub, lg)
            cells = {"model": Cell.text(name, name), "lang": Cell.text(ui(lg, f"lang.{lang}"))}
            for metric in FIGURES:
                cells[metric] = Cell.score(got.get((lang, metric)))
            n = got[(lang, "made_up")].n
            cells["n"] = Cell.text(n, n)
            rows.append(Row(cells))
    if not rows:
        return None
    cols = columns(lg, "col.model", "col.lang", *(f"gr.{m}" for m in FIGURES), "gr.n")
    return Table(
        id="grounding-rejection",
        title=ui(lg, "mgr.table_title"),
        columns=cols,
        rows=tuple(rows),
        note=ui(lg, "mgr.table_note"),
        ui=lg,
    )


def grounding_section(data: SiteData, out: Output, lg: str, docs_href: str) -> str:
    """The section: the paragraph (with a link to the docs page) and the rejection table."""
    link = f'<a href="{esc(docs_href)}">{esc(ui(lg, "gr.docs"))}</a>'
    parts = [f"\n## {ui(lg, 'mgr.h')}\n", f"\n<p>{ui(lg, 'mgr.lead', link=link)}</p>\n"]
    table = rejection_table(data, lg)
    if table is not None:
        parts.append(out.table(table, ""))
    return "".join(parts)

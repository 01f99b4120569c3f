"""The methodology page's section on where each answer came from (scoring/grounding.py,
stats/grounding.py): what the check does in a paragraph, then, per entry and language, the
rejection questions' made-up share split into invented and copied from a noise passage, with the
undetermined share beside them; the omission share of the integration answers; and the conflict
track's answers under one true and one altered passage (true first, RGB's instruction) split into
taken from the altered passage, copied from noise and invented. Read from each results.json's
`grounding_scores` and each conflict folder's `conflict_grounding_scores` (strict)."""

from __future__ import annotations

from leaderboard.board.load import SiteData
from leaderboard.core.types import LANGS
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output, entry_name
from leaderboard.site.render.tables import Cell, Row, Table

FIGURES = ("made_up", "invented", "copied_noise", "undetermined")
# the conflict table: one condition under RGB's instruction, as the model pages' conflict line
CONFLICT_CONDITION = "t1f1"
CONFLICT_FIGURES = ("made_up", "copied_altered", "copied_noise", "invented", "undetermined")


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


def omission_table(data: SiteData, lg: str) -> Table | None:
    """One row per entry and language with an omission figure on the integration questions."""
    rows = []
    for sub in data.submissions:
        for s in sub.results.grounding_scores:
            if s.ability != "integration" or s.metric != "omission":
                continue
            name = entry_name(sub, lg)
            cells = {
                "model": Cell.text(name, name),
                "lang": Cell.text(ui(lg, f"lang.{s.lang}")),
                "omission": Cell.score(s),
                "n": Cell.text(s.n, s.n),
            }
            rows.append(Row(cells))
    if not rows:
        return None
    return Table(
        id="grounding-omission",
        title=ui(lg, "mgr.omission_title"),
        columns=columns(lg, "col.model", "col.lang", "gr.omission", "gr.n"),
        rows=tuple(rows),
        note=ui(lg, "mgr.omission_note"),
        ui=lg,
    )


def conflict_table(data: SiteData, lg: str) -> Table | None:
    """One row per entry and language with conflict answers under CONFLICT_CONDITION (RGB's
    instruction): the CONFLICT_FIGURES with their intervals and n."""
    rows = []
    for sub in data.submissions:
        for run in sub.conflicts:
            if run.instruction != "rgb":
                continue
            got = {
                (s.lang, s.metric): s
                for s in run.results.conflict_grounding_scores
                if s.condition == CONFLICT_CONDITION
            }
            for c in run.results.conflict_grounding:
                if c.condition != CONFLICT_CONDITION:
                    continue
                name = entry_name(sub, lg)
                lang = ui(lg, f"lang.{c.lang}")
                cells = {"model": Cell.text(name, name), "lang": Cell.text(lang)}
                for metric in CONFLICT_FIGURES:
                    cells[metric] = Cell.score(got.get((c.lang, metric)))
                cells["n"] = Cell.text(c.n, c.n)
                rows.append(Row(cells))
    if not rows:
        return None
    cols = columns(lg, "col.model", "col.lang", *(f"gr.{m}" for m in CONFLICT_FIGURES), "gr.n")
    return Table(
        id="grounding-conflicts",
        title=ui(lg, "mgr.conflict_title"),
        columns=cols,
        rows=tuple(rows),
        note=ui(lg, "mgr.conflict_note"),
        ui=lg,
    )


def grounding_section(data: SiteData, out: Output, lg: str, docs_href: str) -> str:
    """The section: the paragraph (with a link to the docs page), the rejection table, the
    omission table and the conflict table (each where some entry has its figures)."""
    link = f'<a href="{esc(docs_href)}">{esc(ui(lg, "gr.docs"))}</a>'
    parts = [f"\n## {ui(lg, 'mgr.h')}\n", f"\n<p>{ui(lg, 'mgr.lead', link=link)}</p>\n"]
    for table in (rejection_table(data, lg), omission_table(data, lg), conflict_table(data, lg)):
        if table is not None:
            parts.append(out.table(table, ""))
    return "".join(parts)

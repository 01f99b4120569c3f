"""The model page's relevance section, after the statement judge's: per relevance judge and
language, relevance by the judge (the answers to questions that fix no type for their answer:
judged of eligible, share with its interval) beside relevance by code (the questions asking for a
date, a number or a person) and both combined, with the judge's kappa against the grounding
labels (held-out test part, judges/relevance/agreement/<judge id>/agreement.json). A judge whose
kappa is low, or unmeasured, gets a one-line caveat; partial or sampled coverage is said; the
figures per ability and the counts are one click away. Read from relevance_results.json
(judge/relevance_figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.load import Entry
from leaderboard.core.judge_schema import (
    RelevanceAgreement,
    RelevanceKappa,
    RelevanceRow,
    RelevanceSummary,
)
from leaderboard.site.pages.methodology.judge_agreement import kappa_cell
from leaderboard.site.pages.model.faithfulness import LOW_KAPPA
from leaderboard.site.pages.model.tables import ability_name, model_table
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output, judge_name
from leaderboard.site.render.tables import Cell, Row, Table

# each figure of a row (RelevanceShare.figure) and its column
FIGURES = {"judge": "judge_share", "code": "code", "combined": "combined"}
# the counts of a row (RelevanceRow's fields) and their columns
COUNTS = {
    "eligible": "eligible",
    "judged": "judged_n",
    "n_unparsable": "n_unparsable",
    "n_unjudged": "n_unjudged",
    "typed": "typed",
}
ALL = "all"


def judge_kappa(
    agreements: Sequence[RelevanceAgreement], summary: RelevanceSummary, lang: str
) -> RelevanceKappa | None:
    """The judge's kappa against the labels on the held-out test part in a language (same judge
    id and fingerprint)."""
    for record in agreements:
        if (record.judge_id, record.judge_fingerprint) == (
            summary.judge_id,
            summary.judge_fingerprint,
        ):
            return next((k for k in record.agreement if k.lang == lang and k.split == "test"), None)
    return None


def _judged_cell(row: RelevanceRow, lg: str) -> Cell:
    text = ui(lg, "faith.judged_of", judged=row.judged, eligible=row.eligible)
    return Cell({"judged": row.judged, "eligible": row.eligible}, esc(text), row.judged)


def _cells(s: RelevanceSummary, row: RelevanceRow, lg: str) -> dict[str, Cell]:
    shares = {x.figure: x for x in row.shares}
    cells = {
        "judge": Cell.text(judge_name(s.display_name)),
        "lang": Cell.text(ui(lg, f"lang.{row.lang}")),
    }
    cells["judged"] = _judged_cell(row, lg)
    for figure, col in FIGURES.items():
        cells[col] = Cell.score(shares.get(figure))  # type: ignore[arg-type]
    return cells


def figures_table(sub: Entry, agreements: Sequence[RelevanceAgreement], lg: str) -> Table:
    """Per judge and language (every ability): the judge's kappa, answers judged of eligible,
    relevance by the judge, by code and combined."""
    rows = []
    for s in sub.relevance:
        for row in s.rows:
            if row.ability != ALL:
                continue
            cells = _cells(s, row, lg)
            cells["kappa"] = kappa_cell(judge_kappa(agreements, s, row.lang), lg)
            rows.append(Row(cells))
    ids = ("rel.judge", "col.lang", "rel.kappa", "rel.judged")
    ids += tuple(f"rel.{c}" for c in FIGURES.values())
    return model_table(
        sub, "relevance", "rel.title", columns(lg, *ids), rows, lg, "rel.note", filterable=False
    )


def abilities_table(sub: Entry, lg: str) -> Table:
    """Per judge, language and ability or probe: the same figures, and the counts behind them."""
    rows = []
    for s in sub.relevance:
        for row in s.rows:
            cells = _cells(s, row, lg)
            label = (
                ui(lg, "rel.every_ability") if row.ability == ALL else ability_name(row.ability, lg)
            )
            cells["ability"] = Cell.text(label)
            for name, col in COUNTS.items():
                value = getattr(row, name)
                cells[col] = Cell.text(value, value)
            rows.append(Row(cells))
    ids = ("rel.judge", "col.lang", "rel.ability", *(f"rel.{c}" for c in COUNTS.values()))
    ids += tuple(f"rel.{c}" for c in FIGURES.values())
    return model_table(
        sub,
        "relevance-abilities",
        "rel.abilities_title",
        columns(lg, *ids),
        rows,
        lg,
        "rel.abilities_note",
        filterable=False,
    )


def _caveats(sub: Entry, agreements: Sequence[RelevanceAgreement], lg: str) -> list[str]:
    """One line per judge and language where the kappa is low or unmeasured, and where only part
    of the eligible answers was judged."""
    lines = []
    for s in sub.relevance:
        name = esc(judge_name(s.display_name))
        for row in s.rows:
            if row.ability != ALL:
                continue
            lang = esc(ui(lg, f"lang.{row.lang}"))
            k = judge_kappa(agreements, s, row.lang)
            if k is None or k.kappa is None:
                lines.append(ui(lg, "rel.kappa_none", judge=name, lang=lang))
            elif k.kappa < LOW_KAPPA:
                lines.append(ui(lg, "rel.kappa_low", judge=name, lang=lang, kappa=f"{k.kappa:.2f}"))
            if row.judged + row.n_unparsable < row.eligible:
                lines.append(
                    ui(
                        lg,
                        "rel.partial" if s.sample is None else "rel.sampled",
                        lang=lang,
                        judged=row.judged + row.n_unparsable,
                        eligible=row.eligible,
                    )
                )
    return lines


def relevance_section(
    sub: Entry,
    agreements: Sequence[RelevanceAgreement],
    out: Output,
    prefix: str,
    lg: str,
    method_href: str,
) -> str:
    """The section: the figures and kappa first, the caveats, the per-ability figures and counts
    collapsed; one line when no relevance judge has judged this entry's answers."""
    head = f"\n## {ui(lg, 'rel.h')}\n"
    if not sub.relevance:
        return head + f"\n<p>{ui(lg, 'rel.none')}</p>\n"
    link = f'<a href="{esc(method_href)}">{esc(ui(lg, "faith.method_link"))}</a>'
    parts = [head, f"\n<p>{ui(lg, 'rel.intro', link=link)}</p>\n"]
    parts += [f"\n<p>{line}</p>\n" for line in _caveats(sub, agreements, lg)]
    parts.append(out.table(figures_table(sub, agreements, lg), prefix))
    summary = esc(ui(lg, "rel.details"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    parts.append(out.table(abilities_table(sub, lg), prefix).strip("\n"))
    parts.append("</details>\n")
    return "".join(parts)

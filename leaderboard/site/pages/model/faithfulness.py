"""The model page's statement-judge section, beside the grounding (code check) tables: per judge
and language, how many of the eligible statements were judged, the shares supported /
unsupported / contradicted, the answers with an unsupported statement (hallucination) or a
contradicted one (misrepresentation), and the judge's kappa against the hand labels (the
committed judges/faithfulness/agreement/<judge id>/agreement.json). A judge whose kappa is low,
or unmeasured, gets a one-line caveat; partial coverage is said in a few words; the counts are
one click away. Read from faithfulness_results.json (judge/faithfulness_figures.py)."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.load import Entry
from leaderboard.core.judge_schema import (
    FaithfulnessAgreement,
    FaithfulnessKappa,
    FaithfulnessRow,
    FaithfulnessSummary,
)
from leaderboard.site.pages.methodology.judge_agreement import kappa_cell
from leaderboard.site.pages.model.tables import model_table
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output, judge_name
from leaderboard.site.render.tables import Cell, Row, Table

# the shares shown, in order: of the judged statements, then of the judged answers
FIGURES = ("supported", "unsupported", "contradicted", "hallucination", "misrepresentation")
COUNTS = (
    "eligible_statements",
    "judged_statements",
    "n_unparsable",
    "n_unjudged",
    "eligible_answers",
    "judged_answers",
)
LOW_KAPPA = 0.4  # below it the judge's verdicts agree poorly with the labels


def judge_kappa(
    agreements: Sequence[FaithfulnessAgreement], summary: FaithfulnessSummary, lang: str
) -> FaithfulnessKappa | None:
    """The judge's kappa against the labels in a language (same judge id and fingerprint)."""
    for record in agreements:
        if (record.judge_id, record.judge_fingerprint) == (
            summary.judge_id,
            summary.judge_fingerprint,
        ):
            return next((k for k in record.agreement if k.lang == lang), None)
    return None


def _judged_cell(row: FaithfulnessRow, lg: str) -> Cell:
    text = ui(lg, "faith.judged_of", judged=row.judged_statements, eligible=row.eligible_statements)
    return Cell(
        {"judged": row.judged_statements, "eligible": row.eligible_statements},
        esc(text),
        row.judged_statements,
    )


def figures_table(sub: Entry, agreements: Sequence[FaithfulnessAgreement], lg: str) -> Table:
    """Per judge and language: the judge's kappa, statements judged of eligible, the shares."""
    rows = []
    for s in sub.faithfulness:
        for row in s.rows:
            shares = {x.figure: x for x in row.shares}
            cells = {
                "judge": Cell.text(judge_name(s.display_name)),
                "lang": Cell.text(ui(lg, f"lang.{row.lang}")),
                "kappa": kappa_cell(judge_kappa(agreements, s, row.lang), lg),
                "judged": _judged_cell(row, lg),
            }
            for figure in FIGURES:
                cells[figure] = Cell.score(shares.get(figure))  # type: ignore[arg-type]
            cells["answers"] = Cell.text(row.judged_answers, row.judged_answers)
            rows.append(Row(cells))
    ids = ("faith.judge", "col.lang", "faith.kappa", "faith.judged")
    ids += (*(f"faith.{f}" for f in FIGURES), "faith.answers")
    return model_table(
        sub,
        "faithfulness",
        "faith.title",
        columns(lg, *ids),
        rows,
        lg,
        "faith.note",
        filterable=False,
    )


def counts_table(sub: Entry, lg: str) -> Table:
    """The counts behind the shares: eligible, judged, unparsable and unjudged statements,
    eligible and judged answers, and each figure's count."""
    rows = []
    for s in sub.faithfulness:
        for row in s.rows:
            counts = {x.figure: x.count for x in row.shares}
            cells = {
                "judge": Cell.text(judge_name(s.display_name)),
                "lang": Cell.text(ui(lg, f"lang.{row.lang}")),
            }
            for name in COUNTS:
                value = getattr(row, name)
                cells[name] = Cell.text(value, value)
            for figure in FIGURES:
                cells[f"{figure}_n"] = Cell.text(counts.get(figure), counts.get(figure))
            rows.append(Row(cells))
    ids = ("faith.judge", "col.lang", *(f"faith.{c}" for c in COUNTS))
    ids += tuple(f"faith.count_{f}" for f in FIGURES)
    return model_table(
        sub,
        "faithfulness-counts",
        "faith.counts_title",
        columns(lg, *ids),
        rows,
        lg,
        "faith.counts_note",
        filterable=False,
    )


def _caveats(sub: Entry, agreements: Sequence[FaithfulnessAgreement], lg: str) -> list[str]:
    """One line per judge and language where the kappa is low or unmeasured, and where only
    part of the eligible statements was judged."""
    lines = []
    for s in sub.faithfulness:
        name = esc(judge_name(s.display_name))
        for row in s.rows:
            lang = esc(ui(lg, f"lang.{row.lang}"))
            k = judge_kappa(agreements, s, row.lang)
            if k is None or k.kappa is None:
                lines.append(ui(lg, "faith.kappa_none", judge=name, lang=lang))
            elif k.kappa < LOW_KAPPA:
                lines.append(
                    ui(lg, "faith.kappa_low", judge=name, lang=lang, kappa=f"{k.kappa:.2f}")
                )
            if row.judged_statements + row.n_unparsable < row.eligible_statements:
                lines.append(
                    ui(
                        lg,
                        "faith.partial" if s.sample is None else "faith.sampled",
                        lang=lang,
                        judged=row.judged_statements + row.n_unparsable,
                        eligible=row.eligible_statements,
                        answers=row.judged_answers,
                        eligible_answers=row.eligible_answers,
                    )
                )
    return lines


def faithfulness_section(
    sub: Entry,
    agreements: Sequence[FaithfulnessAgreement],
    out: Output,
    prefix: str,
    lg: str,
    method_href: str,
) -> str:
    """The section: the judge's figures and kappa first, the caveats, the counts collapsed; one
    line when no statement judge has judged this entry's answers."""
    head = f"\n## {ui(lg, 'faith.h')}\n"
    if not sub.faithfulness:
        return head + f"\n<p>{ui(lg, 'faith.none')}</p>\n"
    link = f'<a href="{esc(method_href)}">{esc(ui(lg, "faith.method_link"))}</a>'
    parts = [head, f"\n<p>{ui(lg, 'faith.intro', link=link)}</p>\n"]
    parts += [f"\n<p>{line}</p>\n" for line in _caveats(sub, agreements, lg)]
    parts.append(out.table(figures_table(sub, agreements, lg), prefix))
    summary = esc(ui(lg, "faith.details"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    parts.append(out.table(counts_table(sub, lg), prefix).strip("\n"))
    parts.append("</details>\n")
    return "".join(parts)

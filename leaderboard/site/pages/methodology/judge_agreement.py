"""The methodology page's judges-against-the-labels table: each committed
judges/agreement/<judge id>/agreement.json (`judge-agreement`, recomputed by `verify`), the judge's
Cohen's kappa against the human labels beside the strict and rgb scorers' on the same labelled
answers. A judge's Rej* and ED* are only as good as this kappa, so it is shown as measured,
however low, and the section says so in one line when no file is committed."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.core.judge_schema import FaithfulnessKappa, KappaEntry, LabelAgreement
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import decimal_ci_html, esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output, judge_name
from leaderboard.site.render.tables import Cell, Row, Table

TABLE_ID = "judge-label-agreement"
TASK_NAMES = {"rejection": "Rej*", "error_detection": "ED*"}  # the metric each prompt decides
RATERS = ("judge", "strict", "rgb")  # the judge, then the scorers beside it


def kappa_cell(entry: KappaEntry | FaithfulnessKappa | None, lg: str = DEFAULT) -> Cell:
    """Kappa with its 95% CI underneath; "undefined" when a rater gives one answer throughout.
    Exported with its bounds and n (a judge's or the statement judge's kappa)."""
    if entry is None:
        return Cell.text(None)
    exported = {
        "value": entry.kappa,
        "ci_low": entry.kappa_ci[0] if entry.kappa_ci else None,
        "ci_high": entry.kappa_ci[1] if entry.kappa_ci else None,
        "n": entry.n,
    }
    if entry.kappa is None:
        return Cell(exported, esc(ui(lg, "model.kappa_undefined")), -2.0)
    return Cell(exported, decimal_ci_html(entry.kappa, entry.kappa_ci, lg), round(entry.kappa, 6))


def _split(record: LabelAgreement, lg: str) -> str:
    """Which part of the labelled set was judged, and the sample size when --limit was used."""
    text = ui(lg, "sep.list").join(ui(lg, f"agree.judge_split_{s}") for s in record.splits)
    if record.limit is None:
        return text
    return ui(lg, "agree.judge_sample", split=text, n=record.limit)


def _rows(record: LabelAgreement, lg: str) -> list[Row]:
    found = {(e.rater, e.lang, e.task): e for e in record.agreement if e.against == "labels"}
    unparsable = {(r.lang, r.task): r.n_unparsable for r in record.rates}
    name = judge_name(record.display_name)
    rows = []
    for lang, task in sorted({(e.lang, e.task) for e in found.values()}, key=_order):
        scorer = found.get(("strict", lang, task)) or found.get(("rgb", lang, task))
        judge = found.get(("judge", lang, task))
        cells = {
            "judge": Cell.text(name),
            "split": Cell.text(_split(record, lg)),
            "lang": Cell.text(lang),
            "task": Cell.text(TASK_NAMES.get(task, task)),
            "n": Cell.text(scorer.n if scorer else None),
            "judged": Cell.text(judge.n if judge else 0),
            "unparsable": Cell.text(unparsable.get((lang, task), 0)),
        }
        cells |= {f"kappa_{r}": kappa_cell(found.get((r, lang, task)), lg) for r in RATERS}
        rows.append(Row(cells))
    return rows


def _order(key: tuple[str, str]) -> tuple[int, int]:
    lang, task = key
    return (("zh", "en").index(lang) if lang in ("zh", "en") else 2, list(TASK_NAMES).index(task))


def judge_agreement_table(records: Sequence[LabelAgreement], lg: str = DEFAULT) -> Table:
    """One table, a row per judge, language and task (judges by id)."""
    ids = ("judge", "split", "lang", "task", "n", "judged", "unparsable")
    ids += tuple(f"kappa_{r}" for r in RATERS)
    cols = columns(lg, *(f"agree.{i}" if i == "lang" else f"judgeagree.{i}" for i in ids))
    rows = [row for rec in sorted(records, key=lambda r: r.judge_id) for row in _rows(rec, lg)]
    return Table(
        id=TABLE_ID,
        title=ui(lg, "agree.judge_title"),
        columns=cols,
        rows=tuple(rows),
        note=ui(lg, "agree.judge_note"),
        ui=lg,
    )


def judge_agreement_section(
    records: Sequence[LabelAgreement], out: Output, lg: str = DEFAULT
) -> str:
    """The section of the methodology page: its text, then the table or the line saying that no
    agreement file is committed."""
    head = f"\n## {ui(lg, 'agree.judge_heading')}\n\n"
    if not records:
        return head + ui(lg, "agree.judge_none") + "\n"
    return head + ui(lg, "agree.judge_text") + out.table(judge_agreement_table(records, lg), "")

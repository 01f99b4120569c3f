"""The methodology page's section on the statement judge: what its three verdicts mean and its
limits, then each committed judges/faithfulness/agreement/<judge id>/agreement.json (`faithfulness
--labels`, recomputed by `verify`): per language, Cohen's kappa of "supported" against not
against the hand-labelled statements, the observed agreement and n, and the confusion counts one
click away. One line when no file is committed."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.core.judge_schema import FaithfulnessAgreement
from leaderboard.site.pages.methodology.judge_agreement import kappa_cell
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output, judge_name
from leaderboard.site.render.tables import Cell, Row, Table

TABLE_ID = "faithfulness-label-agreement"
CONFUSION_ID = "faithfulness-label-confusions"
LABELS = ("supported", "unsupported", "contradicted")
JUDGE_SIDE = (*LABELS, "unparsable", "unjudged")


def _split(record: FaithfulnessAgreement, lg: str) -> str:
    if record.split == "all":
        return ui(lg, "sep.list").join(ui(lg, f"agree.judge_split_{s}") for s in ("dev", "test"))
    return ui(lg, f"agree.judge_split_{record.split}")


def _order(lang: str) -> int:
    return ("zh", "en").index(lang) if lang in ("zh", "en") else 2


def agreement_table(records: Sequence[FaithfulnessAgreement], lg: str = DEFAULT) -> Table:
    """A row per judge and language: labelled, judged, unparsable, observed agreement, kappa."""
    rows = []
    for record in sorted(records, key=lambda r: r.judge_id):
        for k in sorted(record.agreement, key=lambda k: _order(k.lang)):
            observed = None if k.observed is None else round(k.observed, 2)
            rows.append(
                Row(
                    {
                        "judge": Cell.text(judge_name(record.display_name)),
                        "split": Cell.text(_split(record, lg)),
                        "lang": Cell.text(k.lang),
                        "n_labelled": Cell.text(k.n_labelled, k.n_labelled),
                        "n_stale": Cell.text(k.n_stale, k.n_stale),
                        "n": Cell.text(k.n, k.n),
                        "unparsable": Cell.text(k.n_unparsable, k.n_unparsable),
                        "observed": Cell(
                            k.observed,
                            esc("—" if observed is None else f"{observed:.2f}"),
                            observed,
                        ),
                        "kappa": kappa_cell(k, lg),
                    }
                )
            )
    ids = ("judge", "split", "lang", "n_labelled", "n_stale", "n", "unparsable", "observed")
    ids += ("kappa",)
    return Table(
        id=TABLE_ID,
        title=ui(lg, "faithagree.title"),
        columns=columns(lg, *(f"faithagree.{i}" for i in ids)),
        rows=tuple(rows),
        note=ui(lg, "faithagree.note"),
        ui=lg,
    )


def confusion_table(records: Sequence[FaithfulnessAgreement], lg: str = DEFAULT) -> Table:
    """The judge's verdict (rows) against the label (columns), per judge and language."""
    rows = []
    for record in sorted(records, key=lambda r: r.judge_id):
        for k in sorted(record.agreement, key=lambda k: _order(k.lang)):
            for verdict in JUDGE_SIDE:
                counts = [k.confusion.get(f"{verdict}/{label}", 0) for label in LABELS]
                if verdict in ("unparsable", "unjudged") and not any(counts):
                    continue
                cells = {
                    "judge": Cell.text(judge_name(record.display_name)),
                    "lang": Cell.text(k.lang),
                    "verdict": Cell.text(ui(lg, f"faith.verdict_{verdict}")),
                }
                cells |= {label: Cell.text(n, n) for label, n in zip(LABELS, counts, strict=True)}
                rows.append(Row(cells))
    ids = ("faithagree.judge", "faithagree.lang", "faithagree.verdict")
    ids += tuple(f"faithagree.label_{label}" for label in LABELS)
    return Table(
        id=CONFUSION_ID,
        title=ui(lg, "faithagree.confusion_title"),
        columns=columns(lg, *ids),
        rows=tuple(rows),
        note=ui(lg, "faithagree.confusion_note"),
        ui=lg,
    )


def faithfulness_agreement_section(
    records: Sequence[FaithfulnessAgreement], out: Output, lg: str = DEFAULT
) -> str:
    """The section: the verdicts and limits, then the tables or the line saying that no
    agreement file of the statement judge is committed."""
    parts = [f"\n## {ui(lg, 'faithagree.heading')}\n", f"\n{ui(lg, 'faithagree.text')}\n"]
    if not records:
        return "".join(parts) + f"\n{ui(lg, 'faithagree.none')}\n"
    parts.append(out.table(agreement_table(records, lg), ""))
    summary = esc(ui(lg, "faithagree.details"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    parts.append(out.table(confusion_table(records, lg), "").strip("\n"))
    parts.append("</details>\n")
    return "".join(parts)

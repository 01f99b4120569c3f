"""The methodology page's scorers-versus-labels table: both scoring modes against the labelled set
(leaderboard/scoring/labels/, held-out test split), computed at build time."""

from __future__ import annotations

from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.i18n import table as message_table
from leaderboard.site.render.page import Output
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.scorer_eval import evaluate

MEASURES = ("p", "r", "f1", "acc")  # render.columns agree.<measure>: column key <mode>_<measure>


def _detector(name: str, lg: str) -> str:
    """A detector's display name (agree.detector_<name>), or its code when the table lacks it."""
    key = "agree.detector_" + name.replace(" ", "_")
    return ui(lg, key) if key in message_table(DEFAULT) else name


def agreement_table(lg: str = DEFAULT) -> Table:
    """The scorers-versus-labels table (test split), rgb beside strict, labels in language `lg`.
    Language codes stay as they are; detector names are translated (the export keeps the code)."""
    rows = {(r["lang"], r["detector"], r["mode"]): r for r in evaluate("test")}
    cols = columns(lg, "agree.lang", "agree.detector", "plain.n")
    for mode in ("rgb", "strict"):
        cols += columns(lg, *(f"agree.{m}" for m in MEASURES), mode=mode)
    table_rows = []
    for lang, det, _ in sorted({k for k in rows if k[2] == "strict"}):
        cells = {
            "lang": Cell.text(lang),
            "detector": Cell(det, esc(_detector(det, lg))),
            "n": Cell.text(rows[(lang, det, "strict")]["n"]),
        }
        for mode in ("rgb", "strict"):
            r = rows[(lang, det, mode)]
            counted = det != "correctness"
            cells[f"{mode}_p"] = Cell.rate(r["precision"], r["precision_ci"])
            cells[f"{mode}_r"] = Cell.rate(r["recall"], r["recall_ci"])
            cells[f"{mode}_f1"] = Cell.rate(r["f1"])  # type: ignore[arg-type]
            cells[f"{mode}_acc"] = (
                Cell.rate(r["accuracy"], r["accuracy_ci"]) if not counted else Cell.text(None)
            )
        table_rows.append(Row(cells))
    return Table(
        id="scorer-agreement",
        title=ui(lg, "agree.title"),
        columns=cols,
        rows=tuple(table_rows),
        note=ui(lg, "agree.note"),
        ui=lg,
    )


def agreement_section(out: Output, lg: str = DEFAULT) -> str:
    """The section of the methodology page: its text and the table, computed at build time."""
    return "\n" + ui(lg, "agree.head") + out.table(agreement_table(lg), "")

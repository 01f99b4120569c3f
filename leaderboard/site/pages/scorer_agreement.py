"""The methodology page's scorers-versus-labels table: both scoring modes against the labelled set
(leaderboard/scoring/labels/, held-out test split), computed at build time."""

from __future__ import annotations

from leaderboard.site.render.page import Output
from leaderboard.site.render.tables import Cell, Column, Row, Table
from leaderboard.stats.scorer_eval import evaluate

AGREEMENT_HEAD = """
## How well the scorers agree with human labels

Each mode's detectors scored against the held-out **test** part of the labelled set
(`leaderboard/scoring/labels/`, labelling guide in `GUIDE.md`: real SmolLM2-135M answers and
written variants, each labelled by reading). Precision and recall of rejection and error detection,
accuracy of correctness (rgb: its answer check, without the "refusal counts as correct at noise
1.0" rule), each with a 95% Wilson interval. Recompute with `rgb-leaderboard scorers eval`.
"""


def agreement_section(out: Output) -> str:
    """The scorers-versus-labels table (test split), computed at build time, rgb beside strict."""
    rows = {(r["lang"], r["detector"], r["mode"]): r for r in evaluate("test")}
    columns = [Column("lang", "lang"), Column("detector", "detector"), Column("n", "n", True)]
    for mode in ("rgb", "strict"):
        columns += [
            Column(f"{mode}_p", f"{mode} precision", True),
            Column(f"{mode}_r", f"{mode} recall", True),
            Column(f"{mode}_f1", f"{mode} F1", True),
            Column(f"{mode}_acc", f"{mode} accuracy", True),
        ]
    table_rows = []
    for lang, det, _ in sorted({k for k in rows if k[2] == "strict"}):
        cells = {
            "lang": Cell.text(lang),
            "detector": Cell.text(det),
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
    table = Table(
        id="scorer-agreement",
        title="Scorers against human labels (test split)",
        columns=tuple(columns),
        rows=tuple(table_rows),
        note="Targets for strict: precision >= 95% and recall >= 90% for rejection and error "
        "detection, accuracy >= 97% for correctness.",
    )
    return AGREEMENT_HEAD + out.table(table, "")

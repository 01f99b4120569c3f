"""Print the trivial-baseline table (issue 11) from the committed results files, as Markdown.

    python scripts/baseline_table.py [--lang zh] [submissions/baseline-* submissions/other ...]

Rows: every submission given (default: submissions/baseline-* and the measured entries); columns:
the reference (rgb) overall, the strict overall and the four strict ability scores, in %, each
with its 95% interval and n (questions) as results.json records them: "34.8 [32.6, 37.0] n=500".
"—" marks a missing score, with its reason in the last column.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from leaderboard.board.ranking import score_entry
from leaderboard.core.files import read_results
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.types import ABILITIES

REPO = Path(__file__).resolve().parents[1]
COLUMNS = [("rgb", "overall"), ("strict", "overall")] + [("strict", a) for a in ABILITIES]


def score_text(entry: ScoreEntry) -> str:
    """A score as the board states it: value, interval and n, so a reader of the table can tell
    a baseline's floor from a model's score without opening results.json."""
    text = f"{100 * entry.value:.1f}" if entry.value is not None else "—"
    if entry.ci is not None:
        text += f" [{100 * entry.ci[0]:.1f}, {100 * entry.ci[1]:.1f}]"
    return f"{text} n={entry.n_questions}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--lang", default="zh", choices=["zh", "en"])
    args = parser.parse_args()
    folders = args.folders or sorted(
        p.parent for p in (REPO / "submissions").glob("*/results.json")
    )
    head = ["entry"] + [f"{m} {a}" for m, a in COLUMNS] + ["why missing"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for folder in folders:
        res = read_results(folder / "results.json")
        cells, why = [], []
        for mode, ability in COLUMNS:
            e = score_entry(res, args.lang, ability, mode)
            if e is None or e.value is None:
                cells.append("—")
                if e is not None and e.note:
                    why.append(f"{mode} {ability}: {e.note}")
            else:
                cells.append(score_text(e))
        print(f"| {res.display_name} | " + " | ".join(cells) + f" | {'; '.join(why)} |")


if __name__ == "__main__":
    main()

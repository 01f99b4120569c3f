"""Write a blind labelling sheet of audit items (issue 59): what an annotator reads, nothing more.

Each item is shown with a sheet number only (S001, S002, ...): the language, the RGB split, the
question, the gold answer (alternatives joined by " | "), the fake answer, the passages and the
answer to label. No entry name, no key, no label, no note, no split and no verdict of either
scoring mode: the annotator reads labels/GUIDE.md and the sheet, and returns one code per sheet
number (c, r, e, k or empty, as GUIDE.md's labels). The sheet-number -> item-id map goes to a
second file the annotator is not given.

    python scripts/labels/audit_sheet.py --ids IDS.txt --sheet SHEET.md --map MAP.json
        IDS.txt: one audit item id per line (as in labels/audit/<lang>.jsonl, or a
        round-4 item of audit_sample.json written by build_audit.py)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

LABELS = Path(__file__).resolve().parents[2] / "leaderboard" / "scoring" / "labels" / "audit"
_SPLIT = {
    "rejection": "rejection (every passage is noise)",
    "noise": "noise robustness",
    "integration": "information integration (several answer elements)",
    "counterfactual": "counterfactual robustness (passages altered to a fake answer)",
}


def _gold(answer: list) -> str:
    parts = [" | ".join(a) if isinstance(a, list) else a for a in answer]
    return " ; ".join(f"[{p}]" for p in parts)


def item_text(n: int, item: dict) -> str:
    """One item of the sheet, in Markdown."""
    split = _SPLIT.get(item["ability"], f"{item['ability']} (a probe)")
    lines = [
        f"## S{n:03d}",
        f"- language: {item['lang']}; split: {split}",
        f"- question: {item['question']}",
        "- gold answer (every [element] needed; `|` separates alternatives): "
        + _gold(item["answer"]),
    ]
    if item.get("fakeanswer"):
        lines.append(f"- fake answer: {item['fakeanswer']}")
    lines.append("- passages the model saw:")
    for i, doc in enumerate(item.get("docs") or [], start=1):
        lines.append(f"  {i}. {doc}")
    lines += ["- answer to label:", "", "```text", item["prediction"], "```", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ids", type=Path, required=True)
    ap.add_argument("--sheet", type=Path, required=True)
    ap.add_argument("--map", type=Path, required=True)
    ap.add_argument("--items", type=Path, nargs="*", default=None, help="jsonl files to read")
    args = ap.parse_args()
    files = args.items or [LABELS / "zh.jsonl", LABELS / "en.jsonl"]
    by_id = {}
    for f in files:
        for raw in f.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                item = json.loads(raw)
                by_id[item["id"]] = item
    ids = [i.strip() for i in args.ids.read_text(encoding="utf-8").splitlines() if i.strip()]
    header = (
        "# Labelling sheet\n\nRead labels/GUIDE.md first. Label each answer as it says and reply "
        "with one line per item: `S001<TAB>code<TAB>why in a few words`. The code is made of the "
        "letters that apply: c (correct), r (rejected), e (error detected), k (corrected: error "
        "detected and correct, so written `cek`); empty for none of them.\n\n"
    )
    body = [item_text(n, by_id[i]) for n, i in enumerate(ids, start=1)]
    args.sheet.write_text(header + "\n".join(body), encoding="utf-8")
    mapping = {f"S{n:03d}": i for n, i in enumerate(ids, start=1)}
    args.map.write_text(json.dumps(mapping, indent=1) + "\n", encoding="utf-8")
    print(f"{args.sheet}: {len(ids)} items; map {args.map}")


if __name__ == "__main__":
    main()

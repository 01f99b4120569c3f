"""Build leaderboard/scoring/labels/audit/{zh,en}.jsonl: the hand-labelled strict-vs-rgb audit sets.

Two sets of committed answers of the three ranked measured models (issue 59), frozen by key in
audit_sample.json (dump_audit.py) and labelled by reading in audit_labels.py:
- `disagree`: every answer where rgb and strict differed when the sets were drawn (ids
  `<lang>-dis-<entry>/<key>`);
- `agree`: a seeded sample of answers where they agreed (ids `<lang>-agr-<entry>/<key>`);
- `disagree_instructions` (round 2): the instruction track's answers where they differed (ids
  `<lang>-dis-<entry>/instructions/<id>/<key>`, part of the disagreement set);
- `disagree_probes` (round 3): the probe answers where they differed (ids
  `<lang>-dis-<entry>/<key>`, part of the disagreement set once DISAGREE_PROBES labels them;
  while it is empty, none).
- `disagree_more` (round 4), `disagree_round5` (round 5), `disagree_round6` to `disagree_round9`
  (rounds 6-9): answers committed after round 3 where they differed (later instruction runs, the
  RAG systems, the widened probes), read twice blind from the start.
`split` is `test` (held out: never looked at while a rule is tuned) for a fixed 30% of the
questions, by a SHA-256 hash of `rgb-strict-audit-v1:<lang>/<data file>/<id>`, so every answer to
one question (every model, every noise rate, every probe) falls on the same side.

Run from the repository root with the data fetched: python scripts/labels/build_audit.py
A round not labelled yet is written unlabelled for its blind sheets (audit_sheet.py --items):
python scripts/labels/build_audit.py --draft disagree_round6 DRAFT.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import audit_labels
import audit_second
from build import _FILE_OF, first, labels
from common import LABELS, raw_answer

from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import load_entry

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = Path(__file__).parent / "audit_sample.json"
SPLIT_SEED = "rgb-strict-audit-v1"
TEST_SHARE = 0.30
OUT = LABELS / "audit"


def split_of(group: str) -> str:
    h = hashlib.sha256(f"{SPLIT_SEED}:{group}".encode()).digest()
    return "test" if int.from_bytes(h[:8], "big") / 2**64 < TEST_SHARE else "dev"


def items(
    which: str,
    table: dict[str, tuple[str, str]] | None,
    tag: str,
    pending: bool = False,
) -> list[dict]:
    """The labelled items of one set of audit_sample.json (every key must be labelled);
    `pending`: an empty table means the labels have not come back yet, and the set adds nothing;
    `table` None: the items unlabelled (labels and note empty), for the blind sheets."""
    if pending and table == {}:
        return []
    keys = json.loads(SAMPLE.read_text(encoding="utf-8"))[which]
    entries: dict = {}
    cache: dict = {}
    out = []
    for full in keys:
        model, key = full.split("/", 1)
        run = ""
        if key.startswith("instructions/"):  # round 2: <entry>/instructions/<id>/<key>
            _, instruction, key = key.split("/", 2)
            run = f"instructions/{instruction}"
        if (model, run) not in entries:
            entry = load_entry(ROOT / "submissions" / model)
            runs = {f"instructions/{r.instruction}": r.predictions for r in entry.instructions}
            predictions = runs[run] if run else entry.predictions
            entries[(model, run)] = ({r.key: r for r in predictions}, entry_build(entry))
        by_key, (passage_num, system) = entries[(model, run)]
        record = by_key[key]
        inst = entry_instances(ROOT, [record], cache, passage_num=passage_num, system=system)[key]
        item_id = f"{inst.lang}-{tag}-{full}"
        code, note = ("", "") if table is None else table[full]
        if tag == "dis" and table is not None:
            code, note = settle(item_id, full, code, note)
        group = f"{inst.lang}/{_FILE_OF[inst.ability]}/{inst.id}"
        out.append(
            {
                "id": item_id,
                "lang": inst.lang,
                "ability": inst.ability,
                "question": inst.query,
                "answer": raw_answer(inst),
                "fakeanswer": first(inst.fakeanswer[0]) if inst.fakeanswer else None,
                "docs": list(inst.docs),
                "prediction": record.prediction,
                "labels": labels(code) if table is not None else None,
                "split": split_of(group),
                "source": "committed",
                "note": note,
            }
        )
    return out


SETTLED: list[dict] = []  # annotations.jsonl, filled by settle()


def settle(item_id: str, full: str, first_code: str, first_note: str) -> tuple[str, str]:
    """The label of a disagreement-set answer and its note: the two blind annotators' code where
    they agree (with the first's note), else the third's code and note (audit_second.ADJUDICATED),
    so a label file never carries a note that argues for another code; the readings go to
    annotations.jsonl."""
    second_code, note_second = audit_second.SECOND[full]
    first, second = labels(first_code), labels(second_code)
    adjudicated = first != second
    code, note = audit_second.ADJUDICATED[full] if adjudicated else (first_code, first_note)
    SETTLED.append(
        {
            "id": item_id,
            "first": first,
            "second": second,
            "settled": labels(code),
            "adjudicated": adjudicated,
            "note_second": note_second,
            "note_adjudicated": note if adjudicated else "",
        }
    )
    return code, note


def draft(which: str, out: Path) -> None:
    """Write one round's items unlabelled to `out` (jsonl), the input of its blind sheets."""
    found = items(which, None, "dis")
    with out.open("w", encoding="utf-8") as fh:
        for it in found:
            fh.write(json.dumps(it, ensure_ascii=False) + "\n")
    print(f"{out}: {len(found)} unlabelled items of {which}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draft", nargs=2, metavar=("ROUND", "OUT"), default=None)
    args = ap.parse_args()
    if args.draft:
        draft(args.draft[0], Path(args.draft[1]))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    found = (
        items("disagree", audit_labels.DISAGREE, "dis")
        + items("disagree_instructions", audit_labels.DISAGREE_INSTRUCTIONS, "dis")
        + items("disagree_probes", audit_labels.DISAGREE_PROBES, "dis", pending=True)
        + items("disagree_more", audit_labels.DISAGREE_MORE, "dis", pending=True)
        + items("disagree_round5", audit_labels.DISAGREE_ROUND5, "dis", pending=True)
        + items("disagree_round6", audit_labels.DISAGREE_ROUND6, "dis", pending=True)
        + items("disagree_round7", audit_labels.DISAGREE_ROUND7, "dis", pending=True)
        + items("disagree_round8", audit_labels.DISAGREE_ROUND8, "dis", pending=True)
        + items("disagree_round9", audit_labels.DISAGREE_ROUND9, "dis", pending=True)
        + items("agree", audit_labels.AGREE, "agr")
    )
    with (OUT / "annotations.jsonl").open("w", encoding="utf-8") as fh:
        for row in SETTLED:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    settled = sum(r["adjudicated"] for r in SETTLED)
    print(f"{OUT / 'annotations.jsonl'}: {len(SETTLED)} answers read twice, {settled} settled")
    for lang in ("zh", "en"):
        mine = [i for i in found if i["lang"] == lang]
        path = OUT / f"{lang}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for it in mine:
                fh.write(json.dumps(it, ensure_ascii=False) + "\n")
        for tag in ("dis", "agr"):
            part = [i for i in mine if f"-{tag}-" in i["id"]]
            test = sum(i["split"] == "test" for i in part)
            print(f"{path}: {tag} {len(part)} items, held out (test) {test}")


if __name__ == "__main__":
    main()

"""Draw the conflict track's labelling sample: committed (or in-progress) conflict answers, per
language stratified by condition, each assigned to `dev` or `test` (held out) BEFORE labelling,
written without any label or classifier output (labels are added by reading; GUIDE_conflicts.md).

    python scripts/labels/conflict_sample.py RUN_ROOT --per-lang 120 --out DIR [--entries A,B]

RUN_ROOT: a checkout whose submissions/*/conflicts/*/ hold answers (the data fetched there).
--entries: draw only from these entries (a later round adds other models' answers to the set);
answers whose id is already in the packaged labelled set are never drawn again.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from leaderboard.core.files import read_prediction_files
from leaderboard.protocol.conflicts import condition_ids
from leaderboard.run.plan import conflict_instances
from leaderboard.scoring.conflict_labelled import conflict_labels

SEED = 2333
TEST_SHARE = 0.4


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root", type=Path)
    ap.add_argument("--per-lang", type=int, default=120)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--entries", default="", help="entry ids, comma-separated (default: all)")
    args = ap.parse_args()
    entries = {e for e in args.entries.split(",") if e}
    rng = random.Random(SEED)
    for lang in ("zh", "en"):
        _, instances, _ = conflict_instances(args.root, lang, condition_ids())
        by_key = {i.key: i for i in instances}
        labelled = {item.id for item in conflict_labels(lang)}
        pool = []
        for folder in sorted(args.root.glob("submissions/*/conflicts/*")):
            entry = folder.parent.parent.name
            if entry.startswith(("baseline-", "system-")) or (entries and entry not in entries):
                continue
            files = [
                p
                for p in (folder / "predictions.jsonl", folder / "predictions.jsonl.gz")
                if p.is_file()
            ]
            for rec in read_prediction_files(files).records if files else []:
                new = f"{entry}/{folder.name}/{rec.key}" not in labelled
                if new and rec.lang == lang and rec.key in by_key and rec.error is None:
                    pool.append((entry, folder.name, rec))
        pool.sort(key=lambda t: (t[0], t[1], t[2].key))
        by_cond: dict[str, list] = {}
        for item in pool:
            by_cond.setdefault(item[2].condition, []).append(item)
        chosen = []
        per = max(1, args.per_lang // max(1, len(by_cond)))
        for cond in sorted(by_cond):
            chosen += rng.sample(by_cond[cond], min(per, len(by_cond[cond])))
        rng.shuffle(chosen)
        args.out.mkdir(parents=True, exist_ok=True)
        with (args.out / f"conflict_{lang}.jsonl").open("w", encoding="utf-8") as fh:
            for entry, instruction, rec in chosen:
                inst = by_key[rec.key]
                line = {
                    "id": f"{entry}/{instruction}/{rec.key}",
                    "lang": lang,
                    "condition": rec.condition,
                    "question": inst.query,
                    "answer": [list(a) if isinstance(a, tuple) else a for a in inst.answer],
                    "fakeanswer": [list(a) if isinstance(a, tuple) else a for a in inst.fakeanswer],
                    "docs": [
                        {"role": r, "text": d} for r, d in zip(inst.roles, inst.docs, strict=True)
                    ],
                    "prediction": rec.prediction,
                    "split": "test" if rng.random() < TEST_SHARE else "dev",
                    "label": None,
                    "with_true": None,
                    "note": "",
                }
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(lang, len(chosen), "from", len(pool))


if __name__ == "__main__":
    main()

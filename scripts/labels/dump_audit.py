"""The answers of the strict-vs-rgb audit to label by hand (issue 59), frozen by key.

Every committed answer of the three ranked measured models where `rgb` and `strict` differ (the
disagreement set), and a seeded sample of 30 answers per model and language where they agree on
every judgement (the agreement sample). Written once, before any rule changed, to
scripts/labels/audit_sample.json; build_audit.py reads that file, so the sets stay the same when the
rules (and so the disagreements) change.

Run from the repository root with the data fetched: python scripts/labels/dump_audit.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from leaderboard.board.disagreements import answer_disagreements, entry_instances
from leaderboard.board.load import load_entry
from leaderboard.core.types import ABILITIES

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("smollm2-135m-instruct", "qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct")
SAMPLE_SEED = "rgb-strict-audit-sample-v1"
PER_CELL = 30
OUT = Path(__file__).parent / "audit_sample.json"


def collect() -> dict[str, list[str]]:
    """{"disagree": [entry/key...], "agree": [entry/key...]} in a stable order."""
    disagree, agree = [], []
    cache: dict = {}
    for model in MODELS:
        entry = load_entry(ROOT / "submissions" / model)
        records = [r for r in entry.predictions if r.ability in ABILITIES]
        instances = entry_instances(ROOT, records, cache)
        pool: dict[str, list[str]] = {"zh": [], "en": []}
        for r in records:
            inst = instances.get(r.key)
            if inst is None or r.error is not None:
                continue
            if answer_disagreements(model, r, inst):
                disagree.append(f"{model}/{r.key}")
            else:
                pool[r.lang].append(f"{model}/{r.key}")
        for lang in ("zh", "en"):
            rng = random.Random(f"{SAMPLE_SEED}:{model}:{lang}")
            agree += sorted(rng.sample(pool[lang], min(PER_CELL, len(pool[lang]))))
    return {"disagree": disagree, "agree": agree}


def main() -> None:
    found = collect()
    OUT.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(found['disagree'])} disagreements, {len(found['agree'])} agreements")


if __name__ == "__main__":
    main()

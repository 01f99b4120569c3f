"""Draw the grounding check's labelling sample (issue 61): committed answers of the three measured
models under RGB's instruction, per model and language stratified by ability, each assigned to
`dev` or `test` (held out) BEFORE labelling, written without anything the check says (labels are
added by reading; leaderboard/scoring/labels/GUIDE_grounding.md).

    python scripts/labels/grounding_sample.py --per-cell 40 --out DIR

Run from a checkout with the data fetched. Quotas per model and language: rejection 14, noise 10,
integration 8, counterfactual 8 (an ability the language lacks gives its quota to noise); answers
that failed to generate are never drawn.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

from leaderboard.data.manifest import data_root
from leaderboard.trust.verify import scored_answers

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("smollm2-135m-instruct", "qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct")
SEED = "rgb-grounding-labels-v1"
QUOTA = {"rejection": 14, "noise": 10, "integration": 8, "counterfactual": 8}


def split_of(label_id: str) -> str:
    """Every third answer (by hash of its id) `dev`, the rest held out: fixed before labelling."""
    return "dev" if int(hashlib.sha256(label_id.encode()).hexdigest(), 16) % 3 == 0 else "test"


def _plain(answer) -> list:
    return [list(a) if isinstance(a, tuple) else a for a in answer]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-cell", type=int, default=40, help="answers per model and language")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    scale = args.per_cell / sum(QUOTA.values())
    root = data_root(None)
    lines: dict[str, list[dict]] = {"zh": [], "en": []}
    for model in MODELS:
        items = [it for it in scored_answers(ROOT / "submissions" / model, root) if not it.error]
        for lang in ("zh", "en"):
            rng = random.Random(f"{SEED}:{model}:{lang}")
            pools = {
                ab: sorted(
                    (it for it in items if it.instance.lang == lang and it.instance.ability == ab),
                    key=lambda it: it.instance.key,
                )
                for ab in QUOTA
            }
            quota = {ab: round(q * scale) for ab, q in QUOTA.items()}
            for ab in QUOTA:
                if not pools[ab] and ab != "noise":
                    quota["noise"] += quota.pop(ab)
            for ab, n in quota.items():
                for it in rng.sample(pools[ab], min(n, len(pools[ab]))):
                    inst = it.instance
                    label_id = f"{model}/{inst.key}"
                    lines[lang].append(
                        {
                            "id": label_id,
                            "lang": lang,
                            "ability": inst.ability,
                            "question": inst.query,
                            "answer": _plain(inst.answer),
                            "fakeanswer": _plain(inst.fakeanswer),
                            "docs": list(inst.docs),
                            "prediction": it.prediction,
                            "split": split_of(label_id),
                            "category": None,
                            "passages": [],
                            "relevant": None,
                            "note": "",
                        }
                    )
    args.out.mkdir(parents=True, exist_ok=True)
    for lang, found in lines.items():
        random.Random(f"{SEED}:order:{lang}").shuffle(found)
        with (args.out / f"grounding_{lang}.jsonl").open("w", encoding="utf-8") as fh:
            for line in found:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(lang, len(found), {s: sum(x["split"] == s for x in found) for s in ("dev", "test")})


if __name__ == "__main__":
    main()

"""Print a seeded, stratified sample of SmolLM2 predictions for labelling by reading."""

from __future__ import annotations

import random
import sys

from common import instance, smollm2_predictions

QUOTA = {
    "zh": {"noise": 75, "rejection": 35, "integration": 35, "counterfactual": 35},
    "en": {"noise": 80, "rejection": 40, "counterfactual": 60},
}


def sample(lang: str) -> list[dict]:
    rng = random.Random(f"smollm2-{lang}")
    preds = [p for p in smollm2_predictions() if p["lang"] == lang and p["error"] is None]
    out = []
    for ability, n in QUOTA[lang].items():
        pool = [p for p in preds if p["ability"] == ability]
        out += rng.sample(pool, min(n, len(pool)))
    return out


if __name__ == "__main__":
    lang = sys.argv[1]
    for i, p in enumerate(sample(lang)):
        inst = instance(lang, p["ability"], p["noise_rate"], p["id"])
        print(f"#{i} {p['key']} Q: {inst.query}")
        print(f"   GOLD: {list(inst.answer)}  FAKE: {list(inst.fakeanswer)}")
        print(f"   PRED: {p['prediction']!r}")

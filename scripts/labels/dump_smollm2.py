"""Print a seeded, stratified sample of SmolLM2 predictions for labelling by reading."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from common import instance, smollm2_predictions

# The sample the labels in smollm2_labels.py were read from, frozen by key: the seeded draw below
# depends on which predictions exist, and the committed entry grows when its run is resumed.
FROZEN = Path(__file__).with_name("smollm2_sample.json")

QUOTA = {
    "zh": {"noise": 75, "rejection": 35, "integration": 35, "counterfactual": 35},
    "en": {"noise": 80, "rejection": 40, "counterfactual": 60},
}


def sample(lang: str) -> list[dict]:
    """The labelled sample: the frozen keys when the file exists, else a fresh seeded draw."""
    if FROZEN.is_file():
        keys = json.loads(FROZEN.read_text(encoding="utf-8"))[lang]
        by_key = {p["key"]: p for p in smollm2_predictions() if p["lang"] == lang}
        return [by_key[k] for k in keys]
    return draw(lang)


def draw(lang: str) -> list[dict]:
    """A seeded, stratified draw from the predictions on disk (how the frozen sample was made)."""
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

"""Shared helpers for building the scorer labelled set (leaderboard/scoring/labels/*.jsonl).

Not part of the package: run from the repository root with the RGB data fetched.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from leaderboard.data.splits import load_split
from leaderboard.protocol.instances import build_instance

ROOT = Path(__file__).resolve().parents[2]
PREDICTIONS = ROOT / "submissions/smollm2-135m-instruct/predictions.jsonl.gz"
LABELS = ROOT / "leaderboard/scoring/labels"
SPLIT_SEED = "rgb-scorer-labels-v1"
TEST_SHARE = 0.45


def split_of(group: str) -> str:
    """dev/test from a seeded hash of the item's group (its id without the variant suffix)."""
    h = hashlib.sha256(f"{SPLIT_SEED}:{group}".encode()).digest()
    return "test" if int.from_bytes(h[:8], "big") / 2**64 < TEST_SHARE else "dev"


_RECORDS: dict = {}


def record(lang: str, ability: str, rid: int):
    key = (lang, ability)
    if key not in _RECORDS:
        _, recs = load_split(ROOT, lang, ability, allow_partial=True)
        _RECORDS[key] = {r.id: r for r in recs}
    return _RECORDS[key][rid]


def instance(lang: str, ability: str, rate: float, rid: int):
    return build_instance(record(lang, ability, rid), lang, ability, rate)


def raw_answer(rec) -> object:
    return [list(a) if isinstance(a, tuple) else a for a in rec.answer]


def smollm2_predictions() -> list[dict]:
    with gzip.open(PREDICTIONS, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]

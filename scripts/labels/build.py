"""Build leaderboard/scoring/labels/{zh,en}.jsonl from the SmolLM2 labels and the written variants.

Run from the repository root with the data fetched: python scripts/labels/build.py
The split (dev/test) is a seeded hash of each item's group, fixed before any scorer change.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import smollm2_labels
import written_dev2
import written_dev3
import written_en
import written_hedge
import written_zh
from common import (
    LABELS,
    ROOT,
    instance,
    load_split,
    raw_answer,
    smollm2_predictions,
    split_of,
)
from dump_smollm2 import sample

from leaderboard.backends.policies import candidates
from leaderboard.core.types import TestInstance

_FILE_OF = {
    "noise": "refine",
    "rejection": "refine",
    "integration": "int",
    "counterfactual": "fact",
    # the probes ask the questions of the noise file (closedbook_fact: the counterfactual file's),
    # so a probe answer shares its question's group, and split, with the RGB answers to it
    "chain": "refine",
    "replacement": "refine",
    "closedbook": "refine",
    "closedbook_fact": "fact",
}
_RATE = {"noise": 0.0, "rejection": 1.0, "integration": 0.0, "counterfactual": 0.0}


def labels(code: str) -> dict[str, bool]:
    return {
        "correct": "c" in code,
        "rejected": "r" in code,
        "error_detected": "e" in code,
        "corrected": "k" in code,
    }


def first(el) -> str:
    return el if isinstance(el, str) else el[0]


def render_answer(answer, lang: str) -> str:
    parts = [first(e) for e in answer]
    if lang == "zh":
        return "、".join(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _sentences(docs, lang: str) -> list[str]:
    out = []
    for d in docs:
        if lang == "zh":
            out += [s + "。" for s in re.split(r"[。！？\n]", d) if s.strip()]
        else:
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", d) if s.strip()]
    return out


def answer_sentence(inst, lang: str) -> str | None:
    alts = inst.answer[0]
    alts = (alts,) if isinstance(alts, str) else alts
    limit = 80 if lang == "zh" else 200
    found = [
        s
        for s in _sentences(inst.docs, lang)
        if len(s) <= limit and any(a.lower() in s.lower() for a in alts)
    ]
    return min(found, key=len) if found else None


def entities(inst, lang: str, rng: random.Random) -> str:
    text = "\n".join(inst.docs)
    if lang == "zh":
        found = re.findall(r"\d+(?:\.\d+)?(?:万|亿)?[年月日人元%个次名]?|《[^》]{1,12}》", text)
    else:
        found = re.findall(r"\$?\d[\d,.]*(?: (?:million|billion))?|(?:[A-Z][a-z]+ ?){1,3}", text)
    seen: list[str] = []
    for f in (x.strip() for x in found):
        if f and f not in seen:
            seen.append(f)
    pick = [*seen[:24], render_answer(inst.answer, lang)]
    rng.shuffle(pick)
    return ("、" if lang == "zh" else ", ").join(pick)


def options(inst, lang: str, k: int = 2) -> list[str] | None:
    """The k most frequent candidate spans of the passages of the gold's type (a number for a
    number, else a name), none overlapping a gold alternative: the other options of a hedge."""
    alts = [a.lower() for el in inst.answer for a in ((el,) if isinstance(el, str) else el)]
    numeric = any(c.isdigit() for c in alts[0])
    text = "\n".join(inst.docs)
    limit = 12 if lang == "zh" else 40
    found = [
        c
        for c in candidates(inst.docs, lang)
        if len(c) <= limit
        and any(ch.isdigit() for ch in c) == numeric
        and not any(c.lower() in a or a in c.lower() for a in alts)
    ]
    found.sort(key=lambda c: -text.count(c))  # stable: ties keep the order of appearance
    return found[:k] if len(found) >= k else None


def item(lang, group, k, ability, inst, prediction, code, source, note, with_docs, split=None):
    iid = f"{group}#{k}" if k is not None else group
    return {
        "id": iid,
        "lang": lang,
        "ability": ability,
        "question": inst.query,
        "answer": raw_answer(inst),
        "fakeanswer": first(inst.fakeanswer[0]) if inst.fakeanswer else None,
        "docs": list(inst.docs) if with_docs else None,
        "prediction": prediction,
        "labels": labels(code),
        "split": split or split_of(group),
        "source": source,
        "note": note,
    }


def smollm2_items(lang: str) -> list[dict]:
    table = smollm2_labels.ZH if lang == "zh" else smollm2_labels.EN
    out = []
    for i, p in enumerate(sample(lang)):
        inst = instance(lang, p["ability"], p["noise_rate"], p["id"])
        code, note = table.get(i, ("", ""))
        group = f"{lang}-smollm2-{_FILE_OF[p['ability']]}/{p['id']}"
        it = item(
            lang, group, None, p["ability"], inst, p["prediction"], code, "smollm2", note, True
        )
        it["id"] = f"{lang}-smollm2-{p['key']}"
        out.append(it)
    return out


def _records(lang, ability):
    try:
        _, recs = load_split(ROOT, lang, ability, allow_partial=True)
    except Exception:
        return []
    return list(recs)


def written_items(lang: str) -> list[dict]:
    mod = written_zh if lang == "zh" else written_en
    out = template_items(lang, mod.TEMPLATES, "w")
    for name, ability, rid, code, pred, note in mod.SPECIFIC:
        inst = instance(lang, ability, _RATE[ability], rid)
        out.append(
            item(lang, f"{lang}-s-{name}", None, ability, inst, pred, code, "written", note, False)
        )
    # the second batch is development data by construction (written_dev2.py says why)
    dev2 = written_dev2.ZH if lang == "zh" else written_dev2.EN
    dev3 = written_dev3.ZH if lang == "zh" else written_dev3.EN
    out += template_items(lang, dev2, "d2", split="dev")
    out += template_items(lang, dev3, "d3", split="dev")
    return out + hedge_items(lang)


def hedge_items(lang: str) -> list[dict]:
    """The hedge batch (written_hedge.py): templates, hand-made instances and SmolLM2 outputs;
    split by the hash of each group, so it has a held-out part."""
    zh = lang == "zh"
    out = template_items(lang, written_hedge.ZH if zh else written_hedge.EN, "h")
    for name, ability, question, answer, fake, code, pred, note in (
        written_hedge.HAND_ZH if zh else written_hedge.HAND_EN
    ):
        inst = TestInstance(
            lang,
            ability,
            _RATE[ability],
            0,
            question,
            tuple(tuple(a) if isinstance(a, list) else a for a in answer),
            (),
            (fake,) if fake else (),
        )
        out.append(
            item(lang, f"{lang}-h-{name}", None, ability, inst, pred, code, "written", note, False)
        )
    by_key = {p["key"]: p for p in smollm2_predictions() if p["lang"] == lang}
    for key, code, note in written_hedge.SMOLLM2_ZH if zh else written_hedge.SMOLLM2_EN:
        p = by_key[key]
        inst = instance(lang, p["ability"], p["noise_rate"], p["id"])
        group = f"{lang}-h-smollm2-{_FILE_OF[p['ability']]}/{p['id']}"
        it = item(
            lang, group, None, p["ability"], inst, p["prediction"], code, "smollm2", note, True
        )
        it["id"] = f"{lang}-h-smollm2-{key}"
        out.append(it)
    return out


def template_items(lang: str, templates, prefix: str, split: str | None = None) -> list[dict]:
    out = []
    for name, ability, code, text, n, note in templates:
        recs = _records(lang, "noise" if ability == "rejection" else ability)
        if not recs:
            continue
        rng = random.Random(f"{lang}:{name}")
        order = rng.sample(recs, len(recs))
        group = f"{lang}-{prefix}-{name}"
        k = 0
        for rec in order:
            if k >= n:
                break
            if "{a1}" in text and len(rec.answer) < 2:
                continue
            if "{f}" in text and not rec.fakeanswer:
                continue
            inst = instance(lang, ability, _RATE[ability], rec.id)
            gold = render_answer(inst.answer, lang)
            other = rng.choice([r for r in recs if r.id != rec.id])
            wrong = render_answer(other.answer, lang)
            if gold.lower() in wrong.lower() or wrong.lower() in gold.lower():
                continue
            s = answer_sentence(inst, lang) if "{S}" in text else ""
            if s is None:
                continue
            opts = options(inst, lang) if "{o1}" in text else ["", ""]
            if opts is None:
                continue
            d1 = inst.docs[0] if inst.docs else ""
            pred = text.format(
                a=gold,
                a1=first(inst.answer[0]),
                f=first(inst.fakeanswer[0]) if inst.fakeanswer else "",
                w=wrong,
                q=inst.query.rstrip("？? "),
                P="\n".join(inst.docs),
                D1=d1,
                D1_200=d1[:200],
                D1_80=d1[:80],
                S=s,
                ents=entities(inst, lang, rng) if "{ents}" in text else "",
                o1=opts[0],
                o2=opts[1],
            )
            with_docs = any(x in text for x in ("{P}", "{D1", "{S}", "{ents}"))
            out.append(
                item(lang, group, k, ability, inst, pred, code, "written", note, with_docs, split)
            )
            k += 1
    return out


def main() -> None:
    LABELS.mkdir(parents=True, exist_ok=True)
    for lang in ("zh", "en"):
        items = smollm2_items(lang) + written_items(lang)
        ids = [i["id"] for i in items]
        assert len(ids) == len(set(ids)), "duplicate ids"
        path = LABELS / f"{lang}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for it in items:
                fh.write(json.dumps(it, ensure_ascii=False) + "\n")
        test = sum(i["split"] == "test" for i in items)
        print(
            f"{path}: {len(items)} items, test {test} ({test / len(items):.0%}), "
            f"smollm2 {sum(i['source'] == 'smollm2' for i in items)}"
        )


if __name__ == "__main__":
    main()

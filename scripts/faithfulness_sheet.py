"""Draw the answers of the hand-labelled faithfulness set and print a reading sheet.

Seeded draw (random.Random(f"61:{lang}:{folder}")) of multi-statement answers (judge/statements.py)
of the committed run folders named, per language; for each statement the passage sentences that
share the most words with it are printed beside it as a reading aid (the labeller reads the
passages and writes one label per statement: S supported, U unsupported, C contradicted).
`--write LABELS` turns a filled-in sheet (the letters after each statement's number) into
judges/faithfulness/labels/<lang>.jsonl lines; every third answer drawn is `dev` (may be read
while writing the prompt), the others `test` (held out).

    python scripts/faithfulness_sheet.py zh 40 submissions/A submissions/B > sheet.txt
    python scripts/faithfulness_sheet.py zh 40 submissions/A submissions/B --write filled.txt
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

from leaderboard.data.manifest import data_root
from leaderboard.judge.statements import split_statements
from leaderboard.scoring.claims import sentences
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.tokens import tokenize
from leaderboard.trust.verify import scored_answers

LABELS = {"S": "supported", "U": "unsupported", "C": "contradicted"}


def drawn(lang: str, per_folder: int, folders: list[str]):
    for folder in folders:
        items = [
            it
            for it in scored_answers(Path(folder), data_root(None))
            if it.instance.lang == lang
            and it.error is None
            and it.instance.docs
            and len(split_statements(it.prediction, it.instance.query, lang)) >= 2
        ]
        items.sort(key=lambda it: it.instance.key)
        rng = random.Random(f"61:{lang}:{folder}")
        for k, it in enumerate(rng.sample(items, min(per_folder, len(items)))):
            yield folder, k, it


def _aid(statement: str, docs, lang: str, top: int = 3) -> list[str]:
    words = {w for w in tokenize(statement, lang) if len(w) >= 2}
    if lang == "en":  # a name's words in the raw text (the normal form is lower case)
        words |= {w.lower() for w in statement.split() if len(w) >= 4}
    if lang == "zh":  # jieba leaves a rare name in single characters: its bigrams find it
        norm = normalize(statement, lang)
        words |= {norm[i : i + 2] for i in range(len(norm) - 1)}
    scored = []
    for i, d in enumerate(docs, start=1):
        for s in sentences(d, lang):
            hit = sum(len(w) for w in words if w in normalize(s, lang))
            if hit:
                scored.append((hit, i, s.strip()[:200]))
    scored.sort(key=lambda x: -x[0])
    return [f"    [{i}] {s}" for _, i, s in scored[:top]]


def sheet(lang: str, per_folder: int, folders: list[str]) -> None:
    n = 0
    for folder, k, it in drawn(lang, per_folder, folders):
        inst = it.instance
        print(f"=== {folder} {inst.key} ({'dev' if k % 3 == 0 else 'test'})")
        print(f"Q: {inst.query}  | gold: {inst.answer} fake: {inst.fakeanswer or '-'}")
        for j, st in enumerate(split_statements(it.prediction, inst.query, lang)):
            n += 1
            print(f"{n:04d} {j}: {st[:200]}")
            print("\n".join(_aid(st, inst.docs, lang)) or "    (no passage shares a word)")


def write(lang: str, per_folder: int, folders: list[str], filled: Path) -> None:
    marks = dict(re.findall(r"^(\d{4}) ([SUC])\b", filled.read_text("utf-8"), re.M))
    n = 0
    for folder, k, it in drawn(lang, per_folder, folders):
        inst = it.instance
        for j, st in enumerate(split_statements(it.prediction, inst.query, lang)):
            n += 1
            mark = marks.get(f"{n:04d}")
            if mark is None:
                continue
            line = {
                "folder": folder,
                "key": inst.key,
                "lang": lang,
                "statement": j,
                "statement_text": st,
                "label": LABELS[mark],
                "split": "dev" if k % 3 == 0 else "test",
            }
            print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    lang, per, *rest = sys.argv[1:]
    if "--write" in rest:
        i = rest.index("--write")
        write(lang, int(per), rest[:i], Path(rest[i + 1]))
    else:
        sheet(lang, int(per), rest)

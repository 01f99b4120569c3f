"""The answers of the strict-vs-rgb audit to label by hand (issue 59), frozen by key.

Every committed answer of the three ranked measured models where `rgb` and `strict` differ (the
disagreement set), and a seeded sample of 30 answers per model and language where they agree on
every judgement (the agreement sample). Written once, before any rule changed, to
scripts/labels/audit_sample.json; build_audit.py reads that file, so the sets stay the same when the
rules (and so the disagreements) change.

Round 2 (`disagree_instructions`, added once, the first round left as it was): every answer of the
same three models under an alternative instruction (the instruction track) where the modes differ,
drawn after round 1's rules were tuned and labelled blind before any look at strict's verdicts.

Round 3 (`disagree_probes`, added once, rounds 1 and 2 left as they were): every probe answer
(chain, replacement, closedbook, closedbook_fact) of the same three models where the modes differ,
on the probe instances rebuilt as the run built them (board.disagreements.entry_instances), keys
`<entry>/<prediction key>`; their split is the same question hash as rounds 1-2 (build_audit.py),
fixed before any label, and they are labelled blind like round 2.

Round 4 (`disagree_more`, added once, rounds 1-3 left as they were): every committed answer no
earlier round holds where the modes differ: the instruction runs committed after round 2 and the
RAG systems' answers (submissions/system-*, on the instances their own retrieval built), labelled
blind by two annotators like every disagreement (audit_second.py).

Round 5 (`disagree_round5`, added once, rounds 1-4 left as they were): the answers of the RAG
systems committed after round 4 where the modes differ (`<entry>/<key>`), trivial systems left out
as trivial baselines always were (a declared `system.trivial`, or a system that cites no passage:
the floor band, whose place is the floor table); labelled blind by two annotators like round 4.

Rounds 6 and later (`disagree_round6` to `disagree_round9`, each added once, the earlier rounds
left as they were): every committed answer that no earlier round holds where the modes differ: the
three models' own runs (RGB abilities and probes), their instruction runs and the non-trivial RAG
systems; an answer whose words an earlier round holds for the same question is left out (labelled
once). Round 6 holds what Qwen2.5-Coder-0.5B's zh chain and replacement probes added when they were
widened from 100 to 300 records, round 7 the same for Qwen2.5-Coder-1.5B, round 8 SmolLM2-135M's
widened from 50 to 100, round 9 SmolLM2-135M's widened from 150 to 300 (its widening from 100 to
150 drew no round). Labelled blind by two annotators like rounds 4-5, the sheets showing the
passages each answer was given.

Run from the repository root with the data fetched: python scripts/labels/dump_audit.py
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

from leaderboard.board.disagreements import answer_disagreements
from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import Entry, load_entry
from leaderboard.board.systems import is_floor
from leaderboard.core.types import ABILITIES, PROBES

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("smollm2-135m-instruct", "qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct")
SAMPLE_SEED = "rgb-strict-audit-sample-v1"
PER_CELL = 30
OUT = Path(__file__).parent / "audit_sample.json"
# The rounds drawn by collect_new, in order; a run of this script draws the first one absent.
LATER_ROUNDS = ("disagree_round6", "disagree_round7", "disagree_round8", "disagree_round9")


@functools.cache
def _entry(folder: Path) -> Entry:
    """An entry read once per run of this script, however many rounds look at it."""
    return load_entry(folder)


def collect() -> dict[str, list[str]]:
    """{"disagree": [entry/key...], "agree": [entry/key...]} in a stable order."""
    disagree, agree = [], []
    cache: dict = {}
    for model in MODELS:
        entry = _entry(ROOT / "submissions" / model)
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


def collect_instructions(known: set[tuple[str, str]]) -> list[str]:
    """Round 2: every answer of the three models under an alternative instruction (the
    instruction track, <entry>/instructions/<id>/) where rgb and strict differ, as
    `<entry>/instructions/<id>/<key>`, leaving out an answer whose (key, text) the first round
    already holds (the same words to the same question are labelled once)."""
    return _instruction_disagreements(known, held=set())


def _instruction_disagreements(known: set[tuple[str, str]], held: set[str]) -> list[str]:
    """The instruction runs' answers where the modes differ, in model, run and key order; an
    answer whose key `held` names, or whose (key, words) `known` holds, is left out (`known`
    grows with every answer taken)."""
    out = []
    cache: dict = {}
    for model in MODELS:
        entry = _entry(ROOT / "submissions" / model)
        for run in entry.instructions:
            records = [r for r in run.predictions if r.ability in ABILITIES]
            instances = entry_instances(ROOT, records, cache)
            for r in records:
                full = f"{model}/instructions/{run.instruction}/{r.key}"
                inst = instances.get(r.key)
                if full in held or inst is None or r.error is not None:
                    continue
                if (r.key, r.prediction) not in known and answer_disagreements(model, r, inst):
                    known.add((r.key, r.prediction))
                    out.append(full)
    return out


def _entry_disagreements(folder: Path, abilities: tuple[str, ...], cache: dict) -> list[str]:
    """`<entry>/<key>` of every answer of one entry's own run, on these abilities, where the modes
    differ; the instances rebuilt as the run built them (passage number, a system's retrieval)."""
    entry = _entry(folder)
    records = [r for r in entry.predictions if r.ability in abilities]
    passage_num, system = entry_build(entry)
    instances = entry_instances(ROOT, records, cache, passage_num=passage_num, system=system)
    return [
        f"{folder.name}/{r.key}"
        for r in records
        if (inst := instances.get(r.key)) is not None
        and r.error is None
        and answer_disagreements(folder.name, r, inst)
    ]


def collect_probes() -> list[str]:
    """Round 3: every probe answer of the three models where rgb and strict differ, as
    `<entry>/<key>`, in model then key order (probe keys never meet an RGB key)."""
    cache: dict = {}
    return [
        key
        for model in MODELS
        for key in _entry_disagreements(ROOT / "submissions" / model, PROBES, cache)
    ]


def collect_more(held: set[str]) -> list[str]:
    """Round 4: every committed answer that rounds 1-3 do not hold where rgb and strict differ:
    the three models' instruction runs committed after round 2 (`<entry>/instructions/<id>/<key>`)
    and the RAG systems' answers (`submissions/system-*`, their own retrieval; `<entry>/<key>`),
    RGB abilities and probes alike. `held`: the keys of rounds 1-3 and the agreement sample. As
    in round 2, an answer whose words an earlier round holds for the same question is left out
    (labelled once)."""
    out = _instruction_disagreements(_held_words(held), held)
    cache: dict = {}
    for folder in sorted((ROOT / "submissions").glob("system-*")):
        if (folder / "results.json").is_file():
            out += _entry_disagreements(folder, (*ABILITIES, *PROBES), cache)
    return out


def collect_round5(held: set[str]) -> list[str]:
    """Round 5 (and the systems' part of every later round): every answer of a non-trivial RAG
    system (`submissions/system-*`) where rgb and strict differ that no earlier round holds
    (`held`), RGB abilities and probes alike."""
    out: list[str] = []
    cache: dict = {}
    for folder in sorted((ROOT / "submissions").glob("system-*")):
        if not (folder / "results.json").is_file() or is_floor(_entry(folder)):
            continue
        out += [
            k for k in _entry_disagreements(folder, (*ABILITIES, *PROBES), cache) if k not in held
        ]
    return out


def collect_new(held: set[str]) -> list[str]:
    """Rounds 6 and later: every committed answer that no earlier round holds (`held`) where rgb
    and strict differ: the three models' own runs (RGB abilities and probes, `<entry>/<key>`), their
    instruction runs (`<entry>/instructions/<id>/<key>`) and the non-trivial RAG systems, leaving
    out an answer whose words an earlier round holds for the same question (labelled once)."""
    known = _held_words(held)
    cache: dict = {}
    out: list[str] = []
    for model in MODELS:
        folder = ROOT / "submissions" / model
        by_key = {r.key: r for r in _entry(folder).predictions}
        for full in _entry_disagreements(folder, (*ABILITIES, *PROBES), cache):
            key = full.split("/", 1)[1]
            words = (key, by_key[key].prediction)
            if full not in held and words not in known:
                known.add(words)
                out.append(full)
    return out + _instruction_disagreements(known, held) + collect_round5(held)


def _held_words(held: set[str]) -> set[tuple[str, str]]:
    """(key, words) of every answer of the three models that `held` names, own runs and
    instruction runs alike: the answers already labelled, by what they say to which question."""
    known: set[tuple[str, str]] = set()
    for model in MODELS:
        entry = _entry(ROOT / "submissions" / model)
        runs = {"": entry.predictions} | {
            f"instructions/{r.instruction}/": r.predictions for r in entry.instructions
        }
        for prefix, predictions in runs.items():
            known |= {
                (r.key, r.prediction) for r in predictions if f"{model}/{prefix}{r.key}" in held
            }
    return known


def _known(found: dict[str, list[str]]) -> set[tuple[str, str]]:
    out = set()
    for model in MODELS:
        by_key = {r.key: r for r in _entry(ROOT / "submissions" / model).predictions}
        for full in found["disagree"] + found["agree"]:
            name, key = full.split("/", 1)
            if name == model:
                out.add((key, by_key[key].prediction))
    return out


def main() -> None:
    """Round 1 (the ranked answers) is frozen: a later run only adds a later round when absent."""
    found = json.loads(OUT.read_text(encoding="utf-8")) if OUT.is_file() else collect()
    if "disagree_instructions" not in found:
        found["disagree_instructions"] = collect_instructions(_known(found))
    if "disagree_probes" not in found:
        found["disagree_probes"] = collect_probes()
    if "disagree_more" not in found:
        held = set(
            found["disagree"]
            + found["agree"]
            + found["disagree_instructions"]
            + found["disagree_probes"]
        )
        found["disagree_more"] = collect_more(held)
    if "disagree_round5" not in found:
        found["disagree_round5"] = collect_round5({k for keys in found.values() for k in keys})
    for later in LATER_ROUNDS:
        if later not in found:
            drawn = collect_new({k for keys in found.values() for k in keys})
            if drawn:  # one new round per run, and only when some answer is new
                found[later] = drawn
            break
    OUT.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(
        f"{OUT}: {len(found['disagree'])} disagreements, {len(found['agree'])} agreements, "
        f"{len(found['disagree_instructions'])} disagreements in the instruction track, "
        f"{len(found['disagree_probes'])} in the probes, "
        f"{len(found['disagree_more'])} in round 4 (later instruction runs, the RAG systems), "
        f"{len(found['disagree_round5'])} in round 5 (RAG systems committed since)"
        + "".join(
            f", {len(found[r])} in round {r.removeprefix('disagree_round')} (committed since)"
            for r in LATER_ROUNDS
            if r in found
        )
    )


if __name__ == "__main__":
    main()

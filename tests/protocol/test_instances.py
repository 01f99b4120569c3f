"""Instances must equal, passage for passage, what the RGB reference code builds.

The oracle below is a literal port of `processdata` from chen700564/RGB evalue.py (commit 65ec39e4),
run the way the reference runs it: `random.seed(2333)` on the global generator, a freshly parsed
record (the reference mutates it), the dataset name deciding the branch. Only the debug print
is removed.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError, DataError
from leaderboard.core.types import DEFAULT_NOISE_RATES, Record
from leaderboard.data.manifest import status
from leaderboard.data.records import load_records
from leaderboard.protocol.instances import build_instance, build_instances

# ------------------------------------------------------------------ literal port of the reference


def reference_processdata(instance, noise_rate, passage_num, filename, correct_rate=0):
    query = instance["query"]
    ans = instance["answer"]

    neg_num = math.ceil(passage_num * noise_rate)
    pos_num = passage_num - neg_num

    if "_int" in filename:
        for i in instance["positive"]:
            random.shuffle(i)
        docs = [i[0] for i in instance["positive"]]
        if len(docs) < pos_num:
            maxnum = max([len(i) for i in instance["positive"]])
            for i in range(1, maxnum):
                for j in instance["positive"]:
                    if len(j) > i:
                        docs.append(j[i])
                        if len(docs) == pos_num:
                            break
                if len(docs) == pos_num:
                    break
        neg_num = passage_num - len(docs)
        if neg_num > 0:
            negative = instance["negative"][:neg_num]
            docs += negative
    elif "_fact" in filename:
        correct_num = math.ceil(passage_num * correct_rate)
        pos_num = passage_num - neg_num - correct_num
        indexs = list(range(len(instance["positive"])))
        selected = random.sample(indexs, min(len(indexs), pos_num))
        docs = [instance["positive_wrong"][i] for i in selected]
        remain = [i for i in indexs if i not in selected]
        if correct_num > 0 and len(remain) > 0:
            docs += [
                instance["positive"][i]
                for i in random.sample(remain, min(len(remain), correct_num))
            ]
        if neg_num > 0:
            docs += instance["negative"][:neg_num]
    else:
        if noise_rate == 1:
            neg_num = passage_num
            pos_num = 0
        else:
            if neg_num > len(instance["negative"]):
                neg_num = len(instance["negative"])
                pos_num = passage_num - neg_num
            elif pos_num > len(instance["positive"]):
                pos_num = len(instance["positive"])
                neg_num = passage_num - pos_num

        positive = instance["positive"][:pos_num]
        negative = instance["negative"][:neg_num]

        docs = positive + negative

    random.shuffle(docs)

    return query, ans, docs


def reference_docs(line: str, noise_rate, passage_num, dataset, correct_rate=0.0) -> list[str]:
    state = random.getstate()
    try:
        random.seed(2333)
        _, _, docs = reference_processdata(
            json.loads(line), noise_rate, passage_num, dataset, correct_rate
        )
        return docs
    finally:
        random.setstate(state)


# ------------------------------------------------------------------------------------- fixtures

ABILITY_OF = {
    "refine": ("noise", "rejection"),
    "int": ("integration",),
    "fact": ("counterfactual",),
}
# RGB protocol rates plus extra rates that exercise every branch of the reference.
RATES = {
    "noise": (0.0, 0.2, 0.4, 0.6, 0.8),
    "rejection": (1.0,),
    "integration": (0.0, 0.2, 0.4, 0.6, 0.8, 1.0),
    "counterfactual": (0.0, 0.2, 0.4, 0.6),
}


def _available(root: Path) -> list[tuple[str, str, Path]]:
    """(lang, dataset name as the reference sees it, path) for every verified file."""
    out = []
    for s in status(root):
        if not s.verified:
            continue
        stem = Path(s.name).stem
        dataset = {"en_head50": "en"}.get(stem, stem.replace("_refine", ""))
        out.append((s.lang, dataset, root / f"data_{s.lang}" / s.name))
    return out


def _abilities(dataset: str) -> tuple[str, ...]:
    if "_int" in dataset:
        return ABILITY_OF["int"]
    if "_fact" in dataset:
        return ABILITY_OF["fact"]
    return ABILITY_OF["refine"]


# ------------------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("passage_num", [5, 3, 10])
def test_equal_to_reference_on_every_real_record(data_root: Path, passage_num: int) -> None:
    files = _available(data_root)
    assert files, "no verified data file"
    compared = 0
    for lang, dataset, path in files:
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        records = load_records(path)
        assert len(lines) == len(records)
        for ability in _abilities(dataset):
            for rate in RATES[ability]:
                for line, rec in zip(lines, records, strict=True):
                    got = build_instance(rec, lang, ability, rate, passage_num=passage_num)
                    want = reference_docs(line, rate, passage_num, dataset)
                    assert list(got.docs) == want, (path.name, ability, rate, rec.id)
                    compared += 1
    assert compared >= 300 * 6


@pytest.mark.parametrize("correct_rate", [0.2, 0.4])
def test_counterfactual_with_correct_passages_equals_reference(
    data_root: Path, correct_rate: float
) -> None:
    for lang in ("zh", "en"):
        path = data_root / f"data_{lang}" / f"{lang}_fact.json"
        if not path.exists():
            continue
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        for line, rec in zip(lines, load_records(path), strict=True):
            for rate in (0.0, 0.2, 0.4):
                got = build_instance(rec, lang, "counterfactual", rate, correct_rate=correct_rate)
                want = reference_docs(line, rate, 5, f"{lang}_fact", correct_rate)
                assert list(got.docs) == want


def _synthetic(n_pos: int, n_neg: int) -> Record:
    return Record(
        id=7,
        query="q",
        answer=("a",),
        positive=tuple(f"p{i}" for i in range(n_pos)),
        negative=tuple(f"n{i}" for i in range(n_neg)),
    )


@pytest.mark.parametrize(("n_pos", "n_neg"), [(1, 1), (2, 0), (0, 2), (7, 1), (1, 9), (0, 0)])
def test_clamping_branches_match_reference(n_pos: int, n_neg: int) -> None:
    rec = _synthetic(n_pos, n_neg)
    line = json.dumps(
        {
            "query": "q",
            "answer": ["a"],
            "positive": list(rec.positive),
            "negative": list(rec.negative),
        }
    )
    for rate in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        got = build_instance(rec, "en", "noise", rate)
        assert list(got.docs) == reference_docs(line, rate, 5, "en")


def test_hand_checked_noise_and_rejection(data_root: Path) -> None:
    rec = load_records(data_root / "data_zh" / "zh_refine.json")[0]
    # noise 0.4 with 5 passages: ceil(2.0) = 2 negatives, 3 positives, the first ones of each list
    inst = build_instance(rec, "zh", "noise", 0.4)
    assert sorted(inst.docs) == sorted([*rec.positive[:3], *rec.negative[:2]])
    assert inst.key == "zh/noise/0.4/0"
    # rejection: only the first five negatives
    rej = build_instance(rec, "zh", "rejection", 1.0)
    assert sorted(rej.docs) == sorted(rec.negative[:5])
    assert not set(rej.docs) & set(rec.positive)
    # shuffled, not in file order (the reference shuffles; with seed 2333 this order differs)
    assert list(inst.docs) != [*rec.positive[:3], *rec.negative[:2]]


def test_hand_checked_partial_original_en_clamps_positives(data_root: Path) -> None:
    path = data_root / "data_en" / "partial" / "en_head50.json"
    if not path.exists():
        pytest.skip("partial/en_head50.json not fetched: rgb-leaderboard data fetch [--from DIR]")
    rec = load_records(path)[2]  # id 2 has only 2 positives and 38 negatives
    assert (rec.id, len(rec.positive)) == (2, 2)
    inst = build_instance(rec, "en", "noise", 0.0)
    # pos 5 > 2 positives -> 2 positives + 3 negatives
    assert sorted(inst.docs) == sorted([*rec.positive, *rec.negative[:3]])


def test_hand_checked_integration(data_root: Path) -> None:
    recs = {r.id: r for r in load_records(data_root / "data_zh" / "zh_int.json")}
    # id 16: groups of 3 and 1 passages; 4 < 5 positives, so all 4 and 1 negative
    r16 = recs[16]
    assert [len(g) for g in r16.positive] == [3, 1]
    inst = build_instance(r16, "zh", "integration", 0.0)
    assert sorted(inst.docs) == sorted([*r16.positive[0], *r16.positive[1], r16.negative[0]])
    # id 87: 7 groups > 5 positive slots: all groups' first passages kept -> 7 passages, no negative
    r87 = recs[87]
    assert len(r87.positive) == 7
    inst = build_instance(r87, "zh", "integration", 0.0)
    assert len(inst.docs) == 7
    assert not set(inst.docs) & set(r87.negative)
    assert all(len(set(inst.docs) & set(g)) == 1 for g in r87.positive)
    # id 0 at 0.4: 3 positives (both groups represented) + 2 negatives
    r0 = recs[0]
    inst = build_instance(r0, "zh", "integration", 0.4)
    assert len(inst.docs) == 5
    assert all(set(inst.docs) & set(g) for g in r0.positive)
    assert sorted(set(inst.docs) & set(r0.negative)) == sorted(r0.negative[:2])


def test_hand_checked_counterfactual(data_root: Path) -> None:
    recs = {r.id: r for r in load_records(data_root / "data_zh" / "zh_fact.json")}
    r16 = recs[16]  # 10 positives, no negatives
    inst = build_instance(r16, "zh", "counterfactual", 0.0)
    assert len(inst.docs) == 5
    assert set(inst.docs) <= set(r16.positive_wrong)
    assert inst.fakeanswer == r16.fakeanswer
    # 0.4 noise on a record without negatives: 3 wrong passages and nothing else
    assert len(build_instance(r16, "zh", "counterfactual", 0.4).docs) == 3


def test_deterministic_and_records_not_mutated(data_root: Path) -> None:
    for name, ability in (
        ("zh_int.json", "integration"),
        ("zh_fact.json", "counterfactual"),
        ("zh_refine.json", "noise"),
    ):
        records = load_records(data_root / "data_zh" / name)
        snapshot = [replace(r) for r in records[:20]]
        positives = [r.positive for r in records[:20]]
        first = [build_instance(r, "zh", ability, 0.2) for r in records[:20]]
        random.seed(1)  # global state must not matter
        second = [build_instance(r, "zh", ability, 0.2) for r in records[:20]]
        assert first == second
        assert list(records[:20]) == snapshot
        assert [r.positive for r in records[:20]] == positives
        assert load_records(data_root / "data_zh" / name)[:20] == records[:20]


def test_build_instance_leaves_global_random_alone() -> None:
    random.seed(42)
    expected = random.random()
    random.seed(42)
    build_instance(_synthetic(6, 6), "en", "noise", 0.4)
    assert random.random() == expected


def test_build_instances_defaults_limit_and_order(data_root: Path) -> None:
    src, items = build_instances(data_root, "zh", "noise", limit=3)
    assert src.name == "zh_refine.json" and src.complete and src.expected_n == 300
    assert [(i.noise_rate, i.id) for i in items] == [
        (r, k) for r in DEFAULT_NOISE_RATES["noise"] for k in (0, 1, 2)
    ]
    _, rej = build_instances(data_root, "zh", "rejection")
    assert len(rej) == 300 and {i.noise_rate for i in rej} == {1.0}
    _, none = build_instances(data_root, "zh", "noise", noise_rates=[0.2], passage_num=0, limit=2)
    assert [i.docs for i in none] == [(), ()]


def test_build_instances_bad_arguments(data_root: Path) -> None:
    with pytest.raises(ConfigError, match=r"noise rate 1\.5"):
        build_instances(data_root, "zh", "noise", noise_rates=[1.5])
    with pytest.raises(ConfigError, match="--limit"):
        build_instances(data_root, "zh", "noise", limit=0)


def test_build_instances_missing_split_names_fetch(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="rgb-leaderboard data fetch"):
        build_instances(tmp_path, "en", "integration")

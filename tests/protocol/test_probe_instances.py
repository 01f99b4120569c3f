"""The probe instance builders (protocol/probe_instances.py) on the real data: the chain's top 5
come from the real BM25 in rank order; replacement is seeded, recorded, unrelated and independent of
--limit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.data.splits import load_split
from leaderboard.protocol.probe_instances import (
    build_probe_instances,
    candidate_pool,
    chain_instance,
    contains_answer,
    replacement_instance,
    supported,
)
from leaderboard.protocol.prompts import build_request, prompt_sha256
from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.run.chain_retriever import chain_rank

# contains_answer / supported: the reference's lowercase-substring rule applied to passages
SUPPORT_CASES = [
    # docs, answer, supported
    (("The final was on December 18.",), ("December 18",), True),
    (("the final was on december 18.",), (("Dec 18", "December 18"),), True),
    (("No date here.",), ("December 18",), False),
    ((), ("x",), False),
    (("北京 和 上海",), ("北京", "上海"), True),  # every element somewhere
    (("北京",), ("北京", "上海"), False),  # one element missing
    (("北京", "上海"), ("北京", "上海"), True),  # elements in different passages
]


@pytest.mark.parametrize(("docs", "answer", "expected"), SUPPORT_CASES)
def test_supported_cases(docs, answer, expected) -> None:
    assert supported(docs, answer) is expected


def test_contains_answer_is_any_alternative() -> None:
    assert contains_answer("won by ANNIE Ernaux", (("Annie Ernaux", "Ernaux"),))
    assert not contains_answer("won by someone", ("Annie Ernaux",))


@pytest.fixture(scope="module")
def zh_records(data_root: Path):
    return load_split(data_root, "zh", "chain")


def test_chain_is_the_real_bm25_top5_in_rank_order(zh_records) -> None:
    _, records = zh_records
    r = records[0]
    pool = candidate_pool(r)
    order = BM25Retriever("zh").rank(r.query, [t for _, t in pool]).order[:5]
    inst = chain_instance(r, "zh", chain_rank("zh"), 5)
    assert inst.docs == tuple(pool[i][1] for i in order)
    assert inst.sources == tuple(pool[i][0] for i in order)
    assert inst.ability == "chain" and inst.key == f"zh/chain/0.0/{r.id}"
    # the same prompt as RGB's: system prompt + instruction with the passages
    assert build_request(inst).messages[0].role == "system"
    system = chain_instance(r, "zh", None, 5)
    assert system.docs == () and system.sources == ()  # a system retrieves for itself
    # ...but strict's copy rule knows what it could paste: the question's own passages, unhashed
    assert system.pool == tuple(t for _, t in pool) and inst.pool == ()
    assert build_request(system).messages == build_request(replace(system, pool=())).messages


def test_replacement_is_seeded_recorded_and_unrelated(zh_records) -> None:
    source, records = zh_records
    a = [replacement_instance(r, records, "zh", source.name, 5) for r in records[:20]]
    b = [replacement_instance(r, records, "zh", source.name, 5) for r in records[:20]]
    assert a == b and [i.sources for i in a] == [i.sources for i in b]
    other = [replacement_instance(r, records, "zh", source.name, 5, seed=7) for r in records[:20]]
    assert [i.docs for i in other] != [i.docs for i in a]
    by_id = {r.id: r for r in records}
    for rec, inst in zip(records[:20], a, strict=True):
        assert len(inst.docs) == 5 and len(set(inst.docs)) == 5
        assert not any(contains_answer(d, rec.answer) for d in inst.docs)
        for src, doc in zip(inst.sources, inst.docs, strict=True):
            name, rest = src.split("#")
            donor_id, field = rest.split(" ")
            assert name == "zh_refine.json" and int(donor_id) != rec.id
            index = int(field.removeprefix("positive[").removesuffix("]"))
            assert by_id[int(donor_id)].positive[index] == doc  # the recorded origin is exact


def test_probe_instances_do_not_depend_on_limit(data_root: Path) -> None:
    _, few = build_probe_instances(data_root, "zh", "replacement", rank=None, limit=3)
    _, more = build_probe_instances(data_root, "zh", "replacement", rank=None, limit=6)
    assert few == more[:3]
    assert len({prompt_sha256(build_request(i)) for i in more}) == 6
    with pytest.raises(ConfigError, match="not a probe"):
        build_probe_instances(data_root, "zh", "noise", rank=None)


# ------------------------------------------------------------------------------- closed book


def _passages(record) -> list[str]:
    out = [p for p in record.negative] + list(record.positive_wrong)
    for p in record.positive:
        out.extend([p] if isinstance(p, str) else list(p))
    return out


@pytest.mark.parametrize(
    ("lang", "probe"),
    [("zh", "closedbook"), ("zh", "closedbook_fact"), ("en", "closedbook_fact")],
)
def test_closed_book_prompt_holds_no_passage_of_its_question(
    data_root: Path, lang: str, probe: str
) -> None:
    """Every closed-book prompt is checked against the hash of every passage of its question:
    no passage is shown, and no passage's text (nor any 40-character slice of it) is inside
    the messages."""
    from leaderboard.protocol.prompts import passage_sha256

    _, records = load_split(data_root, lang, probe)
    by_id = {r.id: r for r in records}
    _, instances = build_probe_instances(data_root, lang, probe, rank=None)
    assert len(instances) == len(records)
    for inst in instances:
        request = build_request(inst)
        text = "\n".join(m.content for m in request.messages)
        assert inst.docs == () and request.passages == ()
        assert [m.role for m in request.messages] == ["user"]  # no RGB system prompt
        assert inst.query in text
        hashes = {passage_sha256(p) for p in _passages(by_id[inst.id])}
        assert hashes, inst.key
        assert not any(passage_sha256(m.content) in hashes for m in request.messages)
        for p in _passages(by_id[inst.id]):
            probe_text = p.strip()[:40]
            assert len(probe_text) < 10 or probe_text not in text, inst.key
    if probe == "closedbook_fact":
        assert all(inst.fakeanswer == by_id[inst.id].fakeanswer for inst in instances)


def test_closed_book_keys_differ_from_the_abilities_of_the_same_question(data_root: Path) -> None:
    _, book = build_probe_instances(data_root, "zh", "closedbook", rank=None, limit=3)
    _, fact = build_probe_instances(data_root, "zh", "closedbook_fact", rank=None, limit=3)
    keys = [i.key for i in book + fact]
    assert len(set(keys)) == len(keys)
    assert keys[0] == "zh/closedbook/0.0/0" and keys[3] == "zh/closedbook_fact/0.0/0"

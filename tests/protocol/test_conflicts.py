"""The conflict track's conditions: every file loads; instances hold five passages with the
roles the condition names; paired conditions show the very same passages; the odd passage's
place rotates; a record that cannot fill a condition is left out, never padded; a malformed
condition file is one line naming the file and field."""

from __future__ import annotations

from collections import Counter

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import Record
from leaderboard.protocol.conflicts import (
    PASSAGES,
    build_conflict_instance,
    build_conflict_instances,
    condition_ids,
    conditions_sha256,
    load_condition,
    panel_conditions,
    parse_condition,
)
from leaderboard.scoring.conflict_check import SourceUse


def _record(rid: int = 3, n_pos: int = 3, n_neg: int = 6) -> Record:
    return Record(
        id=rid,
        query="Who won?",
        answer=("Norway",),
        positive=tuple(f"T{i}: Norway won." for i in range(n_pos)),
        negative=tuple(f"N{i}: unrelated." for i in range(n_neg)),
        positive_wrong=tuple(f"F{i}: Sweden won." for i in range(n_pos)),
        fakeanswer=("Sweden",),
    )


def _all(n: int) -> SourceUse:
    return SourceUse(frozenset(range(n)), frozenset(range(n)))


def test_every_condition_loads_with_both_languages():
    ids = condition_ids()
    assert {"true_only", "fake_only", "t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2"} <= set(ids)
    for cid in ids:
        cond = load_condition(cid)
        assert cond.id == cid and set(cond.title) == {"en", "zh"} and cond.passages
    assert len(conditions_sha256()) == 64


@pytest.mark.parametrize(
    "cid", ["true_only", "fake_only", "t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2"]
)
def test_instance_shape(cid):
    cond = load_condition(cid)
    rec = _record()
    inst = build_conflict_instance(rec, "en", cond, _all(3), position=0)
    assert not isinstance(inst, str)
    assert len(inst.docs) == len(inst.roles) == len(inst.sources) == PASSAGES
    assert Counter(inst.roles)["true"] == cond.n_true
    assert Counter(inst.roles)["fake"] == cond.n_fake
    for doc, role, src in zip(inst.docs, inst.roles, inst.sources, strict=True):
        prefix = {"true": "T", "fake": "F", "noise": "N"}[role]
        assert (
            doc.startswith(prefix)
            and src.split("[")[0]
            == {"true": "positive", "fake": "positive_wrong", "noise": "negative"}[role]
        )
    assert inst.key == f"en/conflict/{cid}/3" and inst.condition == cid and inst.seed == 2333 + 3


def test_order_pairs_show_the_same_passages_in_the_same_slots():
    rec = _record()
    a = build_conflict_instance(rec, "zh", load_condition("t1f1"), _all(3), 0)
    b = build_conflict_instance(rec, "zh", load_condition("f1t1"), _all(3), 0)
    assert sorted(a.docs) == sorted(b.docs)
    slots = [i for i, r in enumerate(a.roles) if r != "noise"]
    assert slots == [i for i, r in enumerate(b.roles) if r != "noise"]
    assert [a.roles[i] for i in slots] == ["true", "fake"]
    assert [b.roles[i] for i in slots] == ["fake", "true"]
    # different sources where the record has them; the same true passage as the baseline
    true_a = a.sources[a.roles.index("true")]
    fake_a = a.sources[a.roles.index("fake")]
    assert true_a.split("[")[1] != fake_a.split("[")[1]
    base = build_conflict_instance(rec, "zh", load_condition("true_only"), _all(3), 0)
    assert base.sources[base.roles.index("true")] == true_a
    fake = build_conflict_instance(rec, "zh", load_condition("fake_only"), _all(3), 0)
    assert fake.sources[fake.roles.index("fake")] == fake_a


def test_same_source_shows_a_passage_beside_its_altered_copy_alternating():
    cond = load_condition("t1f1_same")
    first = build_conflict_instance(_record(), "en", cond, _all(3), 0)
    second = build_conflict_instance(_record(), "en", cond, _all(3), 1)
    t, f = first.sources[first.roles.index("true")], first.sources[first.roles.index("fake")]
    assert t.split("[")[1] == f.split("[")[1]
    order = [r for r in first.roles if r != "noise"], [r for r in second.roles if r != "noise"]
    assert order == (["true", "fake"], ["fake", "true"])


def test_majority_odd_passage_rotates_and_pairs():
    places = set()
    for position in range(3):
        a = build_conflict_instance(_record(), "en", load_condition("t2f1"), _all(3), position)
        b = build_conflict_instance(_record(), "en", load_condition("t1f2"), _all(3), position)
        ra = [r for r in a.roles if r != "noise"]
        rb = [r for r in b.roles if r != "noise"]
        assert ra.index("fake") == rb.index("true")  # the odd one sits at the same place
        assert [i for i, r in enumerate(a.roles) if r != "noise"] == [
            i for i, r in enumerate(b.roles) if r != "noise"
        ]
        places.add(ra.index("fake"))
    assert places == {0, 1, 2}


def test_left_out_never_padded():
    short = _record(rid=5, n_pos=1, n_neg=2)
    instances, left = build_conflict_instances([short], "en", condition_ids(), {5: _all(1)})
    built = {i.condition for i in instances}
    assert built == set()  # one true, one fake, two noise: no condition fits five passages
    reasons = {o.condition: o.reason for o in left}
    assert "noise passage" in reasons["true_only"]
    assert "usable true" in reasons["t2f1"] or "noise passage" in reasons["t2f1"]


def test_unusable_passages_are_never_shown():
    rec = _record(n_pos=3)
    use = SourceUse(frozenset({0, 1, 2}), frozenset({1}))
    inst = build_conflict_instance(rec, "en", load_condition("t1f2"), use, 0)
    assert isinstance(inst, str) and "altered" in inst
    inst = build_conflict_instance(rec, "en", load_condition("t1f1"), use, 0)
    assert inst.sources[inst.roles.index("fake")] == "positive_wrong[1]"


def test_panel():
    assert panel_conditions(None) == condition_ids()
    assert panel_conditions("conflict_aware") == ("t1f1", "f1t1")
    with pytest.raises(ConfigError, match="not asked in the conflict track"):
        panel_conditions("typo_fixed")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "id: x\ntitle: {en: a, zh: b}\npurpose: {en: a, zh: b}\npassages: [true]\n"
            "colour: red\n",
            "conflicts/x.yaml:5: field 'colour': unknown field; allowed here: id, title, purpose, "
            "passages, sources, rotate",
        ),
        (
            "id: x\ntitle: {en: a, zh: b}\npurpose: {en: a, zh: b}\npassages: [true, gold]\n",
            "conflicts/x.yaml:4: field 'passages.1': Input should be 'true' or 'fake'",
        ),
        (
            "id: x\ntitle: {en: a, zh: b}\npurpose: {en: a, zh: b}\npassages: [true, true, fake]\n"
            "sources: same\n",
            "conflicts/x.yaml:5: field 'sources': 'same' pairs",
        ),
        (
            "id: x\ntitle: {en: a, zh: b}\npurpose: {en: a, zh: b}\n"
            "passages: [true, fake, fake, fake, fake, fake]\n",
            "conflicts/x.yaml:4: field 'passages': at most 5",
        ),
        (
            "id: y\ntitle: {en: a, zh: b}\npurpose: {en: a, zh: b}\npassages: [true]\n",
            "conflicts/x.yaml:1: field 'id': 'y' differs from the file name",
        ),
        ("- just\n- a list\n", "conflicts/x.yaml:1: expected a mapping of fields"),
        ("id: x\nid: x\n", "conflicts/x.yaml:2: field 'id' is given twice"),
    ],
)
def test_bad_condition_file_is_one_line_naming_file_line_and_field(text, message):
    with pytest.raises(ConfigError) as err:
        parse_condition(text.encode(), "conflicts/x.yaml", "x")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_a_condition_file_not_in_utf8_is_one_line():
    with pytest.raises(ConfigError, match=r"^conflicts/x.yaml:1: not UTF-8"):
        parse_condition(b"id: \xff\n", "conflicts/x.yaml", "x")


def test_unknown_condition():
    with pytest.raises(ConfigError, match="unknown conflict condition 'nope'"):
        load_condition("nope")

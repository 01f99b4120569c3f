"""The fact files checked for conflict use: each defect kind found on a small record, with the
passage it names; on the real files at least three defective records, each named."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.types import Record
from leaderboard.data.records import load_records
from leaderboard.scoring.conflict_check import check_record, check_records, source_use, states


def _rec(**kw) -> Record:
    base = dict(
        id=1,
        query="q",
        answer=("70",),
        positive=("The council has 70 seats.", "It has 70 seats in all."),
        negative=("n",),
        positive_wrong=("The council has 90 seats.", "It has 90 seats in all."),
        fakeanswer=("90",),
    )
    base.update(kw)
    return Record(**base)


def test_a_clean_record_has_no_finding():
    rec = _rec()
    assert check_record(rec, "en") == []
    assert source_use(rec, []).true == frozenset({0, 1})


@pytest.mark.parametrize(
    ("changes", "kind", "passage"),
    [
        ({"fakeanswer": ("70 seats",)}, "fake_contains_true", None),
        ({"positive_wrong": ("The council has 90 seats.",)}, "fake_unaligned", None),
        (
            {"positive_wrong": ("The council has 70 seats.", "It has 90 seats in all.")},
            "fake_identical",
            "positive_wrong[0]",
        ),
        (
            {"positive_wrong": ("The council has 90 seats, not 70.", "It has 90 seats in all.")},
            "fake_states_true",
            "positive_wrong[0]",
        ),
        (
            {"positive_wrong": ("The council has 90 seats.", "It has many seats.")},
            "fake_lacks_fake",
            "positive_wrong[1]",
        ),
        (
            {"positive": ("The council has 170 seats.", "It has 70 seats in all.")},
            "true_lacks_answer",
            "positive[0]",
        ),
    ],
)
def test_each_defect(changes, kind, passage):
    rec = _rec(**changes)
    found = check_record(rec, "en")
    assert [(f.kind, f.passage) for f in found if f.kind == kind] == [(kind, passage)]
    use = source_use(rec, found)
    if passage is None:
        assert not use.true and not use.fake
    else:
        index = int(passage.split("[")[1][:-1])
        assert index not in (use.fake if passage.startswith("positive_wrong") else use.true)


@pytest.mark.parametrize(
    ("lang", "answer", "text", "expected"),
    [
        ("en", ("Facebook",), "Facebook's $1 billion acquisition of Instagram", True),
        ("en", ("70",), "It has 170 seats.", False),
        ("en", ("2.3%",), "rose 12.3% in May", False),
        ("zh", ("5月12日",), "时间范围：2008年05月12日-2008年12月31日", True),
        ("zh", ("1361万",), "城镇新增就业1361万人", True),
        ("zh", ("161万",), "城镇新增就业1361万人", False),
    ],
)
def test_states_reads_like_strict_scoring(lang, answer, text, expected):
    assert states(answer, text, lang) is expected


def test_real_fact_files_have_named_defects(data_root: Path):
    total = 0
    for lang in ("zh", "en"):
        path = data_root / f"data_{lang}" / f"{lang}_fact.json"
        if not path.is_file():
            pytest.skip("fact files not fetched")
        findings, use = check_records(load_records(path), lang)
        total += len({f.id for f in findings})
        assert all(f.detail for f in findings)
        assert len(use) == 100
    assert total >= 3

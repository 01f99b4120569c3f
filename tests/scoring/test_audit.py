"""Data audit: known problems of the real files, and each check on small files written by the
test."""

from __future__ import annotations

import json
from pathlib import Path

from leaderboard.scoring.audit import audit, data_files


def test_zh_fact_answer_inside_fake(official_dir: Path) -> None:
    """The issue's known case: 3 of 100 zh_fact items, one with the fake answer equal to the
    answer."""
    findings = [f for f in audit(official_dir) if f.file == "zh_fact.json"]
    fake = {(f.id, f.kind) for f in findings if f.kind in ("answer_in_fake", "fake_equals_answer")}
    assert fake == {(0, "answer_in_fake"), (7, "answer_in_fake"), (82, "fake_equals_answer")}


def test_real_files_are_found_and_audited(official_dir: Path) -> None:
    names = {(lang, name) for lang, name, _ in data_files(official_dir)}
    assert ("zh", "zh_refine.json") in names and ("en", "partial/en_head50.json") in names
    findings = audit(official_dir)
    kinds = {f.kind for f in findings}
    assert {"answer_in_negative", "duplicate_query"} <= kinds
    dup = [f for f in findings if f.kind == "duplicate_query"]
    assert any(f.file == "en_fact.json" and f.id == 46 and "id 22" in f.detail for f in dup)
    assert all(f.detail for f in findings)


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def test_each_check_on_written_files(tmp_path: Path) -> None:
    _write(
        tmp_path / "data_zh" / "zh_refine.json",
        [
            {
                "id": 0,
                "query": "谁赢了？",
                "answer": ["李娜"],
                "positive": ["李娜赢了"],
                "negative": ["无关"],
            },
            {
                "id": 1,
                "query": "谁赢了?",
                "answer": ["王五"],
                "positive": ["李娜赢了"],
                "negative": ["a", "b", "c", "d", "e", "王五赢了"],
            },  # 6th negative is never shown
            {
                "id": 2,
                "query": "哪年？",
                "answer": ["2020年", "北京"],
                "positive": ["2020年在北京"],
                "negative": ["2020年举办"],
            },
            {
                "id": 3,
                "query": "几人？",
                "answer": ["12人"],
                "positive": ["共12人"],
                "negative": ["共12人参加"],
            },
        ],
    )
    _write(
        tmp_path / "data_en" / "en_fact.json",
        [
            {
                "id": 0,
                "query": "How many?",
                "answer": "70",
                "fakeanswer": "170",
                "positive": ["70 seats"],
                "positive_wrong": ["170 seats"],
                "negative": ["no"],
            },
            {
                "id": 1,
                "query": "Who?",
                "answer": "Ann",
                "fakeanswer": "Ann",
                "positive": ["Ann"],
                "positive_wrong": ["Ann"],
                "negative": [],
            },
            {
                "id": 2,
                "query": "When?",
                "answer": "2",
                "fakeanswer": "3",
                "positive": ["in 2022"],
                "positive_wrong": ["3"],
                "negative": ["x"],
            },
        ],
    )
    got = {(f.lang, f.file, f.id, f.kind) for f in audit(tmp_path)}
    assert got == {
        ("zh", "zh_refine.json", 1, "duplicate_query"),  # ? and full-width ？ normalise alike
        ("zh", "zh_refine.json", 1, "answer_not_in_positive"),
        ("zh", "zh_refine.json", 2, "partial_answer_in_negative"),
        ("zh", "zh_refine.json", 3, "answer_in_negative"),
        ("en", "en_fact.json", 0, "answer_in_fake"),
        ("en", "en_fact.json", 1, "fake_equals_answer"),
        ("en", "en_fact.json", 2, "answer_not_in_positive"),  # '2' is not a word of 'in 2022'
        # the conflict track's check (70 is not inside 170 at a number boundary: no finding)
        ("en", "en_fact.json", 1, "conflict_fake_contains_true"),
        ("en", "en_fact.json", 2, "conflict_true_lacks_answer"),
    }


def test_no_files_no_findings(tmp_path: Path) -> None:
    assert audit(tmp_path) == [] and data_files(tmp_path) == []

"""Where an answer came from (scoring/grounding.py, issue 61): the case tables of
tests/cases/grounding_<lang>.yaml, per language, through the real strict scorer (the conflict
track's declared passage roles and omission on integration questions included); passage roles read
from the passages; an answer's main span."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from leaderboard.core.types import TestInstance
from leaderboard.scoring.grounding import (
    CATEGORIES,
    grounding,
    instance_roles,
    main_span,
    omitted,
    passage_roles,
)
from leaderboard.scoring.outcome import scored_items

CASES = Path(__file__).parents[1] / "cases"
RATE = {
    "noise": 0.0,
    "rejection": 1.0,
    "counterfactual": 0.0,
    "closedbook": 0.0,
    "integration": 0.0,
    "conflict": 0.0,
}


def _answer(raw: list) -> tuple:
    return tuple(x if isinstance(x, str) else tuple(x) for x in raw)


def _cases(lang: str) -> list[dict]:
    return yaml.safe_load((CASES / f"grounding_{lang}.yaml").read_text("utf-8"))


ROWS = [(lang, case) for lang in ("zh", "en") for case in _cases(lang)]


def _item(lang: str, case: dict, error: str | None = None):
    inst = TestInstance(
        lang,  # type: ignore[arg-type]
        case["ability"],
        RATE[case["ability"]],
        1,
        case["query"],
        _answer(case["answer"]),
        tuple(case["passages"]),
        _answer(case.get("fake", [])),
        condition="t1f1" if "roles" in case else "",
        roles=tuple(case.get("roles", ())),
    )
    (item,) = scored_items([(inst, case["prediction"], error)])
    return item


@pytest.mark.parametrize(("lang", "case"), ROWS, ids=[f"{lg}-{c['name']}" for lg, c in ROWS])
def test_each_answer_gets_its_category(lang: str, case: dict) -> None:
    g = grounding(_item(lang, case))
    assert g.category == case["category"], g
    for key in ("role", "span", "reason"):
        if key in case:
            assert getattr(g, key) == case[key], (key, g)
    if g.category == "wrong_from_passage":
        assert g.role is not None and g.passages
    if "omitted" in case:
        assert omitted(_item(lang, case)) == tuple(case["omitted"])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_both_languages_have_conflict_and_omission_cases(lang: str) -> None:
    cases = _cases(lang)
    conflict = [c for c in cases if c["ability"] == "conflict"]
    assert {c["category"] for c in conflict} >= {"wrong_from_passage", "correct_grounded"}
    assert any(c.get("role") == "altered" for c in conflict)
    assert {bool(c["omitted"]) for c in cases if "omitted" in c} == {True, False}


def test_every_category_is_covered_in_both_languages() -> None:
    for lang in ("zh", "en"):
        got = {c["category"] for c in _cases(lang)}
        assert got == set(CATEGORIES), (lang, set(CATEGORIES) - got)


@pytest.mark.parametrize(("lang", "case"), ROWS[:2])
def test_a_generation_failure_is_undetermined_never_guessed(lang: str, case: dict) -> None:
    g = grounding(_item(lang, case, error="timeout"))
    assert (g.category, g.reason) == ("undetermined", "generation failure")


def test_passage_roles_come_from_the_passages_text() -> None:
    docs = ("会议在上海举行。", "会议在北京举行。", "天气晴朗。")
    assert passage_roles(docs, ("北京",), ("上海",), "zh") == ("altered", "gold", "noise")
    # a number inside a longer number is no hit (strict boundaries)
    assert passage_roles(("共有170个议席",), ("70",), (), "zh") == ("noise",)
    en = ("It was held in Paris.", "Parisian cafes were full.")
    assert passage_roles(en, ("Paris",), (), "en") == ("gold", "noise")


def test_main_span_leaves_out_the_question_and_function_words() -> None:
    assert main_span("中国第三艘航母的名字是“辽宁”。", "中国第三艘航母名字", "zh") == ("辽宁",)
    assert main_span(
        "The iPhone 14 has an A16 Bionic chip.", "What chip does the iPhone 14 have?", "en"
    ) == ("a16 bionic",)
    assert main_span("2022年百花奖最佳影片奖", "2022年百花奖最佳影片奖", "zh") == ()


def test_conflict_instances_take_their_declared_roles() -> None:
    docs = ("获奖者是一位日本作家。", "颁奖典礼在12月。", "2022年诺贝尔文学奖授予安妮·埃尔诺。")
    inst = TestInstance(
        "zh",
        "conflict",
        0.0,
        1,
        "2022年诺贝尔文学奖得主是谁？",
        ("安妮·埃尔诺",),
        docs,
        ("村上春树",),
        condition="f1t1",
        roles=("fake", "noise", "true"),
    )
    assert instance_roles(inst) == ("altered", "noise", "gold")
    # read from the text, the altered passage (it never names the planted answer) is noise
    text = TestInstance("zh", "noise", 0.0, 1, inst.query, inst.answer, docs, inst.fakeanswer)
    assert instance_roles(text) == ("noise", "noise", "gold")


def test_omission_is_not_defined_outside_its_cases() -> None:
    docs = ("阿根廷夺冠。", "法国屈居亚军。")
    base = ("zh", "integration", 0.0, 1, "卡塔尔世界杯决赛队伍", ("阿根廷", "法国"))
    one = TestInstance(*base[:5], ("阿根廷",), docs)  # type: ignore[arg-type]
    only_one_held = TestInstance(*base, ("阿根廷夺冠。", "天气晴朗。"))  # type: ignore[arg-type]
    held = TestInstance(*base, docs)  # type: ignore[arg-type]
    refused = "文档信息不足，因此我无法基于提供的文档回答该问题。"
    items = scored_items(
        [
            (one, "阿根廷", None),  # one element: no omission to speak of
            (only_one_held, "阿根廷", None),  # the passages hold one element only
            (held, refused, None),  # a refusal
            (held, "巴西和德国", None),  # states no element a passage holds
            (held, "阿根廷", "timeout"),  # a generation failure
        ]
    )
    assert [omitted(it) for it in items] == [None] * 5

"""Where an answer came from (scoring/grounding.py, issue 61): the case tables of
tests/cases/grounding_<lang>.yaml, per language, through the real strict scorer; passage roles read
from the passages; the answer type a question fixes and relevance by code."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from leaderboard.core.types import TestInstance
from leaderboard.scoring.grounding import (
    CATEGORIES,
    answer_type,
    grounding,
    main_span,
    passage_roles,
    relevant_type,
)
from leaderboard.scoring.outcome import scored_items

CASES = Path(__file__).parents[1] / "cases"
RATE = {"noise": 0.0, "rejection": 1.0, "counterfactual": 0.0, "closedbook": 0.0}


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


@pytest.mark.parametrize(
    ("lang", "query", "kind"),
    [
        ("zh", "伊丽莎白二世去世时间", "date"),
        ("zh", "2023年国考实际参考人数是多少", "number"),
        ("zh", "马克龙几月访华", "date"),
        ("zh", "2023年C罗在哪个球队？", None),
        ("en", "When is Google I/O 2022 scheduled to take place?", "date"),
        ("en", "How many vehicles did Tesla deliver in 2021?", "number"),
        ("en", "Who won the 2022 Citrus Bowl?", None),
    ],
)
def test_the_answer_type_a_question_fixes(lang: str, query: str, kind: str | None) -> None:
    assert answer_type(query, lang) == kind  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "query", "prediction", "relevant"),
    [
        ("zh", "伊丽莎白二世去世时间", "伊丽莎白二世去世时间是2022年9月8日。", True),
        ("zh", "2023年国考实际参考人数是多少", "2023年国考竞争激烈。", False),
        ("zh", "2023年C罗在哪个球队？", "利雅得胜利", None),
        ("en", "How many vehicles did Tesla deliver in 2021?", "Tesla delivered 936,172.", True),
        ("en", "When is Google I/O 2022?", "Google I/O 2022 is at Shoreline.", False),
    ],
)
def test_relevance_by_code_where_the_type_is_fixed(
    lang: str, query: str, prediction: str, relevant: bool | None
) -> None:
    assert relevant_type(prediction, query, lang) is relevant  # type: ignore[arg-type]


def test_main_span_leaves_out_the_question_and_function_words() -> None:
    assert main_span("中国第三艘航母的名字是“辽宁”。", "中国第三艘航母名字", "zh") == ("辽宁",)
    assert main_span(
        "The iPhone 14 has an A16 Bionic chip.", "What chip does the iPhone 14 have?", "en"
    ) == ("a16 bionic",)
    assert main_span("2022年百花奖最佳影片奖", "2022年百花奖最佳影片奖", "zh") == ()

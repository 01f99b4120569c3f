"""Why strict judged as it did (scoring/reason.py, carried by strict.judge_strict): the rule that
withheld credit and each element's match, consistent with the Score it comes with."""

from __future__ import annotations

import pytest

from leaderboard.core.types import TestInstance
from leaderboard.scoring.reason import RULES, ElementReason, withheld_rule
from leaderboard.scoring.strict import judge_strict, score_strict

DOCS = (
    "新华社新德里1月1日电 印度控制的克什米尔地区一座印度教寺庙1日凌晨发生踩踏事故，"
    "造成至少12人死亡、十多人受伤。当地警方说，事故发生时大批信徒前往寺庙参加新年祈福活动，现场秩序混乱。",
    "据报道，事故发生在查谟地区的一座著名寺庙，每年新年期间都有大量朝圣者前往。受伤者已被送往附近医院救治。",
)


def _inst(answer: tuple, fake: tuple = (), docs: tuple[str, ...] = (), lang: str = "zh"):
    return TestInstance(lang, "noise", 0.0, 0, "q", answer, docs, fake)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("prediction", "answer", "fake", "docs", "rule"),
    [
        ("答案是12人。", ("12人",), (), (), None),
        ("答案是13人。", ("12人",), (), (), "not_found"),
        ("答案不是12人。", ("12人",), (), (), "negated"),
        ("导演是詹姆斯·卡梅隆", ("卡梅隆",), ("詹姆斯·卡梅隆",), (), "fake_answer"),
        ("可能是12人或者20人。", ("12人",), (), (), "hedge"),
        (
            "1月1日、12人、十多人、20万卢比、2021年、查谟、克什米尔、莫迪、新德里、新华社、一周",
            ("12人",),
            (),
            DOCS,
            "candidate_list",
        ),
        (DOCS[0], ("12人",), (), DOCS, "copy"),
        (
            "答案是12人。文档信息不足，因此我无法基于提供的文档回答该问题。",
            ("12人",),
            (),
            (),
            "refusal",
        ),
    ],
)
def test_the_rule_that_withheld_credit(prediction, answer, fake, docs, rule) -> None:
    score, reason = judge_strict(prediction, _inst(answer, fake, docs))
    assert reason.withheld == rule
    assert score == score_strict(prediction, _inst(answer, fake, docs))  # the same judgement
    assert (rule is None) == (score.correct and not score.rejected)


def test_elements_say_where_they_matched() -> None:
    score, reason = judge_strict("2022年春节档的总票房为60.39亿元。", _inst((("60.39", "60.4"),)))
    assert score.correct and reason.withheld is None
    (el,) = reason.elements
    assert el.element == "60.39" and el.status == "matched" and el.alternative == "60.39"
    assert el.at is not None and "60.39" in el.context
    assert reason.as_dict()["elements"][0]["status"] == "matched"


def test_partial_answer_names_the_missing_element() -> None:
    _, reason = judge_strict("1月3日", _inst(("1月3日", "1月12日")))
    assert [e.status for e in reason.elements] == ["matched", "not_found"]
    assert reason.withheld == "not_found"


def test_refusal_and_error_claim_are_recorded() -> None:
    _, reason = judge_strict("文档信息不足，因此我无法基于提供的文档回答该问题。", _inst(("12人",)))
    assert reason.refusal == "full" and reason.withheld == "refusal"
    _, reason = judge_strict("提供文档的文档存在事实性错误。答案是12人。", _inst(("12人",)))
    assert reason.error_claim and reason.withheld is None


def test_withheld_rule_follows_the_order_of_rules() -> None:
    assert RULES[0] == "refusal"
    found = (ElementReason("x", "matched"),)
    assert (
        withheld_rule(found, copy=True, candidate_list=False, hedged=True, refused=False) == "copy"
    )
    assert (
        withheld_rule((), copy=False, candidate_list=False, hedged=False, refused=False)
        == "not_found"
    )
    assert (
        withheld_rule(found, copy=False, candidate_list=False, hedged=False, refused=False) is None
    )

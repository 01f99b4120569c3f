"""Relevance by code (scoring/relevance.py): the answer type a question fixes (a date, a number,
a person), relevance where the type is fixed, and the names an answer gives that its question does
not hold."""

from __future__ import annotations

import pytest

from leaderboard.scoring.relevance import answer_type, names_someone, relevant_type


@pytest.mark.parametrize(
    ("lang", "query", "kind"),
    [
        ("zh", "伊丽莎白二世去世时间", "date"),
        ("zh", "2023年国考实际参考人数是多少", "number"),
        ("zh", "马克龙几月访华", "date"),
        ("zh", "2023年C罗在哪个球队？", None),
        ("en", "When is Google I/O 2022 scheduled to take place?", "date"),
        ("en", "How many vehicles did Tesla deliver in 2021?", "number"),
        ("en", "Who won the 2022 Citrus Bowl?", "person"),
        ("en", "Where is the Super Bowl held in 2022?", None),
        ("zh", "谁是《天才基本法》主演？", "person"),
        ("zh", "2022年卡塔尔世界杯冠军是谁？", "person"),
        ("zh", "谁在什么时候当选英国首相", "date"),
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
        ("en", "Who won the 2022 Citrus Bowl?", "The Kentucky Wildcats won it.", True),
        ("en", "Who won the 2022 Citrus Bowl?", "However, the documents do not say.", False),
        ("en", "Who directs the Irredeemable film?", "The Irredeemable film is a comic.", False),
        ("zh", "谁执导了电影《满江红》？", "张艺谋执导了该片。", True),
        ("zh", "2022年卡塔尔世界杯冠军是谁？", "阿根廷队获得了冠军。", True),
        ("zh", "谁是《天才基本法》主演？", "主演是一位著名演员。", False),
    ],
)
def test_relevance_by_code_where_the_type_is_fixed(
    lang: str, query: str, prediction: str, relevant: bool | None
) -> None:
    assert relevant_type(prediction, query, lang) is relevant  # type: ignore[arg-type]


def test_names_someone_leaves_out_openers_and_the_question() -> None:
    q = "Who will direct the Irredeemable film?"
    got = names_someone("Based on the documents, Adam McKay will direct Irredeemable.", q, "en")
    assert got == ("adam mckay",)
    assert names_someone("Unfortunately, I cannot tell.", q, "en") == ()
    assert names_someone("该片由张艺谋执导。", "谁执导了电影《满江红》？", "zh") == ("张艺谋",)


@pytest.mark.parametrize(
    ("lang", "query", "prediction"),
    [
        ("zh", "谁是《天才基本法》主演？", "《天才基本法》由雷佳音、张子枫主演。"),
        ("zh", "谁是《天才基本法》主演？", "文档没有提到，无法回答。"),
        ("zh", "2022年卡塔尔世界杯冠军是谁？", "冠军是阿根廷队，决赛在卢赛尔体育场举行。"),
        ("en", "Who won the 2022 Citrus Bowl?", "The Iowa Hawkeyes lost to Kentucky."),
        ("en", "Who won the 2022 Citrus Bowl?", "I cannot answer the question."),
    ],
)
def test_a_who_answer_is_relevant_exactly_when_it_names_someone(
    lang: str, query: str, prediction: str
) -> None:
    """relevant_type stops at the first name; it must say what the full list says."""
    assert relevant_type(prediction, query, lang) == bool(names_someone(prediction, query, lang))  # type: ignore[arg-type]


def test_relevance_stops_tagging_at_the_first_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pasted passage of many clauses is tagged only up to its first name (the tagger is the
    slowest step of `verify`); the full list still reads every clause."""
    import leaderboard.scoring.relevance as relevance

    tagger = relevance._posseg()
    calls: list[str] = []

    def counting(text: str):
        calls.append(text)
        return tagger(text)

    monkeypatch.setattr(relevance, "_posseg", lambda: counting)
    prediction = "冠军是阿根廷队，" + "，".join(["比赛在晚上进行"] * 40) + "。"
    assert relevant_type(prediction, "2022年卡塔尔世界杯冠军是谁？", "zh") is True
    assert len(calls) == 1
    calls.clear()
    names_someone(prediction, "2022年卡塔尔世界杯冠军是谁？", "zh")
    assert len(calls) > 40

"""The statement judge's pure parts (judge/statements.py): answers split into statements per
language, the prompt, and verdicts read back (never guessed)."""

from __future__ import annotations

import pytest

from leaderboard.judge.statements import (
    MAX_STATEMENTS,
    parse_statement_verdict,
    split_statements,
    statement_prompt,
    template,
)


@pytest.mark.parametrize(
    ("lang", "query", "answer", "expected"),
    [
        (
            "zh",
            "2023年C罗在哪个球队？",
            "根据文档内容，我来回答这个问题。2023年C罗在利雅得胜利效力。他与球队签约至2025年。",
            ("2023年C罗在利雅得胜利效力", "他与球队签约至2025年"),
        ),
        ("zh", "卡塔尔世界杯的冠军", "卡塔尔世界杯的冠军：\n\n卡塔尔世界杯的冠军：", ()),
        (
            "en",
            "Who won the 2022 Citrus Bowl?",
            "The Kentucky Wildcats won the 2022 Citrus Bowl. They beat Iowa 20-17.",
            ("The Kentucky Wildcats won the 2022 Citrus Bowl.", "They beat Iowa 20-17."),
        ),
        ("en", "Who won the 2022 Citrus Bowl?", "Who won the 2022 Citrus Bowl?", ()),
    ],
)
def test_split_keeps_the_sentences_that_assert_something(lang, query, answer, expected) -> None:
    assert split_statements(answer, query, lang) == expected


def test_a_repeating_answer_is_cut() -> None:
    answer = "。".join(f"第{i}名是张{i}" for i in range(20))
    assert len(split_statements(answer, "谁", "zh")) == MAX_STATEMENTS


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("SUPPORTED", "supported"),
        ("Unsupported. The documents do not mention it.", "unsupported"),
        ("Verdict: CONTRADICTED\nthe documents say 2022", "contradicted"),
        ("支持", "supported"),
        ("无依据，文档没有提到。", "unsupported"),
        ("矛盾", "contradicted"),
        ("不支持", "unsupported"),
        ("\n\nsupported or contradicted", "unparsable"),
        ("I think so.", "unparsable"),
    ],
)
def test_verdicts_are_read_never_guessed(text: str, verdict: str) -> None:
    assert parse_statement_verdict(text) == verdict


def test_the_prompt_shows_numbered_passages_question_and_statement() -> None:
    prompt = statement_prompt("zh", "谁赢了？", ("甲队获胜。", "乙队落败。"), "甲队赢了。")
    assert "[1] 甲队获胜。\n[2] 乙队落败。" in prompt
    assert "问题：谁赢了？" in prompt and "陈述：甲队赢了。" in prompt
    assert "Statement: X" in statement_prompt("en", "Q?", (), "X") and "(none)" in template(
        "en"
    ) + statement_prompt("en", "Q?", (), "X")


def test_list_markers_alone_are_no_statements() -> None:
    answer = "根据文档信息，以下是获得的奖项：\n1.\n最佳影片\n2.\n最佳导演"
    assert split_statements(answer, "《瞬息全宇宙》获得了哪些奥斯卡奖项", "zh") == (
        "最佳影片",
        "最佳导演",
    )


def test_an_abbreviation_does_not_end_an_english_statement() -> None:
    answer = (
        "The Sports Star of the Year Awards Show is scheduled from 5:30-9:30 p.m. Feb. 28 at "
        "The Westin Seattle. Carolyn R. Bertozzi won the prize."
    )
    assert split_statements(answer, "When is the Sports Star of the Year Awards Show?", "en") == (
        "The Sports Star of the Year Awards Show is scheduled from 5:30-9:30 p.m. Feb. 28 at "
        "The Westin Seattle.",
        "Carolyn R. Bertozzi won the prize.",
    )

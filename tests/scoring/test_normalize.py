"""Strict normaliser, boundary-aware matching, tokenisation (jieba) and token F1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.scoring.normalize import find_normalized, normalize
from leaderboard.scoring.tokens import token_f1, tokenize


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("１２３ＡＢＣ", "zh", "123abc"),  # NFKC full-width -> half-width, casefold
        ("文档 信息，不足。", "zh", "文档信息不足"),
        ("3、12月", "zh", "3 12月"),  # a separator between digits survives as one space
        ("1,361万", "zh", "13610000"),  # thousands separator dropped, 万 by value
        ("增长6.4%", "zh", "增长6.4"),  # decimal point kept
        ("Hello,   World!", "en", "hello world"),
        ("It's  COVID-19", "en", "its covid 19"),
        ("1..5", "en", "1 5"),
        ("", "zh", ""),
        ("   ", "en", ""),
        ("Straße", "en", "strasse"),  # casefold, not lower
    ],
)
def test_normalize_examples(text: str, lang: str, expected: str) -> None:
    assert normalize(text, lang) == expected  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80), st.sampled_from(["zh", "en"]))
def test_normalize_is_idempotent(text: str, lang: str) -> None:
    once = normalize(text, lang)  # type: ignore[arg-type]
    assert normalize(once, lang) == once  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("0123456789.,、 年月日ab'’-")), max_size=40),
    st.sampled_from(["zh", "en"]),
)
def test_normalize_is_idempotent_on_number_heavy_text(text: str, lang: str) -> None:
    once = normalize(text, lang)  # type: ignore[arg-type]
    assert normalize(once, lang) == once  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "needle", "lang", "found"),
    [
        ("共有170个议席", "70", "zh", False),
        ("共有70个议席", "70", "zh", True),
        ("11月3日", "1月3日", "zh", False),
        ("1月3日", "1月3日", "zh", True),
        ("日期1月3日", "1月3日", "zh", True),
        ("12.3", "2.3", "zh", False),  # a decimal is one number
        ("1.70", "70", "zh", False),
        ("in 2022", "2", "en", False),
        ("2 people", "2", "en", True),
        ("unusual", "usual", "en", False),  # English words match on word boundaries
        ("the usual", "usual", "en", True),
        ("abc", "", "en", False),
    ],
)
def test_find_normalized_boundaries(text: str, needle: str, lang: str, found: bool) -> None:
    norm = normalize(text, lang)  # type: ignore[arg-type]
    assert find_normalized(norm, normalize(needle, lang), lang) is found  # type: ignore[arg-type]


def test_tokenize_zh_uses_jieba_words() -> None:
    assert tokenize("我无法基于提供的文档回答该问题。", "zh") == [
        "我",
        "无法",
        "基于",
        "提供",
        "的",
        "文档",
        "回答",
        "该",
        "问题",
    ]
    # HMM off: dates stay apart (with HMM jieba glues 日至)
    assert tokenize("时间为2月4日至2月20日", "zh")[-6:] == ["日", "至", "2", "月", "20", "日"]


def test_tokenize_en_words_without_articles() -> None:
    assert tokenize("The answer is an Apple, isn't it?", "en") == [
        "answer",
        "is",
        "apple",
        "isnt",
        "it",
    ]


def test_token_f1() -> None:
    assert token_f1("北京", ("北京",), "zh") == 1.0
    assert token_f1("", ("北京",), "zh") == 0.0
    assert token_f1("北京", (), "zh") == 0.0
    assert token_f1("完全无关", ("北京",), "zh") == 0.0
    # 答案/是/北京 vs 北京: P = 1/3, R = 1, F1 = 0.5; two required elements, one present: half of it
    assert token_f1("答案是北京", ("北京",), "zh") == pytest.approx(0.5)
    assert token_f1("答案是北京", ("北京", "上海"), "zh") == pytest.approx(0.25)
    # alternatives: the best one counts
    assert token_f1("Jan 2 2022", (("January 2 2022", "Jan 2, 2022"),), "en") == 1.0
    assert token_f1("Norway", ("Norway",), "en") == 1.0

"""Sentences (scoring/sentences.py): initials, acronyms, abbreviations and list markers end no
sentence; the copy splitter keeps Chinese list punctuation inside a sentence."""

from __future__ import annotations

from leaderboard.scoring.sentences import COPY_SPLIT, split


def test_initials_do_not_cut_a_sentence() -> None:
    text = "According to the text, Carolyn R. Bertozzi and K. Barry Sharpless were honored. Next."
    assert split(text, "en") == [
        "According to the text, Carolyn R. Bertozzi and K. Barry Sharpless were honored.",
        "Next.",
    ]


def test_abbreviations_and_acronyms_do_not_cut_a_sentence() -> None:
    assert (
        len(split("Ralph Long Jr. and Dr. Fauci met in the U.S. on Feb. 3. Then they left.", "en"))
        == 2
    )
    assert len(split("It costs approx. three dollars.", "en")) == 1  # lower case goes on


def test_an_ellipsis_and_a_lowercase_letter_are_no_initials() -> None:
    assert len(split("Oct 28, 2022 ... More text here. And more.", "en", COPY_SPLIT)) == 3
    assert len(split("The documents say y. The referee made a mistake.", "en")) == 2


def test_list_markers_join_their_item() -> None:
    text = "The recipients are:\n1. Ford Greene\n2. Ralph Long Jr."
    assert split(text, "en", COPY_SPLIT) == [
        "The recipients are:",
        "1. Ford Greene",
        "2. Ralph Long Jr.",
    ]
    assert split("时间分别是：\n- 6月18日\n- 7月6日", "zh", COPY_SPLIT)[1:] == [
        "- 6月18日",
        "- 7月6日",
    ]


def test_chinese_list_punctuation_stays_inside_a_copy_sentence() -> None:
    text = "玩家有六次机会；绿色表示正确；黄色表示位置错误。这种玩法相似。"
    assert len(split(text, "zh", COPY_SPLIT)) == 2
    assert len(split(text, "zh")) == 4  # claim detection splits clauses at semicolons

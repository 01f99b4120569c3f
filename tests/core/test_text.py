"""Recorded model text (leaderboard.core.text): an incomplete trailing character is dropped."""

from __future__ import annotations

from leaderboard.core.text import drop_incomplete_tail


def test_incomplete_trailing_character_is_dropped() -> None:
    # what a UTF-8 decoder gives for a generation stopped after 2 of the 3 bytes of 京
    cut = "北京".encode()[:-1].decode("utf-8", errors="replace")
    assert cut == "北\ufffd"
    assert drop_incomplete_tail(cut) == ("北", True)
    assert drop_incomplete_tail("答案 \ufffd") == ("答案", True)  # then stripped, as outputs are


def test_text_inside_and_complete_text_are_kept() -> None:
    assert drop_incomplete_tail("公\ufffdareth") == ("公\ufffdareth", False)
    assert drop_incomplete_tail("北京") == ("北京", False)
    assert drop_incomplete_tail("") == ("", False)
    # two replacement characters: an invalid byte, then the incomplete one; only the last goes
    assert drop_incomplete_tail("a\ufffd\ufffd") == ("a\ufffd", True)

"""Chunking by tokens with overlap, in Chinese and English."""

from __future__ import annotations

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.retrieval.chunking import chunk_text, stride, token_spans


def test_tokens_cjk_per_character_words_and_symbols() -> None:
    text = "北京2022年冬奥会, Beijing's Winter Olympics!"
    tokens = [text[a:b] for a, b in token_spans(text)]
    assert tokens[:4] == ["北", "京", "2022", "年"]
    assert "Beijing" in tokens and "'" in tokens and "!" in tokens and "," in tokens


def test_short_passage_is_one_chunk_and_empty_is_none() -> None:
    assert [c.text for c in chunk_text("a b c", 5, 0.5)] == ["a b c"]
    assert chunk_text("   ", 5, 0.0) == []


def test_overlap_and_spans_by_hand() -> None:
    text = " ".join(f"w{i}" for i in range(10))  # 10 tokens
    chunks = chunk_text(text, 4, 0.5)  # stride 2: starts 0, 2, 4, 6 (6..9 reaches the end)
    assert [c.text for c in chunks] == ["w0 w1 w2 w3", "w2 w3 w4 w5", "w4 w5 w6 w7", "w6 w7 w8 w9"]
    assert all(text[c.start : c.end] == c.text for c in chunks)
    no_overlap = chunk_text(text, 4, 0.0)
    assert [c.text for c in no_overlap] == ["w0 w1 w2 w3", "w4 w5 w6 w7", "w8 w9"]
    assert stride(128, 0.25) == 96 and stride(1, 0.5) == 1


def test_chinese_chunks_cover_the_text() -> None:
    text = "中华人民共和国成立于一九四九年。" * 20
    chunks = chunk_text(text, 128, 0.25)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)
    assert all(len(token_spans(c.text)) <= 128 for c in chunks)


@pytest.mark.parametrize(("size", "overlap"), [(0, 0.0), (10, 1.0), (10, -0.1)])
def test_bad_settings(size: int, overlap: float) -> None:
    with pytest.raises(ConfigError):
        chunk_text("abc", size, overlap)

"""Split passages into chunks of N tokens with a fractional overlap (the corpus setting's grid).

"Tokens" are counted with one language-neutral rule, so a 256-token chunk means the same in zh and
en and needs no model hub: every CJK ideograph is a token, a run of other word characters (a word,
a number) is a token, every other non-space character is a token. This is close to how the
multilingual-e5 sentencepiece vocabulary splits Chinese (about one token per character) and English
(about one per word). A chunk's text is the exact span of the passage, spacing kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leaderboard.core.errors import ConfigError

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")
TOKENIZER = "regex: one token per CJK ideograph, per run of other word characters, per symbol"


@dataclass(frozen=True)
class Chunk:
    """Characters [start, end) of a passage."""

    start: int
    end: int
    text: str


def token_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in TOKEN_RE.finditer(text)]


def check_chunking(size: int, overlap: float) -> None:
    """One-line errors for settings that cannot chunk."""
    if size < 1:
        raise ConfigError(f"--chunk-size {size}: must be a positive number of tokens (e.g. 256)")
    if not 0.0 <= overlap < 1.0:
        raise ConfigError(f"--overlap {overlap}: must be a fraction in [0, 1) (e.g. 0.25)")


def stride(size: int, overlap: float) -> int:
    """Tokens between chunk starts: size minus the overlap, at least one."""
    return max(1, size - round(size * overlap))


def chunk_text(text: str, size: int, overlap: float) -> list[Chunk]:
    """Chunks of at most `size` tokens, each starting `stride` tokens after the previous one; the
    last chunk ends at the passage's end (no tail shorter than needed is added twice)."""
    check_chunking(size, overlap)
    spans = token_spans(text)
    if len(spans) <= size:
        return [Chunk(0, len(text), text)] if text.strip() else []
    step = stride(size, overlap)
    chunks: list[Chunk] = []
    start = 0
    while True:
        end = min(start + size, len(spans))
        a, b = spans[start][0], spans[end - 1][1]
        chunks.append(Chunk(a, b, text[a:b]))
        if end == len(spans):
            break
        start += step
    return chunks

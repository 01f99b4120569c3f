"""Model output text as it is recorded: an incomplete trailing character is dropped, not shown.

A generation that stops on its token budget can stop inside a multi-byte UTF-8 character (a
Chinese character is 3 bytes, often 2 or 3 byte-level tokens). Decoding those bytes yields U+FFFD
REPLACEMENT CHARACTER for the incomplete sequence; it carries no text, and the site would show it
as a box. A UTF-8 decoder turns one incomplete trailing sequence into exactly one U+FFFD, so
exactly one trailing U+FFFD is dropped, then trailing whitespace (outputs are stripped).

A U+FFFD in the middle of a text is left alone: there the model emitted bytes that do not form a
character and then went on with other tokens. That is what the model generated (and it shows
there was garbage), not an artefact of stopping. The 10 such committed SmolLM2 answers (for
example `公\ufffdareth`) were inspected and kept.

One case cannot be told apart: a model that generates a complete U+FFFD as its very last character
loses it too. No answer is carried by that character.
"""

from __future__ import annotations

REPLACEMENT = "\ufffd"
TRIM_FIELD = "trimmed_incomplete_char"  # the PredictionRecord / Completion.extra flag


def drop_incomplete_tail(text: str) -> tuple[str, bool]:
    """(text without the replacement character of an incomplete last character, whether one
    was dropped)."""
    if not text.endswith(REPLACEMENT):
        return text, False
    return text[: -len(REPLACEMENT)].rstrip(), True

"""Sentences of a raw answer: the one splitter claim detection (claims.py) and copy detection
(answer.py) count with.

A full stop is not always a sentence end. "According to the text, Carolyn R. Bertozzi, Morten
Meldal and K. Barry Sharpless were honored" is one sentence, and so is "Ralph Long Jr. and Ford
Greene"; a list marker ("1.", "2)", "-", "•") starts an item, it is no sentence of its own. So a
split is undone where the text before it ends with
- an initial: one capital letter and a full stop ("R.");
- an acronym with inner dots ("U.S.", "e.g.", "a.m.");
- one of the profile's `abbreviations` ("Dr.", "Jr.", "Feb.", "No.");
or where the text after it goes on in lower case ("approx. three"), and a piece that is only a
list marker is joined to the item after it. Chinese lists ("、", "；"
inside a sentence) never end a sentence with the copy splitter (COPY_SPLIT): only 。！？ and line
ends do.
"""

from __future__ import annotations

import re

from leaderboard.core.types import Lang
from leaderboard.scoring.profile import profile

# Sentence ends for copy detection, the same in every language: 。！？ and line ends, a full stop
# before a space (semicolons and 、 join list items within one sentence).
COPY_SPLIT = re.compile(r"[。！？!?\n]+|(?<=\.)\s+")
_LAST_WORD = re.compile(r"([^\s(\"'“‘]+)\.$")
_MARKER = re.compile(r"^\s*(?:[0-9]{1,2}|[a-zA-Z]|[ivx]{1,4})?[.)、]?\s*$|^\s*[-*•·]\s*$")


def _continues(before: str, lang: Lang) -> bool:
    """Does the text before a split end with an initial, an acronym or an abbreviation (the
    sentence goes on)?"""
    m = _LAST_WORD.search(before.rstrip())
    if m is None:
        return False
    word = m.group(1)
    if len(word) == 1 and word.isupper():
        return True  # an initial
    parts = word.split(".")
    if len(parts) > 1 and all(1 <= len(p) <= 2 and p.isalpha() for p in parts):
        return True  # U.S., e.g., a.m. (an ellipsis "..." is none)
    return word.casefold() in profile(lang).abbreviations


def split(text: str, lang: Lang, pattern: re.Pattern[str] | None = None) -> list[str]:
    """The sentences of `text` (the profile's splitter, or `pattern`), with splits after
    initials, acronyms and abbreviations undone and list markers joined to their item; pieces
    with no text are dropped."""
    pattern = profile(lang).sentences if pattern is None else pattern
    pieces: list[str] = []
    start = 0
    joined = False  # the current piece continues the previous one
    line_start = True  # the current piece starts a line (a list marker can only stand there)
    for m in pattern.finditer(text):
        if m.end() == m.start():
            continue
        piece = text[start : m.start()]
        end_text = text[start : m.end()]
        if joined and pieces:
            pieces[-1] += piece
        else:
            pieces.append(piece)
        start = m.end()
        after = text[m.end() : m.end() + 1]
        carry = (
            _continues(end_text, lang)
            or (line_start and _MARKER.match(piece) is not None)
            or ("a" <= after <= "z" and end_text.rstrip().endswith("."))
        )
        if carry and pieces:
            pieces[-1] += text[m.start() : m.end()]  # keep the separator inside the sentence
        joined = carry
        line_start = "\n" in m.group(0)
    rest = text[start:]
    if joined and pieces:
        pieces[-1] += rest
    else:
        pieces.append(rest)
    return [p for p in pieces if p.strip()]

"""The statement-level faithfulness judge's pure parts: an answer split into statements, the
prompt that asks whether the passages shown support one statement, and the verdict read back.

A statement is a sentence of the answer (the language's sentence splitter, scoring/claims.py)
that asserts something: a sentence with no content word left once the question's words and the
language's function, preamble and document words are dropped ("根据文档内容，我来回答这个问题。",
an echo of the question) is not one, nor is a heading ending in a colon or a list marker alone
("1."). The prompt (resources/faithfulness_<lang>.txt) shows the passages in the order the model
saw them, the question and the statement, and asks for one word: supported, contradicted or
unsupported ("the criterion is whether the context supports it, not whether it is true"). The
verdict is the first line that names exactly one of the three; anything else is unparsable,
counted and never guessed.

These parts live here and not in protocol/ (where the reference judge prompts are) while protocol/
is being extended by the conflict track; nothing of results.json depends on them.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Literal

from leaderboard.core.types import Lang
from leaderboard.scoring.claims import sentences
from leaderboard.scoring.grounding import main_span
from leaderboard.scoring.profile import profile

StatementVerdict = Literal["supported", "unsupported", "contradicted", "unparsable"]
VERDICTS: tuple[StatementVerdict, ...] = ("supported", "unsupported", "contradicted")
PARSER_VERSION = 1
# at most this many statements of one answer are judged (a degenerate answer repeats itself)
MAX_STATEMENTS = 8
# a list marker on its own line ("1.", "2)", "- ") is no statement
_MARKER = re.compile(r"[\s*#>\-]*[0-9]{0,2}[.)、]?[\s*]*")
# a list marker that opens a sentence ("1.\n最佳影片": the splitter keeps a marker with its item)
_LEADING_MARKER = re.compile(r"^\s*(?:[0-9]{1,2}[.)、]|[-*•])\s+")
# the words a verdict line may use, per verdict (after NFKC and lowercasing)
_WORDS: dict[StatementVerdict, tuple[str, ...]] = {
    "supported": ("supported", "支持"),
    "unsupported": ("unsupported", "not supported", "无依据", "不支持", "没有依据"),
    "contradicted": ("contradicted", "contradicts", "矛盾", "相矛盾"),
}


@cache
def template(lang: Lang) -> str:
    """The prompt template of a language (a str.format template: passages, question, statement)."""
    ref = resources.files("leaderboard.judge") / "resources" / f"faithfulness_{lang}.txt"
    return ref.read_bytes().decode("utf-8")


def template_sha256(lang: Lang) -> str:
    return hashlib.sha256(template(lang).encode("utf-8")).hexdigest()


# where words have boundaries, a sentence end after an abbreviation is no end: "Feb. 28",
# "Carolyn R. Bertozzi", "5:30 p.m. on"; such a piece is joined to the next
_ABBREVIATED = re.compile(
    r"(?:^|\s)(?:[A-Z]|[a-z]\.[a-z]|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mr|Mrs|Ms|Dr"
    r"|Jr|Sr|St|No|vs|Inc|Co|Corp|Ltd|U\.S)\.$"
)
_CONTINUES = re.compile(r"^[a-z0-9]")


def _joined(pieces: list[str]) -> list[str]:
    out: list[str] = []
    for piece in pieces:
        text = piece.strip()
        if out and (_ABBREVIATED.search(out[-1]) or _CONTINUES.match(text)):
            out[-1] = f"{out[-1]} {text}"
        else:
            out.append(text)
    return out


def split_statements(answer: str, query: str, lang: Lang) -> tuple[str, ...]:
    """The answer's statements: its sentences that assert something (module docstring), in
    order, at most MAX_STATEMENTS, each stripped, repeats dropped; where words have boundaries,
    a sentence cut after an abbreviation is joined again ("Feb. 28 at The Westin")."""
    out: list[str] = []
    pieces = sentences(answer, lang)
    if profile(lang).word_boundaries:
        pieces = _joined(pieces)
    for piece in pieces:
        text = _LEADING_MARKER.sub("", piece.strip()).strip()
        if not text or text in out or _MARKER.fullmatch(text) or text.endswith((":", "：")):
            continue
        if not main_span(text, query, lang):
            continue
        out.append(text)
        if len(out) == MAX_STATEMENTS:
            break
    return tuple(out)


def statement_prompt(lang: Lang, question: str, passages: Sequence[str], statement: str) -> str:
    """The user message for one statement: numbered passages, the question, the statement."""
    docs = "\n".join(f"[{i}] {p}" for i, p in enumerate(passages, start=1)) or "(none)"
    return template(lang).format(passages=docs, question=question, statement=statement)


def _line_verdict(line: str, pairs: Sequence[tuple[str, str]]) -> str | None:
    found = set()
    rest = line
    for word, verdict in pairs:
        if re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", rest):
            found.add(verdict)
            rest = rest.replace(word, " ")
    if len(found) == 1:
        return found.pop()
    return "unparsable" if found else None


def first_line_verdict(text: str, words: Mapping[str, Sequence[str]]) -> str:
    """The one-word verdict of a judge's reply (the statement and relevance judges): the first
    line naming exactly one verdict's words (after NFKC and lowercasing; longest words first, so
    "unsupported" is not read as "supported", nor 不相关 as 相关) decides; a line naming two, or
    no such line, is "unparsable"."""
    pairs = sorted(((w, v) for v, ws in words.items() for w in ws), key=lambda p: -len(p[0]))
    for line in unicodedata.normalize("NFKC", text).lower().splitlines():
        if not line.strip():
            continue
        verdict = _line_verdict(line, pairs)
        if verdict is not None:
            return verdict
    return "unparsable"


def parse_statement_verdict(text: str) -> StatementVerdict:
    """The first line naming exactly one verdict decides; a line naming two, or no such line,
    is unparsable."""
    return first_line_verdict(text, _WORDS)  # type: ignore[return-value]

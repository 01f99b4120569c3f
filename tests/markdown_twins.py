"""What a translated Markdown page must keep of its English original: its headings, its code blocks
and the commands it names. A translation may reword every sentence, but a reader who copies a
command from the Chinese page must run what the English page runs, and the two pages must have the
same sections. And the typography a Chinese page must keep (the zh review's style, §4): one line
per paragraph, full-width marks in Chinese sentences, no space after them. Used by
tests/site/test_docs.py (docs/*.md against docs/zh/*.md) and tests/test_repository_docs.py
(README.md against README_zh.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)[^\n]*$")
_HEADING = re.compile(r"^(#{1,6})\s+\S")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_COMMENT = re.compile(r"(^|\s)#(?!!).*$")  # a shell, Python or YAML comment (not a #! line)
# the programs a page tells the reader to run: an inline code span or a code line that starts with
# one of them and gives it an argument is a command (`pip` alone names the tool)
PROGRAMS = (
    "rgb-leaderboard",
    "python",
    "python3",
    "pip",
    "bash",
    "accelerate",
    "pytest",
    "git (?:add|commit|tag|status|clone|checkout|worktree|log|diff|push|pull)",
)
_COMMAND = re.compile(
    r"^(?:[A-Z_]+=\S+\s+)*(?:nice -n \d+\s+)?(?:\S*/)?(?:" + "|".join(PROGRAMS) + r")\s+\S"
)


@dataclass(frozen=True)
class CodeBlock:
    info: str  # the fence's language (bash, yaml; "" for none)
    lines: tuple[str, ...]  # the block's lines, comments removed (they are translated)


@dataclass(frozen=True)
class Outline:
    headings: tuple[int, ...]  # the level of every heading, in order
    code_blocks: tuple[CodeBlock, ...]
    commands: frozenset[str]  # every command, whitespace collapsed, comments removed


def outline(text: str) -> Outline:
    """The parts of a Markdown page that its translation keeps as they are."""
    headings: list[int] = []
    blocks: list[CodeBlock] = []
    prose: list[str] = []
    fence: str | None = None
    info = ""
    body: list[str] = []
    for line in text.splitlines():
        match = _FENCE.match(line)
        if fence is None and match:
            fence, info, body = match.group(2), match.group(3), []
            continue
        if fence is not None:
            if match and match.group(2).startswith(fence) and not match.group(3):
                blocks.append(CodeBlock(info, _uncommented(body)))
                fence = None
            else:
                body.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            headings.append(len(heading.group(1)))
        prose.append(line)
    commands = {c for b in blocks for c in _joined(b.lines) if _COMMAND.match(c)}
    shown = re.sub(r"<!--.*?-->", "", "\n".join(prose), flags=re.S)  # a comment is not read
    spans = (" ".join(m.group(2).split()) for m in _INLINE_CODE.finditer(shown))
    commands |= {s for s in spans if _COMMAND.match(s)}
    return Outline(tuple(headings), tuple(blocks), frozenset(commands))


def _uncommented(lines: list[str]) -> tuple[str, ...]:
    kept = (_COMMENT.sub("", line).rstrip() for line in lines)
    return tuple(line for line in kept if line.strip())


def _joined(lines: tuple[str, ...]) -> list[str]:
    """Code lines with their `\\` continuations joined, whitespace collapsed."""
    out: list[str] = []
    pending = ""
    for line in lines:
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append(" ".join((pending + line).split()))
        pending = ""
    return out


def differences(english: Outline, chinese: Outline) -> list[str]:
    """What the Chinese page lost or changed of the English one, one line each ([] if none)."""
    out = []
    if english.headings != chinese.headings:
        out.append(f"headings: en {list(english.headings)}, zh {list(chinese.headings)}")
    if len(english.code_blocks) != len(chinese.code_blocks):
        out.append(f"code blocks: en {len(english.code_blocks)}, zh {len(chinese.code_blocks)}")
    for n, (en, zh) in enumerate(zip(english.code_blocks, chinese.code_blocks, strict=False), 1):
        if en != zh:
            out.append(f"code block {n} differs: en {en}, zh {zh}")
    for command in sorted(english.commands - chinese.commands):
        out.append(f"command only in en: {command}")
    for command in sorted(chinese.commands - english.commands):
        out.append(f"command only in zh: {command}")
    return out


_CJK = "\u3400-\u9fff"
_FULL_WIDTH = "，。：；？！（）、“”"
_HALF_WIDTH = re.compile(rf"[{_CJK}][,;:?!][{_CJK}]")
_SPACE_AFTER = re.compile(rf"[{_FULL_WIDTH}] +(?!\|)\S")
_BLOCK_START = re.compile(r"^\s*(?:#|\||[-*+] |\d+\. |>|!!!|<|$)")


def chinese_style_problems(text: str) -> list[str]:
    """`line N: rule` for each line of a Chinese page that breaks a typography rule; code blocks
    and code spans are left out (they stay as the English has them)."""
    out = []
    fence = False
    previous = ""
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fence, previous = not fence, ""
            continue
        if fence:
            continue
        prose = re.sub(r"`[^`]*`", "`…`", line)
        if (
            previous
            and not _BLOCK_START.match(line)
            and not previous.lstrip().startswith(("#", "|", "!!!"))
        ):
            out.append(f"line {n - 1}: a hard line break inside a paragraph")
        if _HALF_WIDTH.search(prose):
            out.append(f"line {n}: a half-width mark between Chinese characters")
        if _SPACE_AFTER.search(prose):
            out.append(f"line {n}: a space after a full-width mark")
        previous = line if line.strip() else ""
    return out

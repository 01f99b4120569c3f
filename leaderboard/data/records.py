"""Validated loading of RGB JSON Lines records.

Data comes from outside (and the full files are megabytes of scraped text), so every line is checked
and a bad one is reported as FILE:LINE: field 'x': what is wrong — never a traceback. Quirks of the
official files are accepted: extra keys such as zh_int's misspelled `asnwer1` and `answer2` are
ignored, answers may be a string, a list of strings, a list of lists, or a list mixing both, and
`negative` may be empty (three zh_fact records).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from leaderboard.core.errors import DataError
from leaderboard.core.types import Answer, AnswerElement, Record

RecordKind = Literal["plain", "int", "fact"]


def kind_for_name(name: str) -> RecordKind:
    """The record shape of a file, decided by its name exactly as the reference code does."""
    if "_int" in name:
        return "int"
    if "_fact" in name:
        return "fact"
    return "plain"


def kind_for_ability(ability: str) -> RecordKind:
    return {
        "integration": "int",
        "counterfactual": "fact",
        "closedbook_fact": "fact",
        "conflict": "fact",
    }.get(ability, "plain")


class _Bad(Exception):
    """A field problem inside one line; turned into a DataError with file and line."""

    def __init__(self, field: str | None, problem: str) -> None:
        super().__init__(problem if field is None else f"field '{field}': {problem}")


def _tname(v: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(v), "null" if v is None else f"a {type(v).__name__}"
    )


def _str_list(v: object, field: str, *, allow_empty: bool = True) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise _Bad(field, f"expected a list of strings, got {_tname(v)}")
    if not v and not allow_empty:
        raise _Bad(field, "is an empty list; at least one string is needed")
    for i, item in enumerate(v):
        if not isinstance(item, str):
            raise _Bad(field, f"item {i} is {_tname(item)}, expected a string")
    return tuple(v)


def _answer(v: object, field: str) -> tuple[Answer, object]:
    """Normalised answer and its immutable raw form (a string, or nested tuples: JSON lists)."""
    if isinstance(v, str):
        if not v.strip():
            raise _Bad(field, "is an empty string")
        return (v,), v
    if not isinstance(v, list):
        raise _Bad(field, f"expected a string or a list, got {_tname(v)}")
    if not v:
        raise _Bad(field, "is an empty list; at least one answer is needed")
    out: list[AnswerElement] = []
    for i, item in enumerate(v):
        if isinstance(item, str):
            if not item.strip():
                raise _Bad(field, f"item {i} is an empty string")
            out.append(item)
        elif isinstance(item, list):
            alts = _str_list(item, f"{field}[{i}]", allow_empty=False)
            if any(not a.strip() for a in alts):
                raise _Bad(f"{field}[{i}]", "contains an empty string")
            out.append(alts)
        else:
            raise _Bad(field, f"item {i} is {_tname(item)}, expected a string or a list of strings")
    return tuple(out), tuple(out)


def _require(obj: dict, field: str) -> object:
    if field not in obj:
        raise _Bad(field, "is missing")
    return obj[field]


def _record(obj: object, kind: RecordKind) -> Record:
    if not isinstance(obj, dict):
        raise _Bad(None, f"expected a JSON object, got {_tname(obj)}")
    rid = _require(obj, "id")
    if not isinstance(rid, int) or isinstance(rid, bool):
        raise _Bad("id", f"expected an integer, got {_tname(rid)}")
    query = _require(obj, "query")
    if not isinstance(query, str) or not query.strip():
        raise _Bad("query", f"expected a non-empty string, got {_tname(query)}")
    answer, raw = _answer(_require(obj, "answer"), "answer")
    pos = _require(obj, "positive")
    positive: tuple[str, ...] | tuple[tuple[str, ...], ...]
    if kind == "int":
        if not isinstance(pos, list) or not pos:
            raise _Bad(
                "positive", f"expected a non-empty list of passage groups, got {_tname(pos)}"
            )
        positive = tuple(
            _str_list(g, f"positive[{i}]", allow_empty=False) for i, g in enumerate(pos)
        )
    else:
        positive = _str_list(pos, "positive")
    negative = _str_list(_require(obj, "negative"), "negative")
    wrong: tuple[str, ...] = ()
    fake: Answer = ()
    if kind == "fact":
        wrong = _str_list(_require(obj, "positive_wrong"), "positive_wrong")
        if len(wrong) != len(positive):
            raise _Bad(
                "positive_wrong",
                f"has {len(wrong)} passages but 'positive' has {len(positive)}; they must pair up",
            )
        fake, _ = _answer(_require(obj, "fakeanswer"), "fakeanswer")
    return Record(
        id=rid,
        query=query,
        answer=answer,
        positive=positive,
        negative=negative,
        positive_wrong=wrong,
        fakeanswer=fake,
        raw_answer=raw,
    )


def _parse_line(raw: bytes, kind: RecordKind) -> Record:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Bad(None, f"not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = ""
        if text.strip() in ("[", "]") or text.lstrip().startswith("[{"):
            hint = "; the file looks like a JSON array, but RGB files are JSON Lines"
        raise _Bad(None, f"not valid JSON ({exc.msg} at column {exc.colno}){hint}") from None
    return _record(obj, kind)


def load_records(path: Path, kind: RecordKind | None = None) -> tuple[Record, ...]:
    """Every record of a JSON Lines file, validated; cached while the file is unchanged.

    `kind` defaults to the file name's ("_int" -> passage groups, "_fact" -> counterfactual fields).
    Blank lines are skipped; ids must be unique.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise DataError(f"{p}: file not found; run `rgb-leaderboard data fetch`") from None
    return _load(str(p), st.st_size, st.st_mtime_ns, kind or kind_for_name(p.name))


@cache
def _load(path: str, size: int, mtime_ns: int, kind: RecordKind) -> tuple[Record, ...]:
    records: list[Record] = []
    seen: dict[int, int] = {}
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                rec = _parse_line(raw, kind)
                if rec.id in seen:
                    raise _Bad("id", f"duplicate id {rec.id} (first on line {seen[rec.id]})")
            except _Bad as exc:
                raise DataError(f"{path}:{lineno}: {exc}") from None
            seen[rec.id] = lineno
            records.append(rec)
    if not records:
        raise DataError(f"{path}: no records (the file is empty); run `rgb-leaderboard data fetch`")
    return tuple(records)

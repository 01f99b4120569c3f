"""The system endpoint's contract: the shipped OpenAPI document and the check of every response.

The limits (answer length, number of ids, the id pattern, required fields) are read from the
versioned document `resources/system-api.v1.json`, so the document a system author reads, the one
the reference system serves and the one the runner enforces cannot drift apart. A response that
breaks the contract becomes an error Completion naming the field: the runner records it for that
question (an answer nobody can attribute is not scored as an answer), and the run goes on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from importlib import resources

import httpx

from leaderboard.core.types import Completion

API_VERSION = "1"
API_FILE = f"system-api.v{API_VERSION}.json"
API_HEADER = "X-RGB-System-API"  # sent with every request, so a system can refuse an old contract


@cache
def openapi_text() -> str:
    """The OpenAPI document, byte for byte as shipped (the reference system serves this)."""
    return (resources.files("leaderboard.backends") / "resources" / API_FILE).read_text("utf-8")


@dataclass(frozen=True)
class Limits:
    """What the document allows in a 200 response."""

    max_answer_chars: int
    max_ids: int
    id_pattern: re.Pattern[str]
    required: tuple[str, ...]


@cache
def limits() -> Limits:
    answer = json.loads(openapi_text())["components"]["schemas"]["Answer"]
    props = answer["properties"]
    return Limits(
        max_answer_chars=int(props["answer"]["maxLength"]),
        max_ids=int(props["passage_ids"]["maxItems"]),
        id_pattern=re.compile(props["passage_ids"]["items"]["pattern"]),
        required=tuple(answer["required"]),
    )


def check_answer(
    data: object, lang: str | None, known_ids: Collection[str] | None = None
) -> tuple[str, list[str]] | str:
    """(answer, ids) of a valid decoded body, else the one-line reason it breaks the contract.

    Ids must match the pattern, be of the question's language and, when `known_ids` (the exported
    corpus) is given, exist there: an id the attribution cannot resolve would silently count as
    "no passage" and flatter nothing but hide a bug in the system."""
    lim = limits()
    if not isinstance(data, dict):
        return f"response is {type(data).__name__}, not a JSON object"
    missing = [f for f in lim.required if f not in data]
    if missing:
        return f"response field {missing[0]!r}: missing"
    answer, ids = data["answer"], data["passage_ids"]
    if not isinstance(answer, str):
        return "response field 'answer': not a string"
    if len(answer) > lim.max_answer_chars:
        return f"response field 'answer': {len(answer)} characters (max {lim.max_answer_chars})"
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return "response field 'passage_ids': not a list of strings"
    if len(ids) > lim.max_ids:
        return f"response field 'passage_ids': {len(ids)} ids (max {lim.max_ids})"
    for i in ids:
        if not lim.id_pattern.fullmatch(i) or (lang is not None and not i.startswith(f"{lang}-")):
            return f"response field 'passage_ids': {i[:40]!r} is not a {lang} corpus id"
        if known_ids is not None and i not in known_ids:
            return f"response field 'passage_ids': {i!r} is not in the exported corpus"
    return answer.strip(), list(ids)


def validate_response(
    resp: httpx.Response,
    latency: float,
    lang: str | None,
    known_ids: Collection[str] | None = None,
) -> Completion:
    """A 200 response as a Completion: the answer with its ids, or an error saying what is wrong."""
    try:
        data = resp.json()
    except ValueError:
        return Completion("", error=f"response is not JSON: {resp.text[:200]!r}", latency_s=latency)
    checked = check_answer(data, lang, known_ids)
    if isinstance(checked, str):
        return Completion("", error=checked, latency_s=latency)
    answer, ids = checked
    return Completion(answer, latency_s=latency, extra={"passage_ids": ids})

"""The scorers' labelled sets (see labels/GUIDE.md), loaded and checked.

Each line is an answer labelled by reading: correct, rejected, error detected, corrected. Two
collections: `scorers` (scoring/labels/<lang>.jsonl: SmolLM2 answers and written variants) and
`audit` (scoring/labels/audit/<lang>.jsonl: committed answers of the ranked models read for the
rgb-vs-strict disagreement audit: every answer where the modes disagreed and a seeded sample where
they agreed, labelled before any rule changed). The evaluation of both scoring modes against
them lives in leaderboard.stats.scorer_eval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from leaderboard.core.errors import DataError
from leaderboard.core.types import Ability, Answer, Lang, TestInstance

Split = Literal["dev", "test"]
Collection = Literal["scorers", "audit"]
COLLECTIONS: dict[str, str] = {
    "scorers": "labels/{lang}.jsonl",
    "audit": "labels/audit/{lang}.jsonl",
}
Source = Literal["smollm2", "written", "committed"]


class Labels(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    correct: bool
    rejected: bool
    error_detected: bool
    corrected: bool


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    lang: Lang
    ability: Ability
    question: str
    answer: list[str | list[str]]
    fakeanswer: str | None
    docs: list[str] | None
    prediction: str
    labels: Labels
    split: Split
    source: Source
    note: str


@dataclass(frozen=True)
class LabelledItem:
    """One labelled answer, with the instance it is scored against."""

    id: str
    split: Split
    source: Source
    instance: TestInstance
    prediction: str
    labels: Labels
    note: str


M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def answer_of(raw: list[str | list[str]]) -> Answer:
    """A labelled line's answer list as RGB's answer tuple (a list inside = alternatives)."""
    return tuple(tuple(x) if isinstance(x, list) else x for x in raw)


def validated_line(model: type[M], text: str, where: str) -> M:
    """One JSON line checked against `model`. Every labelled set is read through here, so a bad
    line fails the same way in each: one DataError naming file, line and the first bad field."""
    try:
        return model.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: not JSON ({exc.msg})") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(line)"
        raise DataError(f"{where}: field {field}: {err['msg']}") from None


def read_labelled(
    name: str, text: str, parse: Callable[[str, str, int], T], key: Callable[[T], str]
) -> tuple[T, ...]:
    """Every non-blank line of a packaged labelled file, parsed; an id seen twice stops with the
    file, line and id (two labels for one answer would count it twice in the agreement)."""
    items: list[T] = []
    seen: set[str] = set()
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        item = parse(raw, f"leaderboard/scoring/{name}:{n}", n)
        if key(item) in seen:
            raise DataError(f"leaderboard/scoring/{name}:{n}: field id: {key(item)!r} repeats")
        seen.add(key(item))
        items.append(item)
    return tuple(items)


def parse_line(text: str, where: str, index: int) -> LabelledItem:
    """One JSON line into a LabelledItem; bad input raises DataError naming file, line and field."""
    line = validated_line(_Line, text, where)
    inst = TestInstance(
        lang=line.lang,
        ability=line.ability,
        noise_rate=1.0 if line.ability == "rejection" else 0.0,
        id=index,
        query=line.question,
        answer=answer_of(line.answer),
        docs=tuple(line.docs or ()),
        fakeanswer=(line.fakeanswer,) if line.fakeanswer else (),
    )
    return LabelledItem(
        line.id, line.split, line.source, inst, line.prediction, line.labels, line.note
    )


@cache
def labelled_set(lang: Lang, collection: Collection = "scorers") -> tuple[LabelledItem, ...]:
    """The packaged labelled answers of one language and collection (ids unique)."""
    name = COLLECTIONS[collection].format(lang=lang)
    text = resources.files("leaderboard.scoring").joinpath(name).read_text("utf-8")
    return read_labelled(name, text, parse_line, lambda item: item.id)

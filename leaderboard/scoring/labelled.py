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
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

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


def _answer(raw: list[str | list[str]]) -> Answer:
    return tuple(tuple(x) if isinstance(x, list) else x for x in raw)


def parse_line(text: str, where: str, index: int) -> LabelledItem:
    """One JSON line into a LabelledItem; bad input raises DataError naming file, line and field."""
    try:
        line = _Line.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: not JSON ({exc.msg})") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(line)"
        raise DataError(f"{where}: field {field}: {err['msg']}") from None
    inst = TestInstance(
        lang=line.lang,
        ability=line.ability,
        noise_rate=1.0 if line.ability == "rejection" else 0.0,
        id=index,
        query=line.question,
        answer=_answer(line.answer),
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
    items, seen = [], set()
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        item = parse_line(raw, f"leaderboard/scoring/{name}:{n}", n)
        if item.id in seen:
            raise DataError(f"leaderboard/scoring/{name}:{n}: field id: {item.id!r} repeats")
        seen.add(item.id)
        items.append(item)
    return tuple(items)

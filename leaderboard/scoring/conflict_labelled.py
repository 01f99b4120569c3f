"""The conflict track's hand-labelled answers (labels/conflict_<lang>.jsonl, see
labels/GUIDE_conflicts.md), loaded and checked, and the outcome reader's agreement with them.

The labels were made by reading, before the reader's rules were tuned on real answers, and the
`test` part (assigned before labelling) is never looked at while they are changed: its agreement
is the one to trust. Agreement is the share of answers whose label the reader gives exactly, with
Wilson's interval; the confusion pairs say where it errs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from leaderboard.core.types import CONFLICT, Lang, TestInstance
from leaderboard.scoring.conflict_outcome import Label, conflict_outcome
from leaderboard.scoring.labelled import answer_of, read_labelled, validated_line

Split = Literal["dev", "test"]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    role: Literal["true", "fake", "noise"]
    text: str


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    lang: Lang
    condition: str
    question: str
    answer: list[str | list[str]]
    fakeanswer: list[str | list[str]]
    docs: list[_Doc]
    prediction: str
    split: Split
    label: Label
    with_true: bool | None
    note: str


@dataclass(frozen=True)
class LabelledConflict:
    id: str
    split: Split
    instance: TestInstance
    prediction: str
    label: Label
    with_true: bool | None
    note: str


def parse_line(text: str, where: str, index: int) -> LabelledConflict:
    """One JSON line; bad input raises DataError naming file, line and field."""
    line = validated_line(_Line, text, where)
    inst = TestInstance(
        lang=line.lang,
        ability=CONFLICT,
        noise_rate=0.0,
        id=index,
        query=line.question,
        answer=answer_of(line.answer),
        docs=tuple(d.text for d in line.docs),
        fakeanswer=answer_of(line.fakeanswer),
        roles=tuple(d.role for d in line.docs),
        condition=line.condition,
    )
    return LabelledConflict(
        line.id, line.split, inst, line.prediction, line.label, line.with_true, line.note
    )


@cache
def conflict_labels(lang: Lang) -> tuple[LabelledConflict, ...]:
    """The packaged labelled conflict answers of one language (ids unique); none when the file
    is absent."""
    name = f"labels/conflict_{lang}.jsonl"
    path = resources.files("leaderboard.scoring").joinpath(name)
    if not path.is_file():
        return ()
    return read_labelled(name, path.read_text("utf-8"), parse_line, lambda item: item.id)


@dataclass(frozen=True)
class Agreement:
    lang: Lang
    split: str  # "dev", "test" or "all"
    n: int
    agree: int
    confusions: tuple[tuple[str, str, int], ...]  # (hand label, reader's label, count)

    @property
    def share(self) -> float:
        return self.agree / self.n if self.n else 0.0


def agreement(items: tuple[LabelledConflict, ...], lang: Lang, split: str) -> Agreement:
    """The reader's exact agreement with the hand labels on one split ("all": both)."""
    chosen = [it for it in items if split == "all" or it.split == split]
    pairs = Counter()
    agree = 0
    for it in chosen:
        got = conflict_outcome(it.prediction, it.instance).label
        if got == it.label:
            agree += 1
        else:
            pairs[(it.label, got)] += 1
    confusions = tuple((a, b, n) for (a, b), n in pairs.most_common())
    return Agreement(lang, split, len(chosen), agree, confusions)

"""The grounding check's hand-labelled answers (labels/grounding_<lang>.jsonl, see
labels/GUIDE_grounding.md), loaded and checked, and the check's agreement with them.

Each line is a real answer labelled by reading, blind to the check: its category (the seven of
scoring.grounding), the passages its claim is taken from (1-based) and whether it addresses the
question. Each line's answer is rebuilt from the line's own fields (the instance, the prediction,
scored in both modes as the board scores it) and `grounding` is run on it under strict, as the
board runs it. Three agreements, each the share of answers where the check says what the label
says, with the pairs where they differ:

- `category`: the seven categories; a wrong answer taken from a passage also by the role of that
  passage (`instance_roles`: the label's passages mapped to their roles with the check's rule:
  altered wins, else the one role, else `mixed`), so `wrong_from_passage/noise` is not
  `wrong_from_passage/gold`;
- `source`: the question the board's rejection figures rest on, among the answers the label and
  the check both call wrong and place (`wrong_from_passage` or `invented`): taken from a passage
  or invented;
- `relevance`: on the questions `relevant_type` covers (it returns a value: the question asks
  for a date, a number or a person), the check's relevance against the label's (a label without
  one, refused or error claimed, left out).

The `test` part (assigned before labelling) is never looked at while the check's rules change:
its agreement is the one to trust.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from leaderboard.core.errors import DataError
from leaderboard.core.types import Ability, Lang, TestInstance
from leaderboard.scoring.grounding import Category, PassageRole, grounding, instance_roles
from leaderboard.scoring.labelled import answer_of, read_labelled, validated_line
from leaderboard.scoring.outcome import ScoredItem, scored_items
from leaderboard.scoring.relevance import relevant_type

Split = Literal["dev", "test"]
Measure = Literal["category", "source", "relevance"]
MEASURES: tuple[Measure, ...] = ("category", "source", "relevance")
SPLITS: tuple[str, ...] = ("test", "dev", "all")  # the held-out part first: the figure to trust
# the categories whose label lists the passages the claim is taken from
WITH_PASSAGES: tuple[Category, ...] = ("correct_grounded", "wrong_from_passage")
# the categories whose label has no relevance (nothing offered as an answer)
WITHOUT_RELEVANCE: tuple[Category, ...] = ("refused", "error_claimed")
# the wrong answers the check places: `source` compares among these
PLACED: tuple[Category, ...] = ("wrong_from_passage", "invented")


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    lang: Lang
    ability: Ability
    question: str
    answer: list[str | list[str]]
    fakeanswer: list[str | list[str]]
    docs: list[str]
    prediction: str
    split: Split
    category: Category
    passages: list[int]
    relevant: bool | None
    note: str


@dataclass(frozen=True)
class LabelledGrounding:
    """One labelled answer: the answer rebuilt and scored, and its hand labels."""

    id: str
    split: Split
    item: ScoredItem
    category: Category
    passages: tuple[int, ...]  # 1-based, in the order shown
    relevant: bool | None
    note: str


def _key_parts(label_id: str, ability: str) -> tuple[float, int] | None:
    """The noise rate and question index of an id `<entry>/<lang>/<ability>/<rate>/<index>`."""
    parts = label_id.rsplit("/", 3)
    if len(parts) != 4 or parts[1] != ability:
        return None
    try:
        return float(parts[2]), int(parts[3])
    except ValueError:
        return None


def _check(line: _Line, where: str) -> None:
    """What pydantic cannot say per field: the passages name passages shown, exactly where the
    category has them; no relevance where the answer offers nothing."""
    bad = [p for p in line.passages if not 1 <= p <= len(line.docs)]
    if bad:
        raise DataError(
            f"{where}: field passages: {bad[0]} is no passage shown (1 to {len(line.docs)})"
        )
    if line.category in WITH_PASSAGES and not line.passages:
        raise DataError(f"{where}: field passages: {line.category} names the passages, none given")
    if line.category not in WITH_PASSAGES and line.passages:
        raise DataError(f"{where}: field passages: {line.category} takes [] (no passage)")
    if line.category in WITHOUT_RELEVANCE and line.relevant is not None:
        raise DataError(f"{where}: field relevant: {line.category} takes null")


def parse_line(text: str, where: str, index: int) -> LabelledGrounding:
    """One JSON line into a LabelledGrounding (the answer scored in both modes); bad input raises
    DataError naming file, line and field."""
    line = validated_line(_Line, text, where)
    _check(line, where)
    rate, qid = _key_parts(line.id, line.ability) or (
        1.0 if line.ability == "rejection" else 0.0,
        index,
    )
    inst = TestInstance(
        lang=line.lang,
        ability=line.ability,
        noise_rate=rate,
        id=qid,
        query=line.question,
        answer=answer_of(line.answer),
        docs=tuple(line.docs),
        fakeanswer=answer_of(line.fakeanswer),
    )
    (item,) = scored_items([(inst, line.prediction, None)])
    return LabelledGrounding(
        line.id,
        line.split,
        item,
        line.category,
        tuple(line.passages),
        line.relevant,
        line.note,
    )


def read_labels(name: str, text: str, lang: Lang) -> tuple[LabelledGrounding, ...]:
    """A labelled file's lines (ids unique), each of language `lang`."""
    items = read_labelled(name, text, parse_line, lambda item: item.id)
    for it in items:
        if it.item.instance.lang != lang:
            raise DataError(
                f"leaderboard/scoring/{name}: field lang: {it.id!r} is "
                f"{it.item.instance.lang}, the file {lang}"
            )
    return items


@cache
def grounding_labels(lang: Lang) -> tuple[LabelledGrounding, ...]:
    """The packaged labelled answers of one language; none when the file is absent."""
    name = f"labels/grounding_{lang}.jsonl"
    path = resources.files("leaderboard.scoring").joinpath(name)
    if not path.is_file():
        return ()
    return read_labels(name, path.read_text("utf-8"), lang)


def _role(passages: tuple[int, ...], roles: tuple[PassageRole, ...]) -> str:
    """The role of the passages a label names (1-based), by the check's rule: altered wins, else
    the one role, else `mixed`."""
    found = {roles[p - 1] for p in passages}
    if "altered" in found:
        return "altered"
    return found.pop() if len(found) == 1 else "mixed"


def _with_role(category: str, role: str | None) -> str:
    return f"{category}/{role}" if category == "wrong_from_passage" else category


@dataclass(frozen=True)
class Compared:
    """One labelled answer, the label's reading beside the check's: the category (a wrong answer
    from a passage with the passage's role), the source where both place a wrong answer, the
    relevance where the check gives one (None: not compared)."""

    id: str
    split: Split
    label: str
    check: str
    label_source: str | None
    check_source: str | None
    label_relevant: bool | None
    check_relevant: bool | None


def _source(category: str) -> str | None:
    if category not in PLACED:
        return None
    return "from_passage" if category == "wrong_from_passage" else "invented"


def compare(it: LabelledGrounding) -> Compared:
    """The check run on one labelled answer, beside its label."""
    inst = it.item.instance
    got = grounding(it.item)
    label = _with_role(it.category, _role(it.passages, instance_roles(inst)))
    check = _with_role(got.category, got.role)
    sources = (_source(it.category), _source(got.category))
    both = all(sources)
    relevant = relevant_type(it.item.prediction, inst.query, inst.lang)
    return Compared(
        it.id,
        it.split,
        label,
        check,
        sources[0] if both else None,
        sources[1] if both else None,
        it.relevant if relevant is not None else None,
        relevant if it.relevant is not None else None,
    )


@cache
def label_comparisons(lang: Lang) -> tuple[Compared, ...]:
    """Every packaged labelled answer of one language compared with the check (computed once)."""
    return tuple(compare(it) for it in grounding_labels(lang))


@dataclass(frozen=True)
class Agreement:
    lang: Lang
    split: str  # "dev", "test" or "all"
    measure: Measure
    n: int
    agree: int
    confusions: tuple[tuple[str, str, int], ...]  # (hand label, check's, count), commonest first

    @property
    def share(self) -> float:
        return self.agree / self.n if self.n else 0.0


def _pair(c: Compared, measure: Measure) -> tuple[str, str] | None:
    if measure == "category":
        return c.label, c.check
    if measure == "source":
        if c.label_source is None or c.check_source is None:
            return None
        return c.label_source, c.check_source
    if c.label_relevant is None or c.check_relevant is None:
        return None
    return _relevance(c.label_relevant), _relevance(c.check_relevant)


def _relevance(value: bool) -> str:
    return "relevant" if value else "not_relevant"


def agreement(
    compared: tuple[Compared, ...], lang: Lang, split: str, measure: Measure
) -> Agreement:
    """The check's exact agreement with the hand labels on one split ("all": both) and measure."""
    pairs: Counter[tuple[str, str]] = Counter()
    n = agree = 0
    for c in compared:
        if split != "all" and c.split != split:
            continue
        pair = _pair(c, measure)
        if pair is None:
            continue
        n += 1
        if pair[0] == pair[1]:
            agree += 1
        else:
            pairs[pair] += 1
    confusions = tuple(
        (a, b, k) for (a, b), k in sorted(pairs.items(), key=lambda x: (-x[1], x[0]))
    )
    return Agreement(lang, split, measure, n, agree, confusions)


def agreements(compared: tuple[Compared, ...], lang: Lang) -> tuple[Agreement, ...]:
    """Every split (held-out test first) × measure with answers, in that order."""
    found = (agreement(compared, lang, s, m) for s in SPLITS for m in MEASURES)
    return tuple(a for a in found if a.n)

"""Where the answers came from, cell by cell and per ability: the grounding categories of
`scoring.grounding` counted, and the figures read from them with their intervals.

Per (language, ability or probe, noise rate) cell: how many answers fall in each part of the
partition BUCKETS (a wrong answer taken from a passage split by the passage's role). Per
(language, ability or probe), over the answers of all its noise rates (FIGURES):

- `grounded` / `from_memory`: of the correct answers, the share whose answer a passage shown holds /
  none holds (an answer half in the passages is undetermined: counted in the denominator);
- `invented`: of all the answers, the share wrong and found in no passage shown (the
  hallucination rate), beside `made_up`, the share wrong (what the board calls making up an
  answer on the rejection questions);
- `from_passage`, `from_noise`, `from_altered`: of the wrong answers, the share taken from a passage
  shown (any role), from a noise passage, from an altered one; `invented_of_made_up`: of the wrong
  answers, the share invented (on the rejection questions: how much of "made up" is invented
  rather than copied from an unrelated passage);
- `copied_noise`: of all the answers, the share wrong and taken from a noise passage;
- `undetermined`: of all the answers, the share the check cannot place;
- `relevant`: relevance by code where the question fixes the answer's type (a date, a number or
  a person, `scoring.relevance.relevant_type`): of the answers to such questions that do not
  refuse or claim an error, the share giving a number or date the question does not already
  hold, or, to a who-question, a name it does not hold;
- `omission` (integration only, `scoring.grounding.omitted`): of the answers to questions with
  several elements that state an element a passage shown holds (the passages holding two or
  more), the share that miss another element a passage shown holds.

The conflict track (one folder per instruction) gets the same partition and the figures of
CONFLICT_FIGURES per (language, condition), the passages' roles declared by the condition (a true
passage is gold, an altered one altered): among them `copied_altered`, the share of all the
answers wrong and taken from the altered passage, whether or not they repeat the planted answer
verbatim. As the track's other figures, Wilson's interval over the answers (one per question and
condition).

Mode strict only (the ranked mode; the categories rest on strict's outcome). Every rate gets the
interval of the other outcome shares (`stats.outcomes.share`: Wilson at the cluster-bootstrap
effective n of the questions with a non-zero denominator, the draws the cells of the data file
share), so a figure and its n are comparable with the board's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.schema import (
    ConflictGroundingCell,
    ConflictGroundingScore,
    GroundingCell,
    GroundingScore,
)
from leaderboard.core.types import ABILITIES, CONFLICT, LANGS, PROBES, Ability, Lang
from leaderboard.protocol.conflicts import ORDER
from leaderboard.scoring.grounding import MODE, Grounding, grounding, omitted
from leaderboard.scoring.outcome import ScoredItem, outcome
from leaderboard.scoring.relevance import relevant_type
from leaderboard.stats.cells import Cell
from leaderboard.stats.intervals import wilson_share
from leaderboard.stats.outcomes import share

CellsByKey = dict[tuple[Lang, Ability, str], dict[float, Cell]]

# the partition of the answers one cell row counts (a wrong answer from a passage by its role)
BUCKETS = (
    "correct_grounded",
    "correct_from_memory",
    "wrong_from_gold",
    "wrong_from_noise",
    "wrong_from_altered",
    "invented",
    "refused",
    "error_claimed",
    "undetermined",
)
_FROM = ("wrong_from_gold", "wrong_from_noise", "wrong_from_altered")

# metric -> (numerator buckets (or the outcome "wrong"), denominator: "all", "correct" or "wrong"
# (the outcome), "typed" (a question fixing the answer's type), "omissible" (omission defined),
# definition)
FIGURES: dict[str, tuple[tuple[str, ...], str, str]] = {
    "grounded": (
        ("correct_grounded",),
        "correct",
        "Of the correct answers, the share whose answer a passage shown holds (grounded).",
    ),
    "from_memory": (
        ("correct_from_memory",),
        "correct",
        "Of the correct answers, the share whose answer no passage shown holds (from memory).",
    ),
    "invented": (
        ("invented",),
        "all",
        "Of all the answers, the share wrong and found in no passage shown: the hallucination "
        "rate.",
    ),
    "made_up": (
        ("wrong",),
        "all",
        "Of all the answers, the share wrong (neither refusing, right nor claiming an error): "
        "the made-up rate.",
    ),
    "from_passage": (
        _FROM,
        "wrong",
        "Of the wrong answers, the share taken from a passage shown (any role).",
    ),
    "from_noise": (
        ("wrong_from_noise",),
        "wrong",
        "Of the wrong answers, the share taken from a noise passage.",
    ),
    "from_altered": (
        ("wrong_from_altered",),
        "wrong",
        "Of the wrong answers, the share taken from an altered passage (one stating a planted "
        "fake answer).",
    ),
    "invented_of_made_up": (
        ("invented",),
        "wrong",
        "Of the wrong answers, the share invented (found in no passage shown).",
    ),
    "copied_noise": (
        ("wrong_from_noise",),
        "all",
        "Of all the answers, the share wrong and taken from a noise passage.",
    ),
    "undetermined": (
        ("undetermined",),
        "all",
        "Of all the answers, the share the check by code cannot place (counted, never guessed).",
    ),
    "relevant": (
        ("relevant",),
        "typed",
        "Of the answers to questions asking for a date, a number or a person (not refused, no "
        "error claimed), the share giving a number or date, or for a who-question a name, the "
        "question does not already hold.",
    ),
    "omission": (
        ("omitted",),
        "omissible",
        "Of the integration answers to questions with several elements that state an element a "
        "passage shown holds (the passages holding two or more), the share missing another "
        "element a passage shown holds.",
    ),
}

# the conflict track's figures per (language, condition): FIGURES' partition figures, and the
# share of all the answers wrong and taken from the altered passage
CONFLICT_FIGURES: dict[str, tuple[tuple[str, ...], str, str]] = {
    **{k: v for k, v in FIGURES.items() if k not in ("relevant", "omission")},
    "copied_altered": (
        ("wrong_from_altered",),
        "all",
        "Of all the answers, the share wrong and taken from the altered passage (the planted "
        "answer, or another span only the altered passage holds).",
    ),
}


def bucket(g: Grounding) -> str:
    """The BUCKETS part of one answer's grounding."""
    if g.category == "wrong_from_passage":
        return f"wrong_from_{g.role}"
    return g.category


@dataclass(frozen=True)
class Placed:
    """One answer with its grounding and outcome, for the cells and figures."""

    item: ScoredItem
    grounding: Grounding
    outcome: str
    relevant: bool | None  # None: the question fixes no type, or the answer refuses
    omitted: tuple[str, ...] | None = None  # integration: elements held and missed (omitted)


def _relevant(item: ScoredItem, kind: str) -> bool | None:
    if kind in ("refused", "error_claimed"):
        return None
    if item.error is not None:
        return (
            False
            if relevant_type("", item.instance.query, item.instance.lang) is not None
            else None
        )
    return relevant_type(item.prediction, item.instance.query, item.instance.lang)


def place(items: Sequence[ScoredItem]) -> list[Placed]:
    """Every answer's grounding (scoring.grounding), strict outcome and relevance by code."""
    out = []
    for it in items:
        kind = outcome(it, MODE)
        out.append(Placed(it, grounding(it), kind, _relevant(it, kind), omitted(it)))
    return out


def _key_order() -> dict[Ability, int]:
    return {a: i for i, a in enumerate(ABILITIES + PROBES)}


def grounding_cells(placed: Sequence[Placed]) -> list[GroundingCell]:
    """One row per (language, ability or probe, noise rate) cell: the count in each bucket."""
    counts: dict[tuple[Lang, Ability, float], Counter[str]] = defaultdict(Counter)
    for p in placed:
        inst = p.item.instance
        counts[(inst.lang, inst.ability, float(inst.noise_rate))][bucket(p.grounding)] += 1
    order = _key_order()
    keys = sorted(counts, key=lambda k: (LANGS.index(k[0]), order[k[1]], k[2]))
    return [
        GroundingCell(
            lang=lang,
            ability=ability,
            noise_rate=rate,
            n=sum(counts[(lang, ability, rate)].values()),
            **{b: counts[(lang, ability, rate)][b] for b in BUCKETS},
        )
        for lang, ability, rate in keys
    ]


def _vectors(placed: Sequence[Placed], cells: CellsByKey, lang: Lang, ability: Ability):
    """Per question of the ability's data file, its count of answers in each bucket, outcome and
    in all (the noise rates pooled), aligned with the cells' shared bootstrap group."""
    by_rate = cells[(lang, ability, MODE)]
    group = next(iter(by_rate.values())).group
    size = len(group.ids)
    names = (*BUCKETS, "all", "correct", "wrong", "typed", "relevant", "omissible", "omitted")
    sums = {k: np.zeros(size) for k in names}
    for p in placed:
        inst = p.item.instance
        if inst.lang != lang or inst.ability != ability:
            continue
        k = group.index[inst.id]
        sums[bucket(p.grounding)][k] += 1
        sums["all"][k] += 1
        if p.outcome in ("correct", "wrong"):
            sums[p.outcome][k] += 1
        if p.relevant is not None:
            sums["typed"][k] += 1
            sums["relevant"][k] += float(p.relevant)
        if p.omitted is not None:
            sums["omissible"][k] += 1
            sums["omitted"][k] += float(bool(p.omitted))
    return group, sums


def grounding_scores(placed: Sequence[Placed], cells: CellsByKey) -> list[GroundingScore]:
    """Every FIGURES metric per (language, ability or probe) answered, with its interval."""
    present = {(p.item.instance.lang, p.item.instance.ability) for p in placed}
    order = _key_order()
    out: list[GroundingScore] = []
    for lang, ability in sorted(present, key=lambda k: (LANGS.index(k[0]), order[k[1]])):
        group, sums = _vectors(placed, cells, lang, ability)
        for metric, (parts, den_name, definition) in FIGURES.items():
            num = sum(sums[b] for b in parts)
            den = sums[den_name]
            value, ci, n_questions = share(group, num, den)
            if value is None:
                continue
            out.append(
                GroundingScore(
                    lang=lang,
                    ability=ability,
                    metric=metric,  # type: ignore[arg-type]
                    value=value,
                    ci=ci,
                    n=int(den.sum()),
                    n_questions=n_questions,
                    definition=definition,
                )
            )
    return out


def grounding_results(
    items: Sequence[ScoredItem], cells: CellsByKey
) -> tuple[list[GroundingCell], list[GroundingScore]]:
    """The cell rows and the figures results.json stores (compute_results calls it)."""
    placed = place(items)
    return grounding_cells(placed), grounding_scores(placed, cells)


def _condition_order(key: tuple[Lang, str]) -> tuple[int, int, str]:
    lang, cond = key
    return (LANGS.index(lang), ORDER.index(cond) if cond in ORDER else len(ORDER), cond)


def conflict_grounding_results(
    items: Sequence[ScoredItem],
) -> tuple[list[ConflictGroundingCell], list[ConflictGroundingScore]]:
    """The conflict track's answers among `items`: per (language, condition), the count in each
    bucket and every CONFLICT_FIGURES metric with Wilson's interval (none without a
    denominator)."""
    groups: dict[tuple[Lang, str], list[Placed]] = defaultdict(list)
    for p in place([it for it in items if it.instance.ability == CONFLICT]):
        groups[(p.item.instance.lang, p.item.instance.condition)].append(p)
    rows: list[ConflictGroundingCell] = []
    figures: list[ConflictGroundingScore] = []
    for lang, cond in sorted(groups, key=_condition_order):
        group = groups[(lang, cond)]
        counts = Counter(bucket(p.grounding) for p in group)
        rows.append(
            ConflictGroundingCell(
                lang=lang, condition=cond, n=len(group), **{b: counts[b] for b in BUCKETS}
            )
        )
        dens = {
            "all": len(group),
            "correct": sum(p.outcome == "correct" for p in group),
            "wrong": sum(p.outcome == "wrong" for p in group),
        }
        for metric, (parts, den_name, definition) in CONFLICT_FIGURES.items():
            n = dens[den_name]
            if not n:
                continue
            value = sum(dens[b] if b in dens else counts[b] for b in parts) / n
            figures.append(
                ConflictGroundingScore(
                    lang=lang,
                    condition=cond,
                    metric=metric,  # type: ignore[arg-type]
                    value=value,
                    ci=wilson_share(value, n),
                    n=n,
                    definition=definition,
                )
            )
    return rows, figures

"""Who labelled the strict audit's disagreement set, and how far the annotators agreed.

Every answer of the disagreement set (labels/audit/<lang>.jsonl, ids `<lang>-dis-…`) is read by two
annotators, each blind to both scoring modes' verdicts; where their codes differ a third, also
blind to the verdicts, settles it from the two codes and their reasons. The label the audit uses
(`labels` of the audit line) is the settled one. `labels/audit/annotations.jsonl` keeps both
readings, so a reader can see how reliable the labels themselves are (the ceiling any scorer can
reach) and strict's agreement with the first annotator alone (the labels of the earlier rounds).

The file is data beside the labels (outside the scoring version, like them); this module reads and
checks it (pydantic, one-line errors naming file, line and field) and gives the figures that
audits/strict/after-agreement.json records and the methodology page shows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

from leaderboard.core.errors import DataError
from leaderboard.core.types import LANGS, MODES
from leaderboard.scoring.labelled import LabelledItem, Labels, read_labelled, validated_line
from leaderboard.scoring.score import score_both
from leaderboard.stats.scorer_eval import agrees, select, wilson_count

ANNOTATIONS = "labels/audit/annotations.jsonl"


class _Annotation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    first: Labels
    second: Labels
    settled: Labels
    adjudicated: bool
    note_second: str
    note_adjudicated: str


@dataclass(frozen=True)
class Annotation:
    """Two blind readings of one audit answer and the label settled from them."""

    id: str
    first: Labels
    second: Labels
    settled: Labels
    adjudicated: bool
    note_second: str
    note_adjudicated: str

    @property
    def same(self) -> bool:
        """Did the two annotators give the answer the same four labels?"""
        return self.first == self.second


def parse_annotation(text: str, where: str, index: int) -> Annotation:
    """One line of annotations.jsonl; a line whose settled label does not follow from its two
    readings fails like any bad field (file, line, field)."""
    line = validated_line(_Annotation, text, where)
    agreeing = line.first == line.second
    if agreeing and (line.adjudicated or line.settled != line.first):
        raise DataError(f"{where}: field settled: the annotators agree, so it is their label")
    if not agreeing and not line.adjudicated:
        raise DataError(f"{where}: field adjudicated: the annotators differ, so a third settles it")
    return Annotation(
        line.id,
        line.first,
        line.second,
        line.settled,
        line.adjudicated,
        line.note_second,
        line.note_adjudicated,
    )


@cache
def annotations() -> dict[str, Annotation]:
    """Every double-annotated audit answer by id (empty when the file is absent)."""
    path = resources.files("leaderboard.scoring").joinpath(ANNOTATIONS)
    if not path.is_file():
        return {}
    items = read_labelled(ANNOTATIONS, path.read_text("utf-8"), parse_annotation, lambda a: a.id)
    return {a.id: a for a in items}


def check_annotations() -> list[str]:
    """What does not hold between annotations.jsonl and the audit sets: each problem one line.
    Every disagreement-set answer is double annotated, and its audit label is the settled one."""
    notes = annotations()
    problems = []
    for lang in LANGS:
        for item in select("all", (lang,), "dis", "audit")[lang]:
            a = notes.get(item.id)
            if a is None:
                problems.append(f"{ANNOTATIONS}: {item.id}: not double annotated")
            elif a.settled != item.labels:
                problems.append(f"{ANNOTATIONS}: {item.id}: settled label differs from the audit's")
    return problems


def _code(labels: Labels) -> str:
    return "".join(k for k, v in labels.model_dump().items() if v)


def code_kappa(pairs: list[Annotation]) -> float | None:
    """Cohen's kappa of the two readings over their whole code (correct, rejected, error detected,
    corrected together: one category each), so a disagreement on any label counts; None when
    chance agreement is 1 (both readings one code throughout) or there is nothing to compare."""
    if not pairs:
        return None
    n = len(pairs)
    a, b = Counter(_code(p.first) for p in pairs), Counter(_code(p.second) for p in pairs)
    chance = sum(a[c] * b[c] for c in a) / (n * n)
    observed = sum(p.same for p in pairs) / n
    return None if chance >= 1 else (observed - chance) / (1 - chance)


def _first_only(item: LabelledItem) -> LabelledItem:
    a = annotations().get(item.id)
    return item if a is None else replace(item, labels=a.first)


def annotator_rows(split: str) -> list[dict[str, object]]:
    """Per language and "all": how many disagreement-set answers the two annotators labelled
    alike (every label), with its Wilson interval, Cohen's kappa over the whole code, how many a
    third settled; and each mode's agreement with the first annotator's
    labels alone (`first_<mode>`: agree, n, rate, ci)."""
    chosen = select(split, LANGS, "dis", "audit")
    notes = annotations()
    rows = []
    for lang in (*LANGS, "all"):
        items = [i for lg in LANGS for i in chosen[lg]] if lang == "all" else chosen[lang]
        pairs = [notes[i.id] for i in items if i.id in notes]
        same = sum(a.same for a in pairs)
        row: dict[str, object] = {
            "lang": lang,
            "split": split,
            "n": len(pairs),
            "agree": same,
            "rate": same / len(pairs) if pairs else None,
            "ci": wilson_count(same, len(pairs)),
            "kappa": code_kappa(pairs),
            "adjudicated": sum(a.adjudicated for a in pairs),
        }
        firsts = [_first_only(i) for i in items]
        scores = [score_both(i.prediction, i.instance) for i in firsts]
        for mode in MODES:
            k = sum(agrees(i, s[mode], mode) for i, s in zip(firsts, scores, strict=True))
            row[f"first_{mode}"] = {
                "agree": k,
                "n": len(firsts),
                "rate": k / len(firsts) if firsts else None,
                "ci": wilson_count(k, len(firsts)),
            }
        rows.append(row)
    return rows

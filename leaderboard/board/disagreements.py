"""The disagreement audit: every committed answer where `rgb` and `strict` judge differently.

`strict` ranks the board and promises the reference metric with its known flaws fixed, so each
answer where the two modes differ is either a flaw fixed or a scoring error on the ranked metric.
The audit finds them all (every RGB ability of an entry's committed answers) and names the strict
rule that made the difference (scoring/reason.py), so a reader can decide per rule which it is and
count them per model and language. The probes (chain, replacement, closedbook, closedbook_fact)
are no RGB score, but both modes score them too: `entry_disagreements(..., abilities=PROBES)`
finds theirs on instances built as the run built them (`entry_build`); the committed audits
(audits/strict/) keep to the RGB abilities, the ranked metric.

- correct (rgb: no missed element and some found; strict: Score.correct): strict lower names the
  rule that withheld credit (copy, candidate list, hedge, negated, fake answer, refusal, or
  `not_found`: the gold is not at a boundary of the normal form, e.g. 60.39亿 for 60.39); strict
  higher is `normal_form` (十二 for 12, 1,361 for 1361) or `rgb_refusal` (the reference's 信息不足
  took the labels);
- rejected: strict higher is `refusal` (the response's own refusal in other words), rgb higher is
  `refusal_not_own` (an answer comes first, or the phrase is reported speech);
- error detected: `error_claim` and `error_not_own` likewise.

A generation failure is wrong in both modes and never differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import Entry
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import ABILITIES, Ability, Lang, Score, TestInstance
from leaderboard.scoring.outcome import answer_found
from leaderboard.scoring.reason import StrictReason
from leaderboard.scoring.reference import score_rgb
from leaderboard.scoring.strict import judge_strict

Kind = Literal["correct", "rejected", "error_detected"]
KINDS: tuple[Kind, ...] = ("correct", "rejected", "error_detected")


@dataclass(frozen=True)
class Disagreement:
    """One answer and one judgement (`kind`) the modes differ on: which mode said yes (`strict`
    True: strict yes, rgb no) and the strict rule that made the difference."""

    entry: str
    key: str
    lang: Lang
    ability: Ability
    noise_rate: float
    kind: Kind
    strict: bool
    rule: str
    prediction: str
    instance: TestInstance
    reason: StrictReason

    def as_dict(self) -> dict[str, object]:
        return {
            "entry": self.entry,
            "key": self.key,
            "lang": self.lang,
            "ability": self.ability,
            "noise_rate": self.noise_rate,
            "kind": self.kind,
            "rgb": not self.strict,
            "strict": self.strict,
            "rule": self.rule,
            "question": self.instance.query,
            "answer": [a if isinstance(a, str) else list(a) for a in self.instance.answer],
            "prediction": self.prediction,
            "reason": self.reason.as_dict(),
        }


def _values(rgb: Score, strict: Score) -> dict[Kind, tuple[bool, bool]]:
    return {
        "correct": (answer_found(rgb, "rgb"), answer_found(strict, "strict")),
        "rejected": (rgb.rejected, strict.rejected),
        "error_detected": (rgb.error_detected, strict.error_detected),
    }


def difference_rule(kind: Kind, strict_yes: bool, rgb: Score, reason: StrictReason) -> str:
    """The strict rule behind one difference (module docstring)."""
    if kind == "correct":
        if strict_yes:
            return "rgb_refusal" if rgb.labels == (-1,) else "normal_form"
        return reason.withheld or "not_found"
    if kind == "rejected":
        return "refusal" if strict_yes else "refusal_not_own"
    return "error_claim" if strict_yes else "error_not_own"


def answer_disagreements(
    entry: str, record: PredictionRecord, instance: TestInstance
) -> list[Disagreement]:
    """The judgements one answer gets differently from the two modes (none for a failure)."""
    if record.error is not None:
        return []
    rgb = score_rgb(record.prediction, instance)
    strict, reason = judge_strict(record.prediction, instance)
    out = []
    for kind, (r, s) in _values(rgb, strict).items():
        if r != s:
            rule = difference_rule(kind, s, rgb, reason)
            out.append(
                Disagreement(
                    entry,
                    record.key,
                    instance.lang,
                    instance.ability,
                    instance.noise_rate,
                    kind,
                    s,
                    rule,
                    record.prediction,
                    instance,
                    reason,
                )
            )
    return out


def entry_disagreements(
    entry: Entry,
    data_root: Path,
    cache: dict | None = None,
    abilities: Sequence[Ability] = ABILITIES,
) -> list[Disagreement]:
    """Every disagreement of one entry's committed answers of `abilities` (the RGB abilities;
    PROBES for the probes), in key order."""
    cache = {} if cache is None else cache
    records = [r for r in entry.predictions if r.ability in abilities]
    passage_num, system = entry_build(entry)
    instances = entry_instances(data_root, records, cache, passage_num=passage_num, system=system)
    out: list[Disagreement] = []
    for r in records:
        inst = instances.get(r.key)
        if inst is not None:
            out += answer_disagreements(entry.id, r, inst)
    return out


@dataclass(frozen=True)
class AuditCount:
    """How many answers of one entry and language differ on one judgement by one rule."""

    entry: str
    lang: Lang
    kind: Kind
    strict: bool
    rule: str
    n: int

    def as_dict(self) -> dict[str, object]:
        return {
            "entry": self.entry,
            "lang": self.lang,
            "kind": self.kind,
            "strict": self.strict,
            "rule": self.rule,
            "n": self.n,
        }


def counts(found: Iterable[Disagreement]) -> list[AuditCount]:
    """The disagreements counted per entry, language, judgement, direction and rule (sorted)."""
    c = Counter((d.entry, d.lang, d.kind, d.strict, d.rule) for d in found)
    return [
        AuditCount(*k, n)
        for k, n in sorted(
            c.items(),
            key=lambda kv: (kv[0][0], kv[0][1], KINDS.index(kv[0][2]), kv[0][3], kv[0][4]),
        )
    ]


def answers_differing(found: Iterable[Disagreement]) -> dict[tuple[str, Lang], int]:
    """Distinct answers with at least one difference, per entry and language."""
    keys = {(d.entry, d.lang, d.key) for d in found}
    return dict(Counter((e, lang) for e, lang, _ in keys))

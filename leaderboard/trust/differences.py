"""What `verify` compares between a results.json and the one recomputed from its predictions,
and each difference named by where it is (a cell, a score, a provenance field).

Compared (equal within 1e-9): every row of `cells`, `scores`, `probes`, `outcomes`,
`truthfulness`, `risk_coverage`, `grounding` and `grounding_scores` (where each answer came from,
scoring/grounding.py), `conflict_grounding` and `conflict_grounding_scores` (the same for the
conflict track, per condition); `bootstrap`, `partial`, `submission_id`; provenance `fingerprint`
(also against model.yaml and every prediction, in trust/verify.py), `data_blob_ids`,
`scoring_version` (against the code now), token counts and `extra.predictions_in_results`. Not
compared: `partial_reasons` (it quotes the invocation's options) and the generating run's own
provenance (times, command, git state, versions, device, counters): they describe that run and
cannot be recomputed from its output.
"""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.core.checks import same
from leaderboard.core.schema import Results

_CELL_KEY = ("lang", "ability", "noise_rate", "mode")
_SCORE_KEY = ("lang", "mode", "ability", "metric")


@dataclass(frozen=True)
class Mismatch:
    """One compared value that differs: where (a cell, a score, a provenance field), old, new."""

    where: str
    old: object
    new: object

    def __str__(self) -> str:
        return f"{self.where}: results.json has {_show(self.old)}, recomputed {_show(self.new)}"


def _show(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, list | tuple) and all(isinstance(x, float) for x in v):
        return "[" + ", ".join(f"{x:.6g}" for x in v) + "]"
    return repr(v)


def _rows(rows: list, key: tuple[str, ...]) -> dict[str, dict]:
    out = {}
    for r in rows:
        d = r.model_dump(mode="json")
        label = "/".join(
            f"{d[k]:.1f}" if k == "noise_rate" else str(d[k]) for k in key if d.get(k) is not None
        )
        out[label] = d
    return out


def _compare_rows(kind: str, old: list, new: list, key: tuple[str, ...]) -> list[Mismatch]:
    a, b = _rows(old, key), _rows(new, key)
    out = []
    for label in sorted(a.keys() | b.keys()):
        if label not in b:
            out.append(Mismatch(f"{kind} {label}", "present", "absent"))
        elif label not in a:
            out.append(Mismatch(f"{kind} {label}", "absent", "present"))
        else:
            for f in a[label]:
                if f not in key and not same(a[label][f], b[label].get(f)):
                    out.append(Mismatch(f"{kind} {label} {f}", a[label][f], b[label].get(f)))
    return out


def compare_results(old: Results, new: Results) -> list[Mismatch]:
    """Every difference in the compared part (see the module docstring)."""
    out = _compare_rows("cell", old.cells, new.cells, _CELL_KEY)
    out += _compare_rows("score", old.scores, new.scores, _SCORE_KEY)
    out += _compare_rows(
        "probe", old.probes, new.probes, ("lang", "mode", "probe", "metric", "rates")
    )
    out += _compare_rows("outcome", old.outcomes, new.outcomes, _CELL_KEY)
    out += _compare_rows("truthfulness", old.truthfulness, new.truthfulness, _SCORE_KEY)
    out += _compare_rows(
        "risk-coverage", old.risk_coverage, new.risk_coverage, ("lang", "mode", "ability")
    )
    out += _compare_rows("conflict", old.conflicts, new.conflicts, ("lang", "condition", "metric"))
    out += _compare_rows(
        "conflict-effect", old.conflict_effects, new.conflict_effects, ("lang", "effect", "metric")
    )
    out += _compare_rows(
        "conflict-coverage", old.conflict_coverage, new.conflict_coverage, ("lang", "condition")
    )
    out += _compare_rows(
        "grounding", old.grounding, new.grounding, ("lang", "ability", "noise_rate")
    )
    out += _compare_rows(
        "grounding figure",
        old.grounding_scores,
        new.grounding_scores,
        ("lang", "ability", "metric"),
    )
    out += _compare_rows(
        "conflict grounding", old.conflict_grounding, new.conflict_grounding, ("lang", "condition")
    )
    out += _compare_rows(
        "conflict grounding figure",
        old.conflict_grounding_scores,
        new.conflict_grounding_scores,
        ("lang", "condition", "metric"),
    )
    for name in ("submission_id", "partial"):
        if getattr(old, name) != getattr(new, name):
            out.append(Mismatch(name, getattr(old, name), getattr(new, name)))
    ob, nb = old.bootstrap.model_dump(), new.bootstrap.model_dump()
    out += [Mismatch(f"bootstrap.{k}", ob[k], nb[k]) for k in ob if not same(ob[k], nb[k])]
    op, np_ = old.provenance, new.provenance
    for name in ("fingerprint", "data_blob_ids", "scoring_version"):
        if getattr(op, name) != getattr(np_, name):
            out.append(Mismatch(f"provenance.{name}", getattr(op, name), getattr(np_, name)))
    for name in ("prompt_tokens", "completion_tokens"):
        if getattr(op, name) != getattr(np_, name):
            out.append(Mismatch(f"provenance.{name}", getattr(op, name), getattr(np_, name)))
    key = "predictions_in_results"
    if op.extra.get(key) != np_.extra.get(key):
        out.append(Mismatch(f"provenance.extra.{key}", op.extra.get(key), np_.extra.get(key)))
    return out

"""Per-cell metrics: one row per (language, ability, noise rate, mode), with bootstrap CIs.

Items are laid out as per-question vectors aligned with their data file's question ids, so every
cell of one data file (and every mean over noise rates built from them) shares the same bootstrap
draws: a cluster bootstrap over questions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import CellMetrics
from leaderboard.core.types import PROBES, Ability, Lang, Mode, TestInstance
from leaderboard.data.splits import ROLE_OF_ABILITY
from leaderboard.protocol.probe_instances import supported
from leaderboard.scoring.audit import fake_equals_answer
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, corrected, effective_score
from leaderboard.stats.bootstrap import draw_weights, ratio_replicates, rng_for
from leaderboard.stats.intervals import score_interval

_VECTORS = ("correct", "rejected", "detected", "corrected", "f1", "answered", "supported")


def cluster_of(inst: TestInstance) -> tuple[str, str, int]:
    """The unit every resampling and paired test works on: one question of one data file family
    in one language (the instances of a question at several noise rates are one cluster). Cells
    draw per (language, data file) with `groups`; comparisons and tests key clusters by this."""
    return inst.lang, ROLE_OF_ABILITY[inst.ability], inst.id


@dataclass
class Group:
    """The question ids of one data file of one language, and their shared bootstrap draws."""

    ids: list[int]
    index: dict[int, int]
    weights: np.ndarray


def groups(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int,
    seed: int,
) -> dict[tuple[Lang, str], Group]:
    """One Group per (language, data file), its draws seeded by that name (stable across runs).

    The draws rest on the ids of the RGB abilities' items, so adding probe predictions never
    changes an RGB interval; ids only probes asked get their own draws, appended (a second
    stratum, seeded by the name + "/probes")."""
    ids: dict[tuple[Lang, str], set[int]] = defaultdict(set)
    extra: dict[tuple[Lang, str], set[int]] = defaultdict(set)
    for it in items:
        key = (it.instance.lang, splits[(it.instance.lang, it.instance.ability)].data_file)
        (extra if it.instance.ability in PROBES else ids)[key].add(it.instance.id)
    out = {}
    for key in sorted(set(ids) | set(extra)):
        lang, data_file = key
        ordered = sorted(ids[key])
        more = sorted(extra[key] - ids[key])
        weights = draw_weights(len(ordered), resamples, rng_for(seed, f"{lang}/{data_file}"))
        if more:
            rng = rng_for(seed, f"{lang}/{data_file}/probes")
            weights = np.hstack([weights, draw_weights(len(more), resamples, rng)])
        ordered += more
        out[key] = Group(ordered, {i: k for k, i in enumerate(ordered)}, weights)
    return out


def check_items(
    items: Sequence[ScoredItem], splits: Mapping[tuple[Lang, Ability], SplitInfo]
) -> None:
    """Refuse duplicate instances and instances whose split was not described."""
    seen: set[str] = set()
    for it in items:
        key = it.instance.key
        if key in seen:
            raise ResultsError(f"instance {key} is scored twice; keep one prediction per instance")
        seen.add(key)
        if (it.instance.lang, it.instance.ability) not in splits:
            raise ResultsError(
                f"instance {key}: no data split for {it.instance.lang}/{it.instance.ability} was "
                "given to compute_metrics; pass its SplitInfo (data file, completeness, expected n)"
            )


def cr_empty(mode: Mode) -> float:
    """CR with nothing detected: the reference reports 0; strict leaves it undefined."""
    return 0.0 if mode == "rgb" else np.nan


@dataclass
class Cell:
    """One cell's per-id vectors (aligned with its group's ids) and the resulting schema row."""

    metrics: CellMetrics
    group: Group
    present: np.ndarray
    values: dict[str, np.ndarray]
    # 1 where an item cannot be scored fairly for its ability and is left out of the strict score:
    # rejection, the passages shown hold the whole answer; counterfactual, fake answer = answer
    excluded: np.ndarray

    @property
    def bootstrapped(self) -> bool:
        return self.group.weights.shape[0] > 0

    def replicates(
        self, name: str, denominator: str | None = None, empty: float = np.nan
    ) -> np.ndarray:
        den = self.present if denominator is None else self.values[denominator]
        return ratio_replicates(self.group.weights, self.values[name], den, empty)

    def ci(
        self, name: str, denominator: str | None = None, empty: float = np.nan
    ) -> tuple[float, float] | None:
        """Wilson interval at the effective n (leaderboard.stats.intervals) of the rate
        sum(name) / sum(denominator); the denominator's questions are the clusters."""
        if not self.bootstrapped:
            return None
        den = self.present if denominator is None else self.values[denominator]
        n = int(np.count_nonzero(den))
        value = float(self.values[name].sum() / den.sum()) if n else None
        return score_interval(value, self.replicates(name, denominator, empty), n)

    def mean(self, name: str) -> float:
        x, m = self.values[name], self.present
        return float(x[m > 0].mean()) if m.any() else float("nan")

    def rate(self, name: str, keep: np.ndarray | None = None) -> tuple[float | None, np.ndarray]:
        """Share of the present items (only those with keep == 1, if given) where `name` is set,
        with its replicates (empty array without resamples); None when no item is left."""
        den = self.present if keep is None else self.present * keep
        num = self.values[name] * den
        value = float(num.sum() / den.sum()) if den.sum() > 0 else None
        reps = ratio_replicates(self.group.weights, num, den) if self.bootstrapped else None
        return value, reps


def _vectors(
    cell_items: list[ScoredItem], group: Group, mode: Mode
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    present = np.zeros(len(group.ids))
    vals = {k: np.zeros(len(group.ids)) for k in _VECTORS}
    for it in cell_items:
        k = group.index[it.instance.id]
        s = effective_score(it, mode)
        present[k] = 1
        vals["correct"][k] = s.correct
        vals["rejected"][k] = s.rejected
        vals["detected"][k] = s.error_detected
        vals["corrected"][k] = corrected(s, mode)
        vals["f1"][k] = s.token_f1 or 0.0
        vals["answered"][k] = s.correct and not s.rejected
        vals["supported"][k] = supported(it.instance.docs, it.instance.answer)
    return present, vals


def _cr(cell: Cell, mode: Mode) -> float | None:
    """Reference CR: corrected among detected (0 for rgb, undefined for strict, when none)."""
    n_detected = int(cell.values["detected"].sum())
    if n_detected:
        return float(cell.values["corrected"].sum() / n_detected)
    return 0.0 if mode == "rgb" else None


def _counterfactual_fields(cell: Cell, mode: Mode, fact: bool) -> dict[str, object]:
    """ED and CR fields: set for counterfactual cells, explicitly None for the others."""
    if not fact:
        return dict.fromkeys(("ed", "ed_ci", "cr", "cr_ci", "cr_all"))
    return {
        "ed": cell.mean("detected"),
        "ed_ci": cell.ci("detected"),
        "cr": _cr(cell, mode),
        "cr_ci": cell.ci("corrected", "detected", cr_empty(mode)),
        "cr_all": cell.mean("corrected"),
    }


def _excluded(
    ability: Ability, cell_items: list[ScoredItem], group: Group, split: SplitInfo
) -> np.ndarray:
    """Per id: 1 where the item is left out of the strict (ranked) score of its ability."""
    out = np.zeros(len(group.ids))
    if ability == "rejection":
        for i in split.answer_shown:
            if i in group.index:
                out[group.index[i]] = 1.0
    elif ability == "counterfactual":
        for it in cell_items:
            inst = it.instance
            if fake_equals_answer(inst.answer, inst.fakeanswer, inst.lang):
                out[group.index[inst.id]] = 1.0
    return out


def build_cell(
    key: tuple[Lang, Ability, float, Mode],
    cell_items: list[ScoredItem],
    group: Group,
    split: SplitInfo,
) -> Cell:
    """The metrics row of one (lang, ability, rate, mode) cell, with its per-id vectors."""
    lang, ability, rate, mode = key
    present, vals = _vectors(cell_items, group, mode)
    cell = Cell(None, group, present, vals, _excluded(ability, cell_items, group, split))  # type: ignore[arg-type]
    fact = ability == "counterfactual"
    cell.metrics = CellMetrics(
        lang=lang,
        ability=ability,
        noise_rate=rate,
        mode=mode,
        n=len(cell_items),
        n_errors=sum(it.error is not None for it in cell_items),
        expected_n=split.expected_n,
        data_file=split.data_file,
        data_complete=split.data_complete,
        accuracy=cell.mean("correct"),
        accuracy_ci=cell.ci("correct"),
        rejection_rate=cell.mean("rejected"),
        rejection_rate_ci=cell.ci("rejected"),
        over_refusal_rate=cell.mean("rejected") if rate < 1 and not fact else None,
        mean_output_chars=float(np.mean([len(it.prediction) for it in cell_items])),
        token_f1=cell.mean("f1") if mode == "strict" else None,
        token_f1_ci=cell.ci("f1") if mode == "strict" else None,
        **_counterfactual_fields(cell, mode, fact),  # type: ignore[arg-type]
    )
    return cell

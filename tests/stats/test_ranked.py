"""Paired score differences (leaderboard.stats.ranked) and the rank ranges built from them
(leaderboard.board.ranking.rank_ranges), on synthetic models with known gaps.

`python tests/stats/test_ranked.py` prints the simulation figures quoted in the report.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from leaderboard.board.load import load_entry
from leaderboard.board.paired import compare_all
from leaderboard.board.ranking import rank_ranges
from leaderboard.core.types import Score, TestInstance
from leaderboard.scoring.outcome import ScoredItem, SplitInfo
from leaderboard.stats.aggregate import interval
from leaderboard.stats.ranked import paired_differences, score_values

RATES = (0.0, 0.2, 0.4, 0.6, 0.8)
SPLITS = {("zh", "noise"): SplitInfo("zh_refine.json", True, 100)}
# Known abilities (logit scale): a and b are the same model, c is clearly below, d far below.
THETA = {"a": 1.0, "b": 1.0, "c": 0.2, "d": -1.0}
TRUE_RANKS = {"a": {1, 2}, "b": {1, 2}, "c": {3}, "d": {4}}


def _item(qid: int, rate: float, ok: bool) -> ScoredItem:
    inst = TestInstance("zh", "noise", rate, qid, "q", ("x",), ())
    score = Score((int(ok),), bool(ok), False, False, float(ok))
    return ScoredItem(inst, "x" if ok else "", None, {"rgb": score, "strict": score})


def simulate(seed: int, n: int = 100) -> dict[str, list[ScoredItem]]:
    """Models answering the same n questions at 5 noise rates; a shared per-question difficulty
    (so answers of one question are correlated, and paired comparisons have something to
    cancel)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0.0, 1.5, size=n)
    out = {}
    for name, theta in THETA.items():
        items = []
        for k, rate in enumerate(RATES):
            p = 1 / (1 + np.exp(-(theta + difficulty - 0.3 * k)))
            ok = rng.random(n) < p
            items += [_item(q, rate, bool(ok[q])) for q in range(n)]
        out[name] = items
    return out


def paired_ranks(models: dict[str, list[ScoredItem]], resamples: int = 400):
    names = sorted(models)
    sig, values = {}, {}
    for i, a in enumerate(names):
        values[a] = score_values(models[a], SPLITS, resamples, 2333)[("zh", "strict", "noise")]
        for b in names[i + 1 :]:
            d = paired_differences(models[a], models[b], SPLITS, resamples, 2333)
            sig[(a, b)] = d[("zh", "strict", "noise")].sign
    ranked = rank_ranges([(k, v.value) for k, v in values.items()], sig)
    return {r.key: (r.best, r.worst) for r in ranked}, values


def overlap_ranks(values) -> dict[str, tuple[int, int]]:
    """The rule used before: ranks from overlapping unpaired intervals (for comparison)."""
    cis = {k: interval(v) for k, v in values.items()}
    out = {}
    for k, (lo, hi) in cis.items():
        better = sum(1 for o, (olo, _) in cis.items() if o != k and olo > hi)
        not_worse = sum(1 for o, (_, ohi) in cis.items() if o != k and ohi >= lo)
        out[k] = (1 + better, 1 + not_worse)
    return out


def _covers(ranges: dict[str, tuple[int, int]]) -> bool:
    return all(TRUE_RANKS[k] <= set(range(lo, hi + 1)) for k, (lo, hi) in ranges.items())


def test_rank_ranges_from_significance() -> None:
    items = [("a", 0.9), ("b", 0.88), ("c", 0.5), ("d", None)]
    sig = {("a", "c"): 1, ("b", "c"): 1, ("a", "b"): 0}
    by = {r.key: r for r in rank_ranges(items, sig)}
    assert [r.key for r in rank_ranges(items, sig)] == ["a", "b", "c", "d"]
    assert by["a"].label == "1–2" and by["b"].label == "1–2" and by["c"].label == "3"
    assert by["d"].label == "—"
    # the reversed key order means the same; no evidence at all spans the table
    assert rank_ranges(items, {("c", "a"): -1, ("c", "b"): -1})[2].label == "3"
    assert {r.label for r in rank_ranges(items)} == {"1–3", "—"}


def test_paired_difference_of_identical_models_is_zero_and_not_significant() -> None:
    models = simulate(1)
    d = paired_differences(models["a"], models["a"], SPLITS, 200, 1)
    diff = d[("zh", "strict", "noise")]
    assert diff.diff == 0.0 and diff.ci == (0.0, 0.0) and diff.sign == 0


def test_paired_differences_only_use_shared_instances() -> None:
    models = simulate(2)
    half = [it for it in models["c"] if it.instance.id < 50]
    d = paired_differences(models["a"], half, SPLITS, 200, 1)[("zh", "strict", "noise")]
    assert d.n_questions == 50
    assert paired_differences(models["a"], [], SPLITS, 200, 1) == {}


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_rank_ranges_recover_known_gaps(seed: int) -> None:
    ranges, _values = paired_ranks(simulate(seed))
    assert _covers(ranges), ranges
    assert ranges["d"] == (4, 4), ranges  # the far gap is always resolved
    assert ranges["a"][0] == 1 and ranges["b"][0] == 1  # equal models are never split


def simulation(sims: int = 40) -> dict[str, float]:
    """Share of simulations where the ranges hold every true rank, and where each gap is
    resolved (c alone at 3), for paired comparisons and for overlapping unpaired intervals."""
    out = {"paired covers": 0, "paired c resolved": 0, "overlap covers": 0, "overlap c resolved": 0}
    for s in range(sims):
        ranges, values = paired_ranks(simulate(1000 + s))
        old = overlap_ranks(values)
        out["paired covers"] += _covers(ranges)
        out["paired c resolved"] += ranges["c"] == (3, 3)
        out["overlap covers"] += _covers(old)
        out["overlap c resolved"] += old["c"] == (3, 3)
    return {k: v / sims for k, v in out.items()}


def test_paired_ranks_resolve_gaps_that_overlap_misses() -> None:
    figures = simulation(12)
    assert figures["paired covers"] >= 0.9, figures
    assert figures["paired c resolved"] >= figures["overlap c resolved"], figures


if __name__ == "__main__":
    for k, v in simulation(200).items():
        print(f"{k:<22} {v:.3f}")


def test_compare_all_on_committed_predictions(data_root) -> None:
    """board.paired on the committed SmolLM2 predictions against the same run with every answer
    emptied: the real model is significantly better on the shared instances."""
    folder = Path(__file__).resolve().parents[2] / "submissions" / "smollm2-135m-instruct"
    real = load_entry(folder)
    empty = dataclasses.replace(
        real,
        id="zz-empty",
        predictions=tuple(p.model_copy(update={"prediction": ""}) for p in real.predictions),
    )
    none = dataclasses.replace(real, id="no-preds", predictions=())
    cmp = compare_all([real, empty, none], data_root, resamples=200)
    assert cmp.missing == ("no-preds: no predictions to compare",)
    assert cmp.not_compared == {"no-preds": "no predictions to compare"}
    sig = cmp.significance("zh", "strict", "noise")
    assert sig[(real.id, "zz-empty")] == 1
    d = cmp.by_score[("zh", "strict", "noise")][(real.id, "zz-empty")]
    noise_ids = {p.id for p in real.predictions if p.lang == "zh" and p.ability == "noise"}
    assert d.diff > 0 and d.n_questions == len(noise_ids) >= 100  # every question it answered

"""Chain attribution, context reliance and the noise cliff (stats/attribution.py, stats/cliff.py) on
hand-built scored items whose figures are worked out by hand; the RGB numbers never move."""

from __future__ import annotations

import pytest

from leaderboard.core.types import TestInstance
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.cliff import below_half, largest_drop
from leaderboard.stats.intervals import wilson_share
from leaderboard.stats.metrics import compute_metrics, compute_results

FILE = SplitInfo("en_x.json", True, 20)
RIGHT, WRONG, REFUSE = "It is Paris.", "It is Rome.", "insufficient information"

# one row per chain instance: passages hold the answer?, answer given -> attribution
ATTRIBUTION = [
    (True, RIGHT, "correct"),
    (True, WRONG, "generation_miss"),
    (True, REFUSE, "generation_miss"),
    (False, WRONG, "retrieval_miss"),
    (False, REFUSE, "retrieval_miss"),
    (False, RIGHT, "correct_without_support"),
]
CATEGORIES = ("correct", "generation_miss", "retrieval_miss", "correct_without_support")


def _inst(ability: str, rid: int, docs: tuple[str, ...], rate: float = 0.0) -> TestInstance:
    return TestInstance("en", ability, rate, rid, f"q{rid}", ("Paris",), docs)  # type: ignore[arg-type]


def _docs(holds: bool) -> tuple[str, ...]:
    return ("Paris is the capital.", "noise") if holds else ("Lyon is big.", "noise")


def _probes(items, splits=None, resamples=200):
    splits = splits or {("en", a): FILE for a in ("noise", "chain", "replacement")}
    m = compute_results(scored_items(items), splits, resamples=resamples)
    return {(e.probe, e.metric, e.mode): e for e in m.probes}, m


@pytest.mark.parametrize(("holds", "answer", "category"), ATTRIBUTION)
def test_each_instance_gets_exactly_one_attribution(holds, answer, category) -> None:
    got, _ = _probes([(_inst("chain", 1, _docs(holds)), answer, None)])
    for c in CATEGORIES:
        assert got[("chain", c, "rgb")].value == (1.0 if c == category else 0.0), c


def test_chain_table_on_the_whole_table() -> None:
    items = [(_inst("chain", i, _docs(h)), a, None) for i, (h, a, _) in enumerate(ATTRIBUTION)]
    got, _ = _probes(items)
    v = {k[1]: e.value for k, e in got.items() if k[0] == "chain" and k[2] == "rgb"}
    assert v["recall_at_k"] == pytest.approx(3 / 6)
    assert v["accuracy_given_support"] == pytest.approx(1 / 3)
    assert v["end_to_end"] == pytest.approx(2 / 6)
    assert v["loss_retrieval"] == pytest.approx(2 / 4)  # 2 retrieval misses of 4 losses
    assert v["loss_generation"] == pytest.approx(2 / 4)
    assert sum(v[c] for c in CATEGORIES) == pytest.approx(1.0)
    e = got[("chain", "recall_at_k", "rgb")]
    assert e.ci is not None and e.ci[0] <= 0.5 <= e.ci[1] and e.n_questions == 6


def test_a_generation_failure_is_a_miss_of_its_layer() -> None:
    got, _ = _probes([(_inst("chain", 1, _docs(True)), RIGHT, "timeout")])
    assert got[("chain", "generation_miss", "rgb")].value == 1.0


def test_context_reliance_is_paired_on_common_questions() -> None:
    # own positives (noise 0): questions 0-3 right, 4 wrong; replaced: only question 0 right;
    # question 5 was asked only under replacement and must not enter the difference
    own = [(_inst("noise", i, _docs(True)), RIGHT if i < 4 else WRONG, None) for i in range(5)]
    rep = [
        (_inst("replacement", i, _docs(False)), RIGHT if i == 0 else REFUSE, None) for i in range(6)
    ]
    got, m = _probes(own + rep)
    rel = got[("replacement", "context_reliance", "rgb")]
    assert rel.value == pytest.approx(4 / 5 - 1 / 5) and rel.n_questions == 5
    assert rel.ci is not None and rel.ci[0] > 0  # a paired CI: every draw keeps the gap
    assert got[("replacement", "memory_accuracy", "rgb")].value == pytest.approx(1 / 6)
    assert got[("replacement", "refusal", "rgb")].value == pytest.approx(5 / 6)
    # the RGB numbers are those of the noise items alone
    alone = compute_metrics(scored_items(own), {("en", "noise"): FILE}, resamples=200)
    assert [c for c in m.cells if c.ability == "noise"] == alone[0]
    assert m.scores == alone[1]


# hand-computed curves: [(rate, accuracy)] -> (largest drop (from, to, size), first below half)
CURVES = [
    ([(0.0, 0.8), (0.2, 0.7), (0.4, 0.3), (0.6, 0.25), (0.8, 0.1)], (0.2, 0.4, 0.4), 0.4),
    ([(0.0, 0.5), (0.2, 0.5), (0.4, 0.5), (0.6, 0.5), (0.8, 0.5)], (0.0, 0.2, 0.0), None),
    ([(0.0, 0.6), (0.2, 0.3), (0.4, 0.4), (0.6, 0.1), (0.8, 0.0)], (0.0, 0.2, 0.3), 0.6),
    ([(0.0, 0.4), (0.2, 0.5), (0.4, 0.1)], (0.2, 0.4, 0.4), 0.4),  # a rise, then the cliff
]


@pytest.mark.parametrize(("curve", "drop", "half"), CURVES)
def test_cliff_math_on_hand_computed_curves(curve, drop, half) -> None:
    frm, to, size = largest_drop(curve)
    assert (frm, to) == drop[:2] and size == pytest.approx(drop[2])
    assert below_half(curve) == half


def test_cliff_entries_from_noise_cells() -> None:
    # 10 questions; right answers per rate: 0 -> 8, 0.2 -> 7, 0.4 -> 3, 0.6 -> 3, 0.8 -> 1
    right = {0.0: 8, 0.2: 7, 0.4: 3, 0.6: 3, 0.8: 1}
    items = [
        (_inst("noise", i, _docs(True), rate), RIGHT if i < k else WRONG, None)
        for rate, k in right.items()
        for i in range(10)
    ]
    got, _ = _probes(items, {("en", "noise"): FILE})
    d = got[("cliff", "largest_drop", "rgb")]
    assert d.rates == (0.2, 0.4) and d.value == pytest.approx(0.4) and d.n_questions == 10
    assert d.ci is not None and d.ci[0] > 0  # paired: questions 3-6 always drop
    h = got[("cliff", "below_half_at", "rgb")]
    assert h.value == 0.4 and h.rates == (0.4,)


def test_rates_at_the_edges_keep_their_bounds_and_differences_are_never_a_point() -> None:
    """20 questions, every answer wrong, no passage holding the answer, nothing refused: every
    rate at 0 keeps a Wilson upper bound (z^2 / (n + z^2) at n = 20), every rate at 1 a lower
    bound, and the paired differences (nothing changes) an interval around 0, never [0, 0]."""
    n = 20
    items = [
        (_inst(ability, i, _docs(ability == "noise"), rate), WRONG, None)
        for i in range(n)
        for ability, rate in (("chain", 0.0), ("replacement", 0.0), ("noise", 0.0), ("noise", 0.2))
    ]
    got, _ = _probes(items)
    edge = wilson_share(0.0, n)[1]
    for probe, metric in (
        ("chain", "recall_at_k"),
        ("chain", "end_to_end"),
        ("chain", "correct_without_support"),
        ("chain", "generation_miss"),
        ("chain", "loss_generation"),
        ("replacement", "memory_accuracy"),
        ("replacement", "refusal"),
        ("replacement", "own_accuracy"),
    ):
        e = got[(probe, metric, "rgb")]
        assert e.value == 0.0 and e.ci is not None, metric
        assert e.ci[0] == 0.0 and e.ci[1] == pytest.approx(edge, abs=0.01) and edge > 0.1, metric
    for metric in ("retrieval_miss", "loss_retrieval"):  # every question, every loss
        e = got[("chain", metric, "rgb")]
        assert e.value == 1.0 and e.ci[1] == 1.0 and e.ci[0] == pytest.approx(1 - edge, abs=0.01)
    given = got[("chain", "accuracy_given_support", "rgb")]
    assert given.value is None and given.ci is None  # no question was supported
    for probe, metric in (("replacement", "context_reliance"), ("cliff", "largest_drop")):
        e = got[(probe, metric, "rgb")]
        assert e.value == 0.0 and e.ci is not None, metric
        assert e.ci[0] == pytest.approx(-edge, abs=0.01) and e.ci[1] == pytest.approx(
            edge, abs=0.01
        )

"""Retrieval metrics against hand-computed values (ir-measures, trec_eval definitions), the
bootstrap summary and the paired comparison."""

from __future__ import annotations

import math

import pytest

from leaderboard.retrieval.metrics import METRICS, paired, per_question, summarise, unpaired_diff

# question "a": 2 relevant (d1, d3) among 5 ranked d0..d4 (d1 at rank 2, d3 at rank 4)
# question "b": 1 relevant (x) ranked first
QRELS = {"a": {"d1": 1, "d3": 1}, "b": {"x": 1}}
RUN = {"a": ["d0", "d1", "d2", "d3", "d4"], "b": ["x", "y"]}


def _dcg(gains):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def test_binary_metrics_by_hand() -> None:
    values, skipped = per_question(QRELS, RUN)
    assert skipped == []
    a, b = {m: values[m]["a"] for m in METRICS}, {m: values[m]["b"] for m in METRICS}
    assert a["P@1"] == 0.0 and a["P@3"] == pytest.approx(1 / 3) and a["P@5"] == pytest.approx(0.4)
    assert a["P@10"] == pytest.approx(0.2)  # trec_eval divides by k, not by the list length
    assert a["R@1"] == 0.0 and a["R@3"] == 0.5 and a["R@5"] == 1.0 and a["R@10"] == 1.0
    assert a["MRR"] == 0.5
    assert a["NDCG@3"] == pytest.approx(_dcg([0, 1, 0]) / _dcg([1, 1]))
    assert a["NDCG@5"] == pytest.approx(_dcg([0, 1, 0, 1, 0]) / _dcg([1, 1]))
    assert b["P@1"] == 1.0 and b["MRR"] == 1.0 and b["NDCG@10"] == 1.0 and b["R@1"] == 1.0


def test_graded_relevance_binary_metrics_count_grade_two_only() -> None:
    qrels = {"q": {"c1": 2, "c2": 1}}
    run = {"q": ["c2", "c0", "c1"]}
    values, _ = per_question(qrels, run, rel=2)
    assert values["MRR"]["q"] == pytest.approx(1 / 3)
    assert values["P@3"]["q"] == pytest.approx(1 / 3)
    assert values["R@1"]["q"] == 0.0 and values["R@3"]["q"] == 1.0
    # NDCG uses the grades as gains: DCG = 1/log2(2) + 2/log2(4); ideal = 2 + 1/log2(3)
    assert values["NDCG@3"]["q"] == pytest.approx((1 + 1) / (2 + 1 / math.log2(3)))


def test_question_without_relevant_passage_is_left_out() -> None:
    values, skipped = per_question({"a": {"d1": 1}, "b": {"x": 1}}, {"a": ["d1"], "b": ["y"]}, 2)
    assert skipped == ["a", "b"] and values["MRR"] == {}


def test_order_is_the_retrievers_even_for_ids_trec_eval_would_reorder() -> None:
    # trec_eval breaks score ties by doc id; per_question gives strictly decreasing scores
    values, _ = per_question({"q": {"a": 1}}, {"q": ["z", "a"]})
    assert values["MRR"]["q"] == 0.5


def test_summary_mean_and_ci() -> None:
    per_q = {"MRR": {str(i): (1.0 if i % 2 else 0.0) for i in range(200)}}
    s = summarise(per_q)["MRR"]
    assert s.mean == 0.5
    assert s.ci is not None and s.ci[0] < 0.5 < s.ci[1] and s.ci[1] - s.ci[0] < 0.2


def test_paired_comparison() -> None:
    a = {str(i): 1.0 for i in range(50)}
    b = {str(i): (0.0 if i < 20 else 1.0) for i in range(50)}
    res = paired(a, b, "MRR")
    assert res.n == 50 and res.diff == pytest.approx(0.4)
    assert res.a_better == 20 and res.b_better == 0 and res.ties == 30
    assert res.ci is not None and res.ci[0] > 0 and res.p_value < 0.001
    same = paired(a, a, "MRR")
    assert same.diff == 0 and same.p_value == 1.0 and same.ci == (0.0, 0.0)


def test_unpaired_difference() -> None:
    d = unpaired_diff({"1": 1.0, "2": 1.0}, {"1": 0.0, "2": 0.5})
    assert d.mean == pytest.approx(0.75) and d.ci is not None and d.ci[0] <= 0.75 <= d.ci[1]

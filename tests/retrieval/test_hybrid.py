"""Reciprocal rank fusion, checked by hand."""

from __future__ import annotations

import pytest

from leaderboard.retrieval.base import Ranking, ranking_from_scores
from leaderboard.retrieval.hybrid import RRF_K, rrf


def test_rrf_by_hand() -> None:
    a = Ranking((0, 1, 2), (3.0, 2.0, 1.0))
    b = Ranking((2, 0, 1), (0.9, 0.8, 0.7))
    fused = rrf([a, b])
    # doc 0: 1/61 + 1/62; doc 2: 1/63 + 1/61; doc 1: 1/62 + 1/63
    k = RRF_K
    expected = {
        0: 1 / (k + 1) + 1 / (k + 2),
        2: 1 / (k + 3) + 1 / (k + 1),
        1: 1 / (k + 2) + 1 / (k + 3),
    }
    assert fused.order == (0, 2, 1)
    assert fused.scores == pytest.approx(tuple(expected[i] for i in fused.order))


def test_rrf_missing_from_one_list_and_ties_and_depth() -> None:
    a = Ranking((5, 7), (1.0, 0.5))
    b = Ranking((7, 5, 9), (1.0, 0.5, 0.1))
    fused = rrf([a, b], k=1)
    # 5: 1/2 + 1/3, 7: 1/3 + 1/2 (tie -> lower index first), 9: 1/4
    assert fused.order == (5, 7, 9)
    assert fused.scores[0] == fused.scores[1]
    assert rrf([a, b], k=1, depth=2).order == (5, 7)


def test_ranking_from_scores_is_stable_and_cut() -> None:
    r = ranking_from_scores([0.5, 0.9, 0.5, 0.1], depth=3)
    assert r.order == (1, 0, 2) and r.position(2) == 3 and r.position(3) is None

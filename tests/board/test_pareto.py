"""The Pareto front of quality against cost (leaderboard.board.pareto)."""

from __future__ import annotations

from leaderboard.board.pareto import pareto_front


def test_front_keeps_what_nothing_beats_on_both() -> None:
    points = [("fast", 1.0, 0.2), ("good", 10.0, 0.6), ("worse", 12.0, 0.5), ("mid", 3.0, 0.4)]
    assert pareto_front(points) == {"fast", "good", "mid"}


def test_ties_stay_on_the_front_and_a_lone_point_is_on_it() -> None:
    assert pareto_front([("a", 1.0, 0.5), ("b", 1.0, 0.5)]) == {"a", "b"}
    assert pareto_front([("a", 2.0, 0.1)]) == {"a"}
    assert pareto_front([("a", 1.0, 0.5), ("b", 1.0, 0.4)]) == {"a"}

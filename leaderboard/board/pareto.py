"""Quality against cost: which entries no other entry beats on both at once (the Pareto front).

An entry is on the front when no other entry has a score at least as high and a cost at least as
low, with one of the two strictly better. Ties in both keep every tied entry on the front.
"""

from __future__ import annotations

from collections.abc import Sequence


def pareto_front(points: Sequence[tuple[str, float, float]]) -> set[str]:
    """The keys of (key, cost, score) points on the front: lower cost and higher score win."""
    front = set()
    for key, cost, score in points:
        beaten = any(
            c <= cost and s >= score and (c < cost or s > score) for k, c, s in points if k != key
        )
        if not beaten:
            front.add(key)
    return front

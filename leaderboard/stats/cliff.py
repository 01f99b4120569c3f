"""The noise cliff: where a model's noise curve (accuracy at noise rates 0-0.8) breaks.

Two figures per language and mode:
- the largest drop between consecutive noise rates, acc(r_i) - acc(r_i+1) on the questions asked
  at both rates, with a paired CI (both cells share the cluster-bootstrap draws of their data
  file, so replicate k of one is paired with replicate k of the other): the paired-difference
  interval of `stats.intervals.paired_difference` (MOVER of the discordant shares, each a Wilson
  interval at the effective n), which never collapses to a point when no question changes between
  the two rates (a flat curve of a model right or wrong everywhere). The largest of four drops is
  chosen after looking at them: its interval is that of the chosen pair, not adjusted for the
  choice;
- the first noise rate whose accuracy is below half of the noise-0 accuracy ("none" when no rate
  is, reported as value None).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.core.schema import ProbeEntry
from leaderboard.core.types import DEFAULT_NOISE_RATES, Lang, Mode
from leaderboard.stats.cells import Cell
from leaderboard.stats.intervals import paired_difference

CLIFF_DEFINITIONS = {
    "largest_drop": "Largest accuracy drop between consecutive noise rates (same questions); "
    "`rates` gives the pair; paired CI (MOVER of the discordant shares, correlation from the "
    "paired cluster bootstrap).",
    "below_half_at": "First noise rate whose accuracy is below half of the noise-0 accuracy; "
    "empty (None) when no rate up to 0.8 is.",
}


@dataclass(frozen=True)
class Drop:
    """acc(frm) - acc(to) on the questions asked at both rates, with its paired interval."""

    frm: float
    to: float
    value: float
    ci: tuple[float, float] | None
    n: int


def largest_drop(accuracies: Sequence[tuple[float, float]]) -> tuple[float, float, float] | None:
    """(from rate, to rate, drop) of the largest drop of a curve [(rate, accuracy), ...] sorted by
    rate; the first one on ties; None with fewer than two points."""
    pts = sorted(accuracies)
    if len(pts) < 2:
        return None
    drops = [(a0 - a1, r0, r1) for (r0, a0), (r1, a1) in itertools.pairwise(pts)]
    # rounded so that equal drops of float accuracies tie; max keeps the first of equal drops
    best = max(drops, key=lambda d: round(d[0], 12))
    return best[1], best[2], best[0]


def below_half(accuracies: Sequence[tuple[float, float]]) -> float | None:
    """The first rate (> 0) whose accuracy is below half of the rate-0 accuracy, else None."""
    pts = dict(accuracies)
    if 0.0 not in pts:
        return None
    half = pts[0.0] / 2
    return next((r for r in sorted(pts) if r > 0 and pts[r] < half), None)


def _pair(a: Cell, b: Cell, frm: float, to: float) -> Drop:
    both = a.present * b.present
    value, ci = paired_difference(a.group.weights, a.values["correct"], b.values["correct"], both)
    return Drop(frm, to, float("nan") if value is None else value, ci, int(both.sum()))


def cliff_entries(lang: Lang, mode: Mode, cells: dict[float, Cell]) -> list[ProbeEntry]:
    """The two cliff figures of one noise curve (needs noise rate 0 and one more rate)."""
    rates = [r for r in DEFAULT_NOISE_RATES["noise"] if r in cells]
    if 0.0 not in rates or len(rates) < 2:
        return []
    drops = [_pair(cells[r0], cells[r1], r0, r1) for r0, r1 in itertools.pairwise(rates)]
    drops = [d for d in drops if d.n]
    out = []
    if drops:
        sizes = [round(d.value, 12) for d in drops]  # equal drops tie: the first one is reported
        top = drops[sizes.index(max(sizes))]
        out.append(
            ProbeEntry(
                lang=lang,
                mode=mode,
                probe="cliff",
                metric="largest_drop",
                value=top.value,
                ci=top.ci,
                n_questions=top.n,
                rates=(top.frm, top.to),
                definition=CLIFF_DEFINITIONS["largest_drop"],
            )
        )
    curve = [(r, cells[r].metrics.accuracy) for r in rates]
    at = below_half(curve)
    out.append(
        ProbeEntry(
            lang=lang,
            mode=mode,
            probe="cliff",
            metric="below_half_at",
            value=at,
            n_questions=int(cells[0.0].present.sum()),
            rates=() if at is None else (at,),
            definition=CLIFF_DEFINITIONS["below_half_at"],
        )
    )
    return out

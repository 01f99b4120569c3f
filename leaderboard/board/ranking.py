"""Numbers derived for display: score look-ups, rank ranges, coverage, zh-minus-en differences.

Rank ranges follow Chatbot Arena: a model's best possible rank is 1 + the number of models whose
lower CI bound is above its upper bound; its worst is the number of models whose upper bound is not
below its lower bound (itself included). Without CIs the point value stands in for both bounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.core.schema import DIFF_LANG, CellMetrics, Results, ScoreEntry

# Backends that answer without a model (the scripted baselines; "fake" is its former name).
TRIVIAL_BACKENDS = ("scripted", "fake")


def is_trivial_baseline(results: Results) -> bool:
    """A scripted answer policy, not a model: shown in the baseline band, never ranked."""
    return results.provenance.backend in TRIVIAL_BACKENDS


def score_entry(
    results: Results, lang: str, ability: str, mode: str, metric: str = "score"
) -> ScoreEntry | None:
    for entry in results.scores:
        if (entry.lang, entry.ability, entry.mode, entry.metric) == (lang, ability, mode, metric):
            return entry
    return None


def cell(
    results: Results, lang: str, ability: str, noise_rate: float, mode: str
) -> CellMetrics | None:
    for c in results.cells:
        if (c.lang, c.ability, c.mode) == (lang, ability, mode) and abs(
            c.noise_rate - noise_rate
        ) < 1e-9:
            return c
    return None


def cells_for(results: Results, lang: str, ability: str, mode: str) -> list[CellMetrics]:
    return sorted(
        (c for c in results.cells if (c.lang, c.ability, c.mode) == (lang, ability, mode)),
        key=lambda c: c.noise_rate,
    )


def bounds(value: float | None, ci: tuple[float, float] | None) -> tuple[float, float] | None:
    if value is None:
        return None
    return (ci[0], ci[1]) if ci is not None else (value, value)


@dataclass(frozen=True)
class Ranked:
    key: str
    value: float | None
    best: int | None
    worst: int | None

    @property
    def label(self) -> str:
        if self.best is None:
            return "—"
        return str(self.best) if self.best == self.worst else f"{self.best}–{self.worst}"


def rank_ranges(items: list[tuple[str, float | None, tuple[float, float] | None]]) -> list[Ranked]:
    """Rank (key, value, ci) triples; sorted by value (desc, then key), unranked last."""
    scored = [(k, v, bounds(v, ci)) for k, v, ci in items if v is not None]
    out: list[Ranked] = []
    for key, value, (lo, hi) in scored:
        better = sum(1 for k, _, (olo, _ohi) in scored if k != key and olo > hi)
        not_worse = sum(1 for k, _, (_olo, ohi) in scored if k != key and ohi >= lo)
        out.append(Ranked(key, value, 1 + better, 1 + not_worse))
    out.sort(key=lambda r: (-(r.value or 0.0), r.key))
    out.extend(Ranked(k, None, None, None) for k, v, _ in sorted(items) if v is None)
    return out


@dataclass(frozen=True)
class Coverage:
    n: int
    expected: int
    partial: bool
    reasons: tuple[str, ...]

    @property
    def fraction(self) -> float:
        return self.n / self.expected if self.expected else 0.0


def coverage(results: Results, lang: str | None, mode: str = "rgb") -> Coverage:
    """Instances scored vs expected over the cells of one language (None = all), one mode."""
    cells = [c for c in results.cells if c.mode == mode and (lang is None or c.lang == lang)]
    n = sum(c.n for c in cells)
    expected = sum(c.expected_n for c in cells)
    reasons: list[str] = []
    if any(not c.data_complete for c in cells):
        files = sorted({c.data_file for c in cells if not c.data_complete})
        reasons.append("partial data file: " + ", ".join(files))
    if any(c.n < c.expected_n for c in cells):
        reasons.append("not every instance run")
    entries = [
        e for e in results.scores if e.mode == mode and (lang is None or e.lang in (lang, "all"))
    ]
    if any(not e.complete for e in entries):
        reasons.append("incomplete scores (missing cells)")
    if results.partial:
        reasons.extend(results.partial_reasons or ["run marked partial"])
    reasons = sorted(set(reasons))
    return Coverage(n, expected, bool(reasons), tuple(reasons))


@dataclass(frozen=True)
class Difference:
    value: float
    ci: tuple[float, float] | None


def zh_minus_en(results: Results, ability: str, mode: str) -> Difference | None:
    """The zh - en entry the runner stored (paired percentile bootstrap, leaderboard.stats.
    aggregate): the one place the difference is computed; None when a language is missing."""
    stored = score_entry(results, DIFF_LANG, ability, mode)
    if stored is None or stored.value is None:
        return None
    return Difference(stored.value, stored.ci)

"""Numbers derived for display: score look-ups, rank ranges, coverage, zh-minus-en differences,
and which entries may be ranked at all.

Rank ranges come from paired comparisons (leaderboard.stats.ranked): for every pair of ranked
models, a paired cluster bootstrap of their score difference on the instances both answered. A
model's best rank is 1 + the number of models significantly better than it; its worst is n - the
number of models significantly worse (n ranked models). Comparing paired differences instead of
checking whether two unpaired intervals overlap uses the fact that both models answered the same
questions: question difficulty cancels, so real gaps are found with far fewer questions, and a
consistent difference is found even where the two models' own intervals overlap. A pair without a
comparison (no shared instances, or no predictions to compare) counts as not significant: the ranges
widen, never narrow, for lack of evidence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from leaderboard.backends.registry import backend_traits
from leaderboard.core.schema import (
    DIFF_LANG,
    CellMetrics,
    PredictionRecord,
    ProbeEntry,
    Results,
    ScoreEntry,
)
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.trust.attest import AttestationFile, unattested

_PINNED = re.compile(r"^([0-9a-f]{40}|sha256:[0-9a-f]{64})$")


def is_trivial_baseline(results: Results) -> bool:
    """A scripted answer policy, not a model: shown in the baseline band, never ranked."""
    return backend_traits(results.provenance.backend).trivial


def score_entry(
    results: Results, lang: str, ability: str, mode: str, metric: str = "score"
) -> ScoreEntry | None:
    for entry in results.scores:
        if (entry.lang, entry.ability, entry.mode, entry.metric) == (lang, ability, mode, metric):
            return entry
    return None


def probe_entry(
    results: Results, lang: str, probe: str, metric: str, mode: str
) -> ProbeEntry | None:
    """One figure of the probes (chain, replacement, cliff), None when not measured."""
    for e in results.probes:
        if (e.lang, e.probe, e.metric, e.mode) == (lang, probe, metric, mode):
            return e
    return None


def cliff_marks(results: Results, lang: str, mode: str) -> dict[str, object]:
    """The noise chart's cliff markers for one language and mode (Series keyword arguments)."""
    drop = probe_entry(results, lang, "cliff", "largest_drop", mode)
    half = probe_entry(results, lang, "cliff", "below_half_at", mode)
    return {
        "cliff": tuple(drop.rates) if drop is not None and len(drop.rates) == 2 else None,
        "half": half.value if half is not None else None,
    }


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


def rank_ranges(
    items: list[tuple[str, float | None]],
    significant: Mapping[tuple[str, str], int] | None = None,
) -> list[Ranked]:
    """Rank (key, value) pairs from paired significance; sorted by value (desc, then key),
    unranked (value None) last.

    significant[(a, b)] is +1 when a is significantly better than b on their shared instances,
    -1 when significantly worse, 0 (or absent) when they cannot be told apart.
    """
    sig = significant or {}

    def verdict(a: str, b: str) -> int:
        if (a, b) in sig:
            return sig[(a, b)]
        return -sig.get((b, a), 0)

    scored = [(k, v) for k, v in items if v is not None]
    n = len(scored)
    out: list[Ranked] = []
    for key, value in scored:
        better = sum(1 for k, _ in scored if k != key and verdict(k, key) > 0)
        worse = sum(1 for k, _ in scored if k != key and verdict(k, key) < 0)
        out.append(Ranked(key, value, 1 + better, n - worse))
    out.sort(key=lambda r: (-(r.value or 0.0), r.key))
    out.extend(Ranked(k, None, None, None) for k, v in sorted(items) if v is None)
    return out


def unverified_reasons(
    results: Results,
    attestation: AttestationFile | None = None,
    records: Sequence[PredictionRecord] | None = None,
) -> tuple[str, ...]:
    """Why an entry may not be ranked (empty: it may), each with what clears it: a scripted or
    fake backend is not a model, an unpinned revision names weights that can change, and answers
    written by code outside any commit (or whose git state was not recorded) count only once
    `attestation` re-generated a sample of them identically from a commit (trust.attest); with
    the run's `records`, only answers behind the ranked score count (trust.attest.unattested)."""
    p = results.provenance
    reasons = []
    if backend_traits(p.backend).trivial:
        reasons.append(f"backend {p.backend!r} is a scripted policy, not a model")
    if not (p.model_revision and _PINNED.match(p.model_revision)):
        reasons.append(
            f"model revision {p.model_revision or '(none)'!r} is not pinned to a commit or a "
            "file hash"
        )
    left = unattested(results, attestation, records)
    if left:
        reasons.append(
            f"{sum(i.answers for i in left)} answers from {len(left)} invocation(s) of "
            "uncommitted or unrecorded code, not attested; cleared by `rgb-leaderboard attest "
            f"submissions/{results.submission_id}` from a clean checkout"
        )
    return tuple(reasons)


@dataclass(frozen=True)
class Coverage:
    n: int
    expected: int
    partial: bool
    reasons: tuple[str, ...]

    @property
    def fraction(self) -> float:
        return self.n / self.expected if self.expected else 0.0


def reason_scope(reason: str) -> tuple[str | None, str | None]:
    """The language and ability a runner reason concerns ("zh/noise/0.2: n=40 of 300",
    "en/noise: partial data file ..."); (None, None) for a reason about the whole run ("--limit",
    "3 planned instances have no prediction (first: ...)"), which concerns every language."""
    head = reason.split(":", 1)[0].split("/")
    if len(head) < 2 or head[0] not in LANGS:
        return None, None
    return head[0], head[1]


def _reason_in_scope(reason: str, lang: str | None) -> bool:
    """Whether a reason concerns the RGB abilities of `lang` (None = any language)."""
    reason_lang, ability = reason_scope(reason)
    if reason_lang is None:
        return True
    return (lang is None or reason_lang == lang) and ability in ABILITIES


def coverage(results: Results, lang: str | None, mode: str = "rgb") -> Coverage:
    """Instances scored vs expected over the RGB cells of one language (None = all), one mode.

    Only the four abilities count: they are what the overall score ranks, while the probes
    (chain, replacement) run on a sample by design and have their own pages. A language's
    coverage ignores the other language's reasons, so a model complete in zh is not marked
    partial in the zh table because the English files are not obtainable.
    """
    cells = [
        c
        for c in results.cells
        if c.mode == mode and c.ability in ABILITIES and (lang is None or c.lang == lang)
    ]
    n = sum(c.n for c in cells)
    expected = sum(c.expected_n for c in cells)
    reasons: list[str] = []
    if any(not c.data_complete for c in cells):
        files = sorted({c.data_file for c in cells if not c.data_complete})
        reasons.append("partial data file: " + ", ".join(files))
    if any(c.n < c.expected_n for c in cells):
        reasons.append("not every instance run")
    entries = [e for e in results.scores if e.mode == mode and (lang is None or e.lang == lang)]
    if any(not e.complete for e in entries):
        reasons.append("incomplete scores (missing cells)")
    if results.partial:
        run_reasons = results.partial_reasons or ["run marked partial"]
        reasons.extend(r for r in run_reasons if _reason_in_scope(r, lang))
    reasons = sorted(set(reasons))
    return Coverage(n, expected, bool(reasons), tuple(reasons))


@dataclass(frozen=True)
class Difference:
    value: float
    ci: tuple[float, float] | None


def zh_minus_en(results: Results, ability: str, mode: str) -> Difference | None:
    """The zh - en entry the runner stored (Newcombe interval from the two languages' intervals,
    leaderboard.stats.aggregate): the one place the difference is computed; None when a language
    is missing."""
    stored = score_entry(results, DIFF_LANG, ability, mode)
    if stored is None or stored.value is None:
        return None
    return Difference(stored.value, stored.ci)

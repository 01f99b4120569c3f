"""The systems track: whole RAG pipelines (`backend: system`) ranked in a table of their own.

A system chooses its own passages, so its end-to-end accuracy is not comparable with a model's RGB
scores (which fix the passages): systems never enter the model tables, and models never enter this
one. Per system and language the row holds, each with its interval: end-to-end accuracy (strict and
rgb), recall@5 of the passages it cites, the retrieval-miss and generation-miss shares (all read
from results.json's chain probe, computed by stats.attribution), the latency per question (p50, p95:
percentile bootstrap over questions, from the recorded latencies) and the error share (Wilson). A
run whose error share exceeds MAX_ERROR_SHARE is shown, marked, and not ranked: its accuracy would
mostly measure its failures. A system that cites no passage on any question, or one whose
model.yaml declares `system.trivial` (a baseline strategy such as the top passage pasted), is the
floor band (a trivial system, never ranked).

Paired comparisons: every two systems, per language and mode, on the questions both answered:
end-to-end accuracy A - B with the discordant-share (MOVER) interval of the probes
(stats.intervals.discordant_difference), each question its own cluster.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from leaderboard.backends.registry import backend_traits
from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import probe_entry, reason_scope
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import LANGS, Lang, Mode
from leaderboard.scoring.outcome import scored_items, success
from leaderboard.stats.bootstrap import draw_weights, rng_for
from leaderboard.stats.intervals import discordant_difference, wilson_share

MAX_ERROR_SHARE = 0.05  # stated on the Systems page: above it a run is marked and unranked
RANK_MODE: Mode = "strict"  # the leaderboard's default mode ranks and attributes
SEED, RESAMPLES, CONFIDENCE = 2333, 1000, 0.95

Interval = tuple[float, float] | None


@dataclass(frozen=True)
class Figure:
    """A value with its interval (None when not measured)."""

    value: float | None
    ci: Interval = None


@dataclass(frozen=True)
class SystemRow:
    """One system in one language."""

    id: str
    name: str
    lang: Lang
    n: int
    partial_reasons: tuple[str, ...]
    end_to_end: dict[str, Figure]  # by mode: strict, rgb
    recall: Figure  # recall@5 of the cited passages
    retrieval_miss: Figure
    generation_miss: Figure
    latency_p50: Figure  # seconds
    latency_p95: Figure
    errors: int
    error_share: Figure
    floor: bool  # cites no passage anywhere, or declared trivial: the floor band

    @property
    def ranked(self) -> bool:
        """Over the stated error share (or the floor): shown, not ranked."""
        share = self.error_share.value
        return not self.floor and share is not None and share <= MAX_ERROR_SHARE


@dataclass(frozen=True)
class SystemPair:
    """End-to-end accuracy of system a minus system b on their shared questions."""

    lang: Lang
    mode: Mode
    a: str
    b: str
    diff: float | None
    ci: Interval
    n: int
    only_a: int  # questions a answered right and b did not
    only_b: int

    @property
    def sign(self) -> int:
        if self.ci is None:
            return 0
        return 1 if self.ci[0] > 0 else -1 if self.ci[1] < 0 else 0


@dataclass(frozen=True)
class SystemsBoard:
    rows: tuple[SystemRow, ...] = ()
    pairs: tuple[SystemPair, ...] = ()
    entries: tuple[Entry, ...] = ()
    missing: tuple[str, ...] = ()  # why some pairs could not be compared


def is_system(entry: Entry) -> bool:
    return backend_traits(entry.results.provenance.backend).retrieves_itself


def models_only(data: SiteData) -> SiteData:
    """The board without systems: what every model page is built from."""
    return dataclasses.replace(
        data, submissions=tuple(s for s in data.submissions if not is_system(s))
    )


def _chain_records(entry: Entry, lang: str) -> list[PredictionRecord]:
    return [r for r in entry.predictions if r.ability == "chain" and r.lang == lang]


def latency_quantile(
    latencies: Sequence[float], q: float, resamples: int = RESAMPLES, seed: int = SEED
) -> Figure:
    """The q-quantile of the per-question latencies and its percentile-bootstrap interval
    (questions resampled; the same draws for p50 and p95 of one sample)."""
    x = np.asarray(latencies, dtype=np.float64)
    if x.size == 0:
        return Figure(None)
    value = float(np.quantile(x, q))
    if x.size < 2 or resamples < 1:
        return Figure(value)
    rng = rng_for(seed, f"latency/{x.size}")
    reps = np.quantile(x[rng.integers(0, x.size, (resamples, x.size))], q, axis=1)
    alpha = (1 - CONFIDENCE) / 2
    return Figure(value, (float(np.quantile(reps, alpha)), float(np.quantile(reps, 1 - alpha))))


def _probe(entry: Entry, lang: str, metric: str, mode: str) -> Figure:
    e = probe_entry(entry.results, lang, "chain", metric, mode)
    if e is None or e.value is None:
        return Figure(None)
    return Figure(e.value, tuple(e.ci) if e.ci else None)  # type: ignore[arg-type]


def system_row(entry: Entry, lang: Lang) -> SystemRow | None:
    """The row of one system in one language (None when it was not run in that language)."""
    recs = _chain_records(entry, lang)
    if not recs:
        return None
    n = len(recs)
    errors = sum(r.error is not None for r in recs)
    lat = [r.latency_s for r in recs if r.latency_s is not None]
    reasons = tuple(r for r in entry.results.partial_reasons if reason_scope(r)[0] in (None, lang))
    return SystemRow(
        id=entry.id,
        name=entry.name,
        lang=lang,
        n=n,
        partial_reasons=reasons if entry.results.partial else (),
        end_to_end={m: _probe(entry, lang, "end_to_end", m) for m in ("strict", "rgb")},
        recall=_probe(entry, lang, "recall_at_k", RANK_MODE),
        retrieval_miss=_probe(entry, lang, "retrieval_miss", RANK_MODE),
        generation_miss=_probe(entry, lang, "generation_miss", RANK_MODE),
        latency_p50=latency_quantile(lat, 0.5),
        latency_p95=latency_quantile(lat, 0.95),
        errors=errors,
        error_share=Figure(errors / n, wilson_share(errors / n, n, CONFIDENCE)),
        floor=is_floor(entry, recs),
    )


def is_floor(entry: Entry, records: Sequence[PredictionRecord] | None = None) -> bool:
    """A trivial system, the floor band: it cites no passage in `records` (default: all its
    answers), or its model.yaml declares `system.trivial` (a baseline strategy that cites
    passages, the top passage pasted; declaring it can only keep an entry out of the ranking)."""
    recs = entry.predictions if records is None else records
    block = entry.model_info.get("system")
    declared = isinstance(block, dict) and block.get("trivial") is True
    return declared or all(not r.passage_ids for r in recs)


def _correct(entry: Entry, lang: Lang, root: Path, cache: dict) -> dict[int, dict[str, bool]]:
    """question id -> {mode: answered right}, each answer judged on its instance as the run
    scored it (board.instances: the passages the system cited), so a pasted passage is a copy
    here as in results.json."""
    records = _chain_records(entry, lang)
    passage_num, system = entry_build(entry)
    instances = entry_instances(root, records, cache, passage_num=passage_num, system=system)
    triples = [(instances[r.key], r.prediction, r.error) for r in records if r.key in instances]
    return {
        it.instance.id: {m: success(it, m) for m in ("strict", "rgb")}
        for it in scored_items(triples)
    }


def compare_pair(
    a: dict[int, dict[str, bool]],
    b: dict[int, dict[str, bool]],
    lang: Lang,
    mode: Mode,
    names: tuple[str, str],
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> SystemPair:
    """A - B on the shared questions, paired by question."""
    ids = sorted(set(a) & set(b))
    ya = np.array([a[i][mode] for i in ids], dtype=np.float64)
    yb = np.array([b[i][mode] for i in ids], dtype=np.float64)
    only_a, only_b = ya * (1 - yb), yb * (1 - ya)
    weights = draw_weights(len(ids), resamples, rng_for(seed, f"{lang}/systems/{len(ids)}"))
    diff, ci = discordant_difference(weights, only_a, only_b, np.ones(len(ids)), CONFIDENCE)
    return SystemPair(
        lang, mode, names[0], names[1], diff, ci, len(ids), int(only_a.sum()), int(only_b.sum())
    )


def compare_systems(entries: Sequence[Entry], root: Path | None) -> tuple[list[SystemPair], list]:
    """Every pair of systems (a < b by id), per language and mode; without the data nothing."""
    if root is None:
        return [], ["no data folder: paired comparisons need the answers"]
    cache: dict = {}
    pairs, missing = [], []
    ordered = sorted(entries, key=lambda e: e.id)
    for lang in LANGS:
        try:
            correct = {e.id: _correct(e, lang, root, cache) for e in ordered}
        except LeaderboardError as exc:  # a missing data file: say so, build the rest
            missing.append(f"{lang}: {exc}")
            continue
        for i, ea in enumerate(ordered):
            for eb in ordered[i + 1 :]:
                if not (correct[ea.id] and correct[eb.id]):
                    continue
                for mode in ("strict", "rgb"):
                    pair = compare_pair(correct[ea.id], correct[eb.id], lang, mode, (ea.id, eb.id))
                    if pair.n:
                        pairs.append(pair)
    return pairs, missing


def systems_board(data: SiteData, root: Path | None) -> SystemsBoard:
    """The systems of the board, their rows (ranked first, by strict end-to-end) and pairs."""
    entries = tuple(s for s in data.submissions if is_system(s))
    rows = [row for e in entries for lang in LANGS if (row := system_row(e, lang)) is not None]
    rows.sort(key=lambda r: (r.lang, not r.ranked, -(r.end_to_end["strict"].value or 0), r.id))
    pairs, missing = compare_systems(entries, root)
    return SystemsBoard(tuple(rows), tuple(pairs), entries, tuple(missing))

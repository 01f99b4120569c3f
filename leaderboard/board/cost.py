"""What a run cost, per machine that produced its answers (`entry_cost`, the `cost` command) and in
one line per entry (`model_costs`, the tables' cost columns): seconds per answer, tokens per answer,
peak memory and the CPU or GPU, so a submitter can plan a run before starting it.

Everything comes from the entry's own records, never from a benchmark: each prediction's
`latency_s`, `prompt_tokens` and `completion_tokens`, and results.json's provenance (the device, the
llama.cpp build, and the invocation history with each invocation's peak memory where it was
recorded). A prediction belongs to the invocation whose [started, finished] holds its `created` time
(a seeded entry: everything created up to its end). Results written before histories were kept name
one device, the last invocation's: every answer is put there and the row says so (`attributed` "last
invocation"). Pure: no file is read here, so the site and the CLI call it on a loaded `Entry`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from leaderboard.board.load import Entry
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import LANGS
from leaderboard.run.invocations import HISTORY_KEY, PEAK_KEYS, llama_build, recorded_peak

Attribution = Literal["invocations", "last invocation", "unattributed"]
UNRECORDED = "not recorded"  # the device of answers no invocation of the history covers


@dataclass(frozen=True)
class AnswerCost:
    """Figures over a set of answers (errors left out of the times and tokens, counted apart)."""

    answers: int
    errors: int
    median_s: float | None  # median seconds per answer (latency_s as the backend recorded it)
    mean_s: float | None
    total_s: float  # the sum of those seconds: generation time, without loading
    mean_prompt_tokens: float | None
    mean_completion_tokens: float | None


@dataclass(frozen=True)
class MachineCost:
    """One machine (device and llama.cpp build) of an entry and what its answers cost there."""

    device: str  # "cpu: AMD EPYC", "1x NVIDIA H200", or UNRECORDED
    build: str | None  # llama.cpp's system info (its CPU features), for the llamacpp engine
    engine: str  # the entry's backend: hf, llamacpp, openai, ...
    all: AnswerCost
    langs: tuple[tuple[str, AnswerCost], ...]  # per language, in LANGS order
    peak_rss_mib: float | None  # the largest of this machine's invocations that recorded it
    peak_gpu_mib: float | None
    attributed: Attribution


def answer_cost(records: Sequence[PredictionRecord]) -> AnswerCost:
    """Median seconds and mean tokens per answer over `records`; a failed generation is counted
    in `errors` and left out of the figures (its time is not an answer's)."""
    ok = [r for r in records if r.error is None]
    times = [r.latency_s for r in ok if r.latency_s is not None]
    prompt = [r.prompt_tokens for r in ok if r.prompt_tokens is not None]
    completion = [r.completion_tokens for r in ok if r.completion_tokens is not None]
    return AnswerCost(
        answers=len(records),
        errors=len(records) - len(ok),
        median_s=statistics.median(times) if times else None,
        mean_s=statistics.fmean(times) if times else None,
        total_s=sum(times),
        mean_prompt_tokens=statistics.fmean(prompt) if prompt else None,
        mean_completion_tokens=statistics.fmean(completion) if completion else None,
    )


def _history(entry: Entry) -> list[dict[str, object]]:
    recorded = entry.results.provenance.extra.get(HISTORY_KEY)
    if not isinstance(recorded, list):
        return []
    return [h for h in recorded if isinstance(h, dict)]


def _covers(h: dict[str, object], created: str) -> bool:
    finished = str(h.get("finished") or "")
    if h.get("seeded"):
        return created <= finished
    return str(h.get("started") or "") <= created <= finished


def _invocation_of(history: list[dict[str, object]], created: str) -> int | None:
    """The latest invocation covering `created` (timestamps are to the second: an answer written
    in the second one invocation ended and the next began is the later one's)."""
    found = [i for i, h in enumerate(history) if _covers(h, created)]
    return found[-1] if found else None


def _machine(
    device: str,
    build: str | None,
    engine: str,
    records: list[PredictionRecord],
    invocations: list[dict[str, object]],
    attributed: Attribution,
) -> MachineCost:
    langs = tuple(
        (lang, answer_cost([r for r in records if r.lang == lang]))
        for lang in LANGS
        if any(r.lang == lang for r in records)
    )
    return MachineCost(
        device=device,
        build=build,
        engine=engine,
        all=answer_cost(records),
        langs=langs,
        peak_rss_mib=recorded_peak(invocations, "peak_rss_mib"),
        peak_gpu_mib=recorded_peak(invocations, "peak_gpu_mib"),
        attributed=attributed,
    )


def entry_cost(entry: Entry) -> list[MachineCost]:
    """Per machine that produced the entry's answers (in order of first use), what they cost.

    `entry` must be loaded with its predictions (board.load.load_entry's default); an entry
    without predictions gives an empty list.
    """
    prov = entry.results.provenance
    records = list(entry.predictions)
    if not records:
        return []
    engine = prov.backend
    history = _history(entry)
    if not history:
        backend = prov.extra.get("backend")
        build = llama_build(backend) if isinstance(backend, dict) else None
        return [_machine(prov.device, build, engine, records, [], "last invocation")]
    keys: list[tuple[str, str | None]] = []
    groups: dict[tuple[str, str | None], list[PredictionRecord]] = {}
    invocations: dict[tuple[str, str | None], list[dict[str, object]]] = {}
    for h in history:
        key = (str(h.get("device") or UNRECORDED), str(h["build"]) if h.get("build") else None)
        if key not in invocations:
            keys.append(key)
            invocations[key] = []
        invocations[key].append(h)
    for r in records:
        i = _invocation_of(history, r.created)
        h = history[i] if i is not None else None
        key = (
            (str(h.get("device") or UNRECORDED), str(h["build"]) if h.get("build") else None)
            if h is not None
            else (UNRECORDED, None)
        )
        groups.setdefault(key, []).append(r)
    if (UNRECORDED, None) in groups and (UNRECORDED, None) not in keys:
        keys.append((UNRECORDED, None))
    out = []
    for key in keys:
        if key not in groups:  # an invocation whose answers were all replaced later
            continue
        unattributed = key == (UNRECORDED, None) and key not in invocations
        out.append(
            _machine(
                key[0],
                key[1],
                engine,
                groups[key],
                invocations.get(key, []),
                "unattributed" if unattributed else "invocations",
            )
        )
    return out


@dataclass(frozen=True)
class ModelCosts:
    """What the answers cost, from the predictions' own records (never ranked)."""

    answers: int  # records with a latency
    median_s: float | None  # median seconds per answer
    mean_tokens: float | None  # mean completion tokens per answer
    peak_memory_bytes: int | None  # None: the run did not record it
    hardware: tuple[str, ...]  # the devices that produced the answers, most answers first


def model_costs(e: Entry) -> ModelCosts:
    """Median seconds and mean completion tokens per answer over the predictions of the run's
    settings (records without a latency, as a reused answer, are left out of the median), the
    peak memory when a run recorded it, and the hardware of the answers (invocations)."""
    latencies = [p.latency_s for p in e.predictions if p.latency_s is not None]
    tokens = [p.completion_tokens for p in e.predictions if p.completion_tokens is not None]
    prov = e.results.provenance
    peak = _peak_memory(prov.extra)
    return ModelCosts(
        answers=len(latencies),
        median_s=statistics.median(latencies) if latencies else None,
        mean_tokens=statistics.fmean(tokens) if tokens else None,
        peak_memory_bytes=peak,
        hardware=_hardware(prov.extra, prov.device),
    )


def _peak_memory(extra: dict[str, object]) -> int | None:
    """The peak memory the runner recorded per invocation (MiB), in bytes: the GPU's where one
    was used, else the process's RSS; None when no invocation recorded it."""
    history = extra.get(HISTORY_KEY)
    history = history if isinstance(history, list) else []
    mib = next((m for k in PEAK_KEYS if (m := recorded_peak(history, k)) is not None), None)
    return round(mib * 2**20) if mib is not None else None


def _hardware(extra: dict[str, object], device: str | None) -> tuple[str, ...]:
    """Devices by the number of answers they produced (invocations), else the run's device."""
    counts: dict[str, int] = {}
    for inv in extra.get("invocations") or []:
        d = inv if isinstance(inv, dict) else {}
        name, n = d.get("device"), d.get("answers")
        if isinstance(name, str) and isinstance(n, int):
            counts[name] = counts.get(name, 0) + n
    if counts:
        return tuple(sorted(counts, key=lambda k: (-counts[k], k)))
    if device and device not in ("none", "remote"):
        return (device,)
    return ()


def hours_for(cost: AnswerCost, answers: int) -> float | None:
    """Hours of generation `answers` answers take at this machine's mean seconds per answer (the
    mean, not the median: a total is a sum, and long answers are part of it); loading excluded."""
    return cost.mean_s * answers / 3600 if cost.mean_s is not None else None

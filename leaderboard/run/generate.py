"""The generation loop: unique prompts to the backend in chunks, one prediction line per key,
appended (and fsynced by the writer) after every chunk so an interruption loses at most a chunk.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from leaderboard.backends.base import Backend
from leaderboard.core.checkout import now_iso
from leaderboard.core.errors import ResultsError
from leaderboard.core.files import PredictionWriter
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.submission import Submission
from leaderboard.core.text import TRIM_FIELD
from leaderboard.core.types import Completion, TestInstance
from leaderboard.run.plan import WorkItem


@dataclass
class GenStats:
    generated: int = 0  # unique prompts sent to the model in this invocation
    recorded: int = 0  # prediction lines written in this invocation (counted on disk)
    reused: int = 0  # keys answered from an identical prompt already on disk
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_time_s: float = 0.0  # time inside backend.generate


def _ids(c: Completion) -> list[str] | None:
    """The passage ids a `system` backend returned (None for every other backend)."""
    ids = c.extra.get("passage_ids")
    return list(ids) if isinstance(ids, list) else None  # type: ignore[arg-type]


def make_record(
    item: WorkItem, c: Completion, fingerprint: str, batch_size: int | None
) -> PredictionRecord:
    inst = item.instance
    return PredictionRecord(
        key=inst.key,
        fingerprint=fingerprint,
        lang=inst.lang,
        ability=inst.ability,
        noise_rate=inst.noise_rate,
        id=inst.id,
        prompt_sha256=item.prompt_sha256,
        passage_sha256=list(item.passage_sha256),
        prediction=c.text,
        error=c.error,
        prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens,
        latency_s=c.latency_s,
        batch_size=batch_size,
        created=now_iso(),
        trimmed_incomplete_char=bool(c.extra.get(TRIM_FIELD, False)),
        passage_ids=_ids(c),
        mean_logprob=c.mean_logprob,
        **_conflict_fields(inst),
    )


def _conflict_fields(inst: TestInstance) -> dict[str, object]:
    """A conflict instance's condition, passage roles and sources, as the prediction records
    them (nothing for any other instance, whose lines stay as they were)."""
    if not inst.condition:
        return {}
    return {"condition": inst.condition, "roles": list(inst.roles), "sources": list(inst.sources)}


def _progress_bar(total: int, enabled: bool):
    if not enabled or total == 0:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="prompt", desc="generating", file=sys.stderr, dynamic_ncols=True)


def _chunk_records(
    chunk: list[tuple[WorkItem, list[WorkItem]]],
    completions: list[Completion],
    fingerprint: str,
    declared_bs: int | None,
    stats: GenStats,
) -> list[PredictionRecord]:
    """One record per key of every group (an identical prompt is answered once for all)."""
    records = []
    for (_, group), c in zip(chunk, completions, strict=True):
        bs = c.extra.get("batch_size", declared_bs) if c.extra else declared_bs
        for item in group:
            records.append(make_record(item, c, fingerprint, bs if isinstance(bs, int) else None))
        stats.generated += 1
        stats.errors += c.error is not None
        stats.prompt_tokens += c.prompt_tokens or 0
        stats.completion_tokens += c.completion_tokens or 0
    return records


def _update_bar(bar, n: int, stats: GenStats) -> None:
    if bar is None:
        return
    bar.update(n)
    if stats.model_time_s > 0:
        tps = (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
        bar.set_postfix(tok_s=f"{tps:.0f}", errors=stats.errors)


def generate_pending(
    backend: Backend,
    sub: Submission,
    pending: list[tuple[WorkItem, list[WorkItem]]],
    writer: PredictionWriter,
    fingerprint: str,
    *,
    chunk_size: int,
    progress: bool,
    stats: GenStats,
) -> None:
    """Generate each unique prompt once, longest first, appending after every chunk."""
    config = sub.generation.to_config()
    declared_bs = sub.batch_size if isinstance(sub.batch_size, int) else None
    bar = _progress_bar(len(pending), progress)
    try:
        for start in range(0, len(pending), chunk_size):
            chunk = pending[start : start + chunk_size]
            t0 = time.perf_counter()
            completions = backend.generate([lead.request for lead, _ in chunk], config)
            stats.model_time_s += time.perf_counter() - t0
            if len(completions) != len(chunk):
                raise ResultsError(
                    f"backend {sub.backend} returned {len(completions)} completions "
                    f"for {len(chunk)} "
                    "requests (the Backend contract is exactly one per request); "
                    "nothing of this chunk "
                    "was recorded. This is a backend bug: report it."
                )
            records = _chunk_records(chunk, completions, fingerprint, declared_bs, stats)
            writer.append(records)  # write_predictions counts the lines on disk
            _update_bar(bar, len(chunk), stats)
    finally:
        if bar is not None:
            bar.close()

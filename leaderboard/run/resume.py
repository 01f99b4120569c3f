"""Resume at instance granularity: what is already on disk, whether it still matches, and what
is left to generate.

Predictions of different settings (fingerprints) or of a different prompt are never mixed; an
identical prompt already answered under another key is reused instead of generated again.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from leaderboard.core.checkout import now_iso
from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import PredictionRecord
from leaderboard.run.plan import WorkItem
from leaderboard.run.store import RunStore


def say(enabled: bool, msg: str) -> None:
    if enabled:
        print(msg, file=sys.stderr, flush=True)


def _refuse_mix(store: RunStore, others: list[str], fingerprint: str) -> ResultsError:
    return ResultsError(
        f"{store.folder}: the predictions there were made with different settings (fingerprint "
        f"{', '.join(others)}; this run is {fingerprint}). Predictions of "
        "different settings are "
        "never mixed. Use a new output folder (--out DIR), or pass "
        "--overwrite to move the old "
        "files aside (renamed *.superseded-TIME, nothing is deleted)."
    )


def load_existing(
    store: RunStore,
    fingerprint: str,
    *,
    overwrite: bool = False,
    dry_run: bool = False,
    progress: bool = True,
) -> dict[str, PredictionRecord]:
    """Predictions already on disk for this fingerprint, by key. Another fingerprint -> refuse."""
    read = store.read()
    for where in read.truncated_tail:
        say(
            progress,
            f"note: {where}: dropped a cut-off last line (interrupted write); it is regenerated",
        )
    others = sorted({r.fingerprint for r in read.records} - {fingerprint})
    if not others:
        return {r.key: r for r in read.records}
    if not overwrite:
        raise _refuse_mix(store, others, fingerprint)
    if dry_run:  # report what a real --overwrite run would do, move nothing
        say(
            progress, f"--overwrite would move aside predictions of fingerprint {', '.join(others)}"
        )
        return {}
    stamp = time.strftime("%Y%m%dT%H%M%S")
    moved = store.move_aside(stamp)
    say(progress, "moved aside: " + ", ".join(str(m) for m in moved))
    return {}


def check_prompts(
    items: Sequence[WorkItem], existing: dict[str, PredictionRecord], store: RunStore
) -> None:
    """Refuse to resume over predictions made from a prompt other than the one built now."""
    stale = [
        it.instance.key
        for it in items
        if it.instance.key in existing
        and existing[it.instance.key].prompt_sha256 != it.prompt_sha256
    ]
    if stale:
        raise ResultsError(
            f"{store.folder}: {len(stale)} stored predictions were made from a different "
            "prompt than the one "
            f"built now (first: {stale[0]}); the data or the prompt code changed. Use a new output "
            "folder (--out DIR) or --overwrite (moves the old files aside)."
        )


def copy_for(item: WorkItem, rec: PredictionRecord) -> PredictionRecord:
    """Reuse the answer to an identical prompt under another key (generated once,
    recorded for all)."""
    inst = item.instance
    return rec.model_copy(
        update={
            "key": inst.key,
            "lang": inst.lang,
            "ability": inst.ability,
            "noise_rate": inst.noise_rate,
            "id": inst.id,
            "passage_sha256": list(item.passage_sha256),
            "created": now_iso(),
        }
    )


def group_pending(
    items: Sequence[WorkItem], existing: dict[str, PredictionRecord], retry_errors: bool = False
) -> tuple[list[PredictionRecord], list[tuple[WorkItem, list[WorkItem]]]]:
    """(records reusable from identical prompts on disk, unique prompts still to generate).

    Unique prompts are sorted longest first: batches then hold similar lengths (little padding)
    and an out-of-memory shows up in the first batch rather than hours in.
    """
    by_prompt: dict[str, PredictionRecord] = {}
    for rec in existing.values():
        if rec.error is None:
            by_prompt.setdefault(rec.prompt_sha256, rec)
    reused: list[PredictionRecord] = []
    groups: dict[str, list[WorkItem]] = {}
    for it in items:
        prev = existing.get(it.instance.key)
        if prev is not None and not (retry_errors and prev.error is not None):
            continue
        if it.prompt_sha256 in by_prompt:
            reused.append(copy_for(it, by_prompt[it.prompt_sha256]))
            continue
        groups.setdefault(it.prompt_sha256, []).append(it)
    pending = [(g[0], g) for g in groups.values()]
    pending.sort(key=lambda p: -sum(len(m.content) for m in p[0].request.messages))
    return reused, pending

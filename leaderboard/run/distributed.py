"""Data parallel over processes (`accelerate launch`, torchrun): who generates what, and how
rank 0 knows everyone finished before it merges and scores.

Every process builds the same plan and takes a deterministic share of the unique prompts still
to generate: those not in the merged predictions files, sorted by key, every world-th from its
rank. The merged files change only when rank 0 merges (after all shares are done), so every
process computes the same shares however late it starts, and shards left by a crash only shrink
a share, never move work to another rank. Each process appends to its own shard file; a rank
that is done writes a marker naming its share (by digest), so a marker left by an earlier run of
other work is never taken for this one. Rank 0 waits for the markers, folds the shards into
predictions.jsonl, and only then removes shards and markers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.backends.environment import data_parallel_rank
from leaderboard.core.errors import ConfigError, ResultsError
from leaderboard.core.schema import PredictionRecord
from leaderboard.run.generate import GenStats
from leaderboard.run.plan import WorkItem
from leaderboard.run.resume import group_pending, say
from leaderboard.run.store import RunStore

TIMEOUT_ENV = "RGB_DP_TIMEOUT_S"
DEFAULT_TIMEOUT_S = 1800.0  # rank 0 gives up when a missing rank shows no progress this long
POLL_S = 0.5


@dataclass(frozen=True)
class DataParallel:
    """This process's place in the run and every rank's share (prompt sha256s)."""

    rank: int
    world: int
    shares: tuple[frozenset[str], ...]

    @property
    def mine(self) -> frozenset[str]:
        return self.shares[self.rank]

    def digest(self, rank: int, fingerprint: str) -> str:
        text = "\n".join([fingerprint, str(self.world), *sorted(self.shares[rank])])
        return hashlib.sha256(text.encode()).hexdigest()


def world() -> tuple[int, int]:
    """(rank, world size) from the launcher's environment; (0, 1) for a plain process."""
    rank, size, _local = data_parallel_rank()
    if size == 1:
        return 0, 1  # a stray RANK without WORLD_SIZE does not make a run parallel
    if not 0 <= rank < size:
        raise ConfigError(
            f"RANK={rank} is outside WORLD_SIZE={size}; start the processes with "
            "`accelerate launch` or torchrun, or unset RANK and WORLD_SIZE for one process."
        )
    return rank, size


def _merged_records(store: RunStore, fingerprint: str) -> dict[str, PredictionRecord]:
    """Records of the merged files only (not the shards), which no rank changes mid-run."""
    records: dict[str, PredictionRecord] = {}
    for rec in store.read_merged().records:
        if rec.fingerprint != fingerprint:
            continue
        prev = records.get(rec.key)
        if prev is None or (prev.error is not None and rec.error is None):
            records[rec.key] = rec
    return records


def split_work(
    items: Sequence[WorkItem],
    store: RunStore,
    fingerprint: str,
    *,
    retry_errors: bool,
    rank: int,
    world: int,
) -> DataParallel:
    """Every rank's share of the unique prompts not yet in the merged predictions files."""
    _, base = group_pending(items, _merged_records(store, fingerprint), retry_errors)
    base.sort(key=lambda p: p[0].instance.key)
    shares = tuple(
        frozenset(lead.prompt_sha256 for lead, _ in base[r::world]) for r in range(world)
    )
    return DataParallel(rank, world, shares)


def write_marker(store: RunStore, dp: DataParallel, fingerprint: str, stats: GenStats) -> None:
    """Say (atomically, durably) that this rank's share is on disk in its shard."""
    body = {
        "rank": dp.rank,
        "world": dp.world,
        "fingerprint": fingerprint,
        "share_sha256": dp.digest(dp.rank, fingerprint),
        "stats": dataclasses.asdict(stats),
        "written": time.time(),
    }
    store.write_marker(dp.rank, body)


def _valid_marker(store: RunStore, dp: DataParallel, rank: int, fingerprint: str) -> dict | None:
    body = store.read_marker(rank)
    if body is None or body.get("share_sha256") != dp.digest(rank, fingerprint):
        return None  # a marker of other work (an earlier run): not this share
    return body


def _timeout_s() -> float:
    raw = os.environ.get(TIMEOUT_ENV)
    if raw is None:
        return DEFAULT_TIMEOUT_S
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{TIMEOUT_ENV}={raw!r}: give a number of seconds") from None


def _shard_state(store: RunStore, ranks: set[int]) -> tuple[tuple[int, int], ...]:
    return tuple((r, store.shard_size(r)) for r in sorted(ranks))


def _stalled(store: RunStore, missing: set[int], world: int, timeout: float) -> ResultsError:
    ranks = ", ".join(str(r) for r in sorted(missing))
    shards = ", ".join(store.shard_path(r).name for r in sorted(missing))
    return ResultsError(
        f"{store.folder}: data-parallel rank(s) {ranks} of {world} did not finish: no completion "
        f"marker and no new predictions in {shards} for {timeout:.0f} s. Their finished "
        "predictions are kept; rerun the same command (with `accelerate launch` or as one "
        "process) to generate only what is missing, or set "
        f"{TIMEOUT_ENV} to wait longer."
    )


_IMPORTED_AT = time.time()


def process_started_at() -> float:
    """When this OS process was created (time.time() scale), before any import or planning.

    A launcher (torchrun, `accelerate launch`) spawns every rank of one launch together, after
    its rendezvous, so a rank of this launch cannot write its marker before rank 0's process
    exists; a marker from before that moment comes from an earlier launch. Rank 0's own
    planning time is no such bound: on a loaded machine another rank can plan, generate a small
    share and mark it done before rank 0 has finished importing (seen in CI). Linux: the start
    time in /proc/self/stat; elsewhere the time this module was imported."""
    try:
        stat = Path("/proc/self/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22: starttime, clock ticks
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")  # to about 20 ms
    except (OSError, ValueError, IndexError):
        return _IMPORTED_AT


def _this_launch(body: dict, since: float) -> dict:
    """A marker written before rank 0's process started (`process_started_at`) comes from an
    earlier launch that crashed before merging: its share is on disk (so it counts as done), but
    what it generated was not generated by this invocation, so its counts are left out of this
    run's provenance."""
    if float(body.get("written", since)) >= since:
        return body
    return {**body, "stats": {}, "earlier_launch": True}


def wait_for_ranks(
    store: RunStore, dp: DataParallel, fingerprint: str, *, progress: bool, since: float
) -> list[dict]:
    """Rank 0: the markers of every other rank with work, waiting while they make progress.
    `since`: when rank 0's process started (`process_started_at`), to tell markers of an
    earlier launch."""
    timeout = _timeout_s()
    missing = {r for r in range(1, dp.world) if dp.shares[r]}
    done: list[dict] = []
    if missing:
        say(progress, f"rank 0: waiting for rank(s) {sorted(missing)} to finish their shares")
    state, last_change = _shard_state(store, missing), time.monotonic()
    while missing:
        for r in sorted(missing):
            body = _valid_marker(store, dp, r, fingerprint)
            if body is not None:
                done.append(_this_launch(body, since))
                missing.discard(r)
        if not missing:
            break
        now_state = _shard_state(store, missing)
        if now_state != state:
            state, last_change = now_state, time.monotonic()
        elif time.monotonic() - last_change > timeout:
            raise _stalled(store, missing, dp.world, timeout)
        time.sleep(POLL_S)
    return done


def combine_stats(own: GenStats, markers: list[dict]) -> GenStats:
    """This invocation over all ranks: counts add up; model time is the slowest rank's (they
    ran side by side), so tokens per second is the throughput of the whole run."""
    out = dataclasses.replace(own)
    for body in markers:
        s = body.get("stats") or {}
        for f in ("generated", "recorded", "reused", "errors", "prompt_tokens"):
            setattr(out, f, getattr(out, f) + int(s.get(f, 0)))
        out.completion_tokens += int(s.get("completion_tokens", 0))
        out.model_time_s = max(out.model_time_s, float(s.get("model_time_s", 0.0)))
    return out


def describe(dp: DataParallel, own: GenStats, markers: list[dict]) -> dict[str, object]:
    """What results.json records about the split."""
    generated = {0: own.generated}
    for body in markers:
        generated[int(body["rank"])] = int((body.get("stats") or {}).get("generated", 0))
    return {
        "world_size": dp.world,
        "unique_prompts_per_rank": [len(s) for s in dp.shares],
        "generated_per_rank": [generated.get(r, 0) for r in range(dp.world)],
        "shares_finished_by_an_earlier_launch": sorted(
            int(b["rank"]) for b in markers if b.get("earlier_launch")
        ),
    }

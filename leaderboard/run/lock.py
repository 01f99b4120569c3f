"""One run per folder at a time: an exclusive lock on the run's folder.

Two `rgb-leaderboard run` of one submission started a second apart both generated everything
(368 records for 200 keys) and raced on results.json. The lock is an OS file lock (`filelock`,
fcntl on Unix), so it is released when its process ends, however it ends (kill -9 included): a
stale lock never needs deleting by hand. Next to it the holder writes who holds it (pid, host,
start time, command), which a second run prints in its one-line refusal, or waits for (`--wait`).

Under data parallelism (WORLD_SIZE > 1) only rank 0 takes the lock: the ranks of one launch share
the folder by design (each writes its own shard), and a second launch is refused by rank 0's lock.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from leaderboard.core.errors import LeaderboardError
from leaderboard.core.files import atomic_write_text
from leaderboard.core.write_errors import is_write_error, write_failed
from leaderboard.run.distributed import world
from leaderboard.run.resume import say

LOCK_NAME = ".run.lock"
HOLDER_NAME = ".run.lock.holder.json"
_HOLDER_READ_TRIES = 20  # the holder writes its file just after locking: give it ~1 s


class RunLocked(LeaderboardError):
    """Another process holds the run folder's lock (the message names it)."""


@dataclass(frozen=True)
class Holder:
    """Who holds a run folder: what the refusal prints."""

    pid: int
    host: str
    started: str
    command: str

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}, started {self.started}"


def read_holder(folder: Path) -> Holder | None:
    """The holder recorded in `folder` (None when absent or unreadable: a holder starting)."""
    try:
        data = json.loads((Path(folder) / HOLDER_NAME).read_text(encoding="utf-8"))
        return Holder(
            int(data["pid"]), str(data["host"]), str(data["started"]), str(data["command"])
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _holder_after_refusal(folder: Path) -> Holder | None:
    for _ in range(_HOLDER_READ_TRIES):
        holder = read_holder(folder)
        if holder is not None:
            return holder
        time.sleep(0.05)
    return None


def _write_holder(folder: Path, command: str) -> None:
    body = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": command,
    }
    # a full disk: the lock still holds; a refused run just cannot name the holder
    with contextlib.suppress(LeaderboardError):
        atomic_write_text(folder / HOLDER_NAME, json.dumps(body) + "\n")


@contextmanager
def run_lock(folder: Path, *, command: str = "", wait: bool = False, say=None) -> Iterator[None]:
    """Hold `folder`'s run lock for the block; RunLocked naming the holder when another process
    holds it, unless `wait` (then block until it is free, after saying whom we wait for)."""
    folder = Path(folder)
    lock = FileLock(folder / LOCK_NAME)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock.acquire(timeout=0)
    except Timeout:
        holder = _holder_after_refusal(folder)
        who = holder.describe() if holder else "a process that has not yet written its details"
        if not wait:
            raise RunLocked(
                f"{folder.as_posix()} is being run by {who}; wait for it to finish, or rerun "
                "with --wait to start when it does"
            ) from None
        if say is not None:
            say(f"waiting for {who} to finish with {folder.as_posix()} ...")
        lock.acquire()
    except OSError as exc:  # read-only or full (Timeout, an OSError too, is handled above)
        if not is_write_error(exc):
            raise
        raise write_failed(exc, folder / LOCK_NAME, "nothing was written") from None
    try:
        _write_holder(folder, command)
        yield
    finally:
        (folder / HOLDER_NAME).unlink(missing_ok=True)
        lock.release()


@contextmanager
def folder_lock(folder: Path, command: str, *, wait: bool, dry_run: bool) -> Iterator[None]:
    """What `run` holds: the folder's lock, except for a dry run (it writes nothing) and for
    data-parallel ranks above 0 (rank 0 holds it for the launch; see the module docstring)."""
    rank, _world = world()
    if dry_run or rank > 0:
        yield
        return
    with run_lock(folder, command=command, wait=wait, say=lambda m: say(True, m)):
        yield

"""The one owner of a run's folder: which files it holds, and every read and write of them.

A run folder holds predictions.jsonl.gz (compacted history), predictions.jsonl (append-only, fsynced
after every chunk), results.json (written atomically) and, under data parallelism, one shard
predictions.rank<R>.jsonl per process plus a completion marker predictions.rank<R>.jsonl.done.
Readers read the .gz, then the .jsonl, then the shards by rank, so a run killed at any moment (or a
crash between a compaction's rename and its removal of the .jsonl) leaves at worst duplicates,
which readers drop. The runner, resume and the data-parallel code ask a `RunStore` instead of
building paths themselves; the file formats are `leaderboard.core.files`. Folding shards in is
`run.fold`'s (one rule for rank shards and shard folders).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.errors import ResultsError
from leaderboard.core.files import (
    PredictionsRead,
    PredictionWriter,
    atomic_write_text,
    fsync_dir,
    read_gz_lines,
    read_prediction_files,
    read_results,
    repair_truncated_tail,
    write_results,
)
from leaderboard.core.schema import Results
from leaderboard.core.write_errors import is_write_error, write_failed

PREDICTIONS_NAME = "predictions.jsonl"
PREDICTIONS_GZ_NAME = "predictions.jsonl.gz"
RESULTS_NAME = "results.json"
COMPACT_THRESHOLD_BYTES = 1 << 20  # fold the plain file into the .gz once it passes 1 MiB
MARKER_SUFFIX = ".done"  # a rank's "my share is on disk" marker: <shard name> + suffix
_SHARD_RE = re.compile(r"^predictions\.rank(\d+)\.jsonl$")


@dataclass(frozen=True)
class RunStore:
    """A run's folder. Creating one touches nothing; the folder is made on the first write."""

    folder: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "folder", Path(self.folder))

    # -- paths ---------------------------------------------------------------------------------
    @property
    def gz_path(self) -> Path:
        return self.folder / PREDICTIONS_GZ_NAME

    @property
    def plain_path(self) -> Path:
        return self.folder / PREDICTIONS_NAME

    @property
    def results_path(self) -> Path:
        return self.folder / RESULTS_NAME

    def shard_path(self, rank: int) -> Path:
        """The file one data-parallel process appends to (no two processes share a file)."""
        return self.folder / f"predictions.rank{rank}.jsonl"

    def marker_path(self, rank: int) -> Path:
        return self.folder / (self.shard_path(rank).name + MARKER_SUFFIX)

    def shard_paths(self) -> list[Path]:
        """Shard files of the folder by rank (left by a running or crashed run)."""
        if not self.folder.is_dir():
            return []
        found = [
            (int(m.group(1)), p) for p in self.folder.iterdir() if (m := _SHARD_RE.match(p.name))
        ]
        return [p for _, p in sorted(found)]

    def marker_paths(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("predictions.rank*.jsonl" + MARKER_SUFFIX))

    def _merged_paths(self) -> list[Path]:
        return [p for p in (self.gz_path, self.plain_path) if p.exists()]

    # -- predictions ---------------------------------------------------------------------------
    def read(self) -> PredictionsRead:
        """Every prediction in the folder: merged files, then shards a crash left behind."""
        return read_prediction_files(self._merged_paths() + self.shard_paths())

    def read_merged(self) -> PredictionsRead:
        """The merged files only (not the shards), which no rank changes during a run."""
        return read_prediction_files(self._merged_paths())

    def writer(self, rank: int | None = None) -> PredictionWriter:
        """An fsyncing appender: predictions.jsonl, or this rank's shard under data parallelism."""
        return PredictionWriter(self.plain_path if rank is None else self.shard_path(rank))

    def compact(self, threshold_bytes: int = COMPACT_THRESHOLD_BYTES) -> bool:
        """Fold predictions.jsonl into predictions.jsonl.gz when the plain file passes the
        threshold. Safe at any crash point: the .gz is replaced atomically and only then is the
        .jsonl removed. Returns True if it compacted."""
        gz_path, plain_path = self.gz_path, self.plain_path
        if not plain_path.exists() or plain_path.stat().st_size < threshold_bytes:
            return False
        repair_truncated_tail(plain_path)
        if gz_path.exists():
            read_gz_lines(gz_path)  # refuse to extend a damaged archive
        tmp = gz_path.with_name(f"{gz_path.name}.{os.getpid()}.tmp")  # unique per process
        try:
            with open(tmp, "wb") as out:
                if gz_path.exists():
                    with open(gz_path, "rb") as old:
                        shutil.copyfileobj(old, out)
                # mtime=0 keeps the bytes reproducible for identical content (friendlier to git)
                with (
                    gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz,
                    open(plain_path, "rb") as s,
                ):
                    shutil.copyfileobj(s, gz)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            if is_write_error(exc):
                kept = f"{plain_path.name} and {gz_path.name} kept as they were (not compacted)"
                raise write_failed(exc, gz_path, kept) from None
            raise
        os.replace(tmp, gz_path)
        fsync_dir(self.folder)
        plain_path.unlink()
        fsync_dir(self.folder)
        return True

    def move_aside(self, stamp: str) -> list[Path]:
        """Rename every run file to NAME.superseded-STAMP (never deletes); returns the new paths."""
        moved = []
        files = [self.gz_path, self.plain_path, self.results_path]
        for p in files + self.shard_paths() + self.marker_paths():
            if p.exists():
                target = p.with_name(f"{p.name}.superseded-{stamp}")
                n = 1
                while target.exists():
                    n += 1
                    target = p.with_name(f"{p.name}.superseded-{stamp}-{n}")
                os.replace(p, target)
                moved.append(target)
        return moved

    # -- data-parallel markers -----------------------------------------------------------------
    def write_marker(self, rank: int, body: dict[str, object]) -> None:
        """Say (atomically, durably) that rank's share is on disk in its shard."""
        atomic_write_text(self.marker_path(rank), json.dumps(body))
        fsync_dir(self.folder)

    def read_marker(self, rank: int) -> dict | None:
        """A rank's marker, or None when absent or unreadable (a torn write is not a marker)."""
        try:
            body = json.loads(self.marker_path(rank).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return body if isinstance(body, dict) else None

    def clear_marker(self, rank: int) -> None:
        self.marker_path(rank).unlink(missing_ok=True)

    def shard_size(self, rank: int) -> int:
        """Bytes in a rank's shard (-1 when it does not exist yet): progress, for the wait."""
        try:
            return self.shard_path(rank).stat().st_size
        except OSError:
            return -1

    # -- results -------------------------------------------------------------------------------
    def write_results(self, results: Results) -> None:
        write_results(self.results_path, results)

    def read_results(self) -> Results:
        return read_results(self.results_path)

    def previous_results(self, fingerprint: str) -> Results | None:
        """The results.json of an earlier run of the same settings, if readable."""
        if not self.results_path.exists():
            return None
        try:
            res = self.read_results()
        except ResultsError:
            return None
        return res if res.provenance.fingerprint == fingerprint else None

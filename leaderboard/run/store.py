"""Reading and writing the two files a run leaves in a submission folder.

predictions.jsonl is append-only: one PredictionRecord per line, flushed and fsynced after
every chunk, so a run killed at any moment loses at most the line being written. When the file
grows large, `compact_predictions` folds it into predictions.jsonl.gz (the old gzip members are
copied, the new lines appended as a new member, written to a temporary file and renamed
atomically); later runs append to a fresh predictions.jsonl again. Readers always read the .gz
first and then the .jsonl, so the scheme stays append-only and resumable, and a crash between the
rename and the removal of the .jsonl only leaves duplicate lines, which readers drop.

Under data parallelism (`accelerate launch`) every process appends to its own shard
predictions.rank<R>.jsonl instead, and rank 0 folds the shards into predictions.jsonl when all are
done; readers of a folder also read shards left by a crash, so nothing finished is generated again.

results.json is written atomically (temporary file + rename) and validated on read.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import PredictionRecord, Results

PREDICTIONS_NAME = "predictions.jsonl"
PREDICTIONS_GZ_NAME = "predictions.jsonl.gz"
RESULTS_NAME = "results.json"
COMPACT_THRESHOLD_BYTES = 1 << 20  # fold the plain file into the .gz once it passes 1 MiB
MARKER_SUFFIX = ".done"  # a rank's "my share is on disk" marker: <shard name> + suffix
_SHARD_RE = re.compile(r"^predictions\.rank(\d+)\.jsonl$")


@dataclass
class PredictionsRead:
    """What was on disk: the records (first occurrence of each key wins) and what was dropped."""

    records: list[PredictionRecord]
    truncated_tail: list[str] = field(default_factory=list)  # "FILE:LINE" of a cut-off last line
    duplicates: int = 0


def predictions_paths(folder: Path) -> tuple[Path, Path]:
    """The compressed and the plain predictions file of a submission folder (either
    may be absent)."""
    folder = Path(folder)
    return folder / PREDICTIONS_GZ_NAME, folder / PREDICTIONS_NAME


def shard_name(rank: int) -> str:
    """The file one data-parallel process appends to (no two processes share a file)."""
    return f"predictions.rank{rank}.jsonl"


def shard_paths(folder: Path) -> list[Path]:
    """Data-parallel shard files of a folder, by rank (left by a running or crashed run)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := _SHARD_RE.match(p.name))]
    return [p for _, p in sorted(found)]


def marker_paths(folder: Path) -> list[Path]:
    """Completion markers of data-parallel ranks (predictions.rank<R>.jsonl.done)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(folder.glob("predictions.rank*.jsonl" + MARKER_SUFFIX))


def _format_validation(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"field '{loc}': {err['msg']}")
    return "; ".join(parts)


def _parse_lines(
    path: Path, lines: list[bytes], tolerate_tail: bool
) -> Iterator[PredictionRecord | str]:
    """Yield records; yield a "FILE:LINE" string for a cut-off final line (kill -9 mid-write)."""
    last = len(lines)
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        is_tail = lineno == last and not raw.endswith(b"\n")
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            if tolerate_tail and is_tail:
                yield f"{path}:{lineno}"
                continue
            raise ResultsError(
                f"{path}:{lineno}: not valid JSON ({exc}). Earlier lines are intact; "
                "move the damaged "
                "file aside (or restore it from version control) and rerun to "
                "regenerate what is missing."
            ) from exc
        try:
            yield PredictionRecord.model_validate(obj)
        except ValidationError as exc:
            raise ResultsError(
                f"{path}:{lineno}: invalid prediction record: {_format_validation(exc)}. "
                "Fix or remove that line, or move the file aside and rerun."
            ) from exc


def _read_gz_lines(path: Path) -> list[bytes]:
    try:
        with gzip.open(path, "rb") as fh:
            data = fh.read()
    except (OSError, EOFError) as exc:
        raise ResultsError(
            f"{path}: cannot decompress ({exc}). The compressed predictions are "
            "damaged; restore the "
            "file from version control or move it aside and rerun."
        ) from exc
    return data.splitlines(keepends=True)


def read_predictions_detailed(folder_or_file: Path) -> PredictionsRead:
    """Read every prediction of a folder (.gz, .jsonl, then shards by rank) or of one file.

    The first record of each (key, fingerprint) wins, except that a later success replaces an
    earlier error (`run --retry-errors`); records of other fingerprints are kept so the
    runner can refuse to mix them. A cut-off final line of the plain file is reported, not fatal.
    """
    target = Path(folder_or_file)
    if target.is_dir():
        gz_path, plain_path = predictions_paths(target)
        sources = [p for p in (gz_path, plain_path) if p.exists()] + shard_paths(target)
    else:
        sources = [target] if target.exists() else []
    out = PredictionsRead(records=[])
    seen: dict[tuple[str, str], int] = {}
    for path in sources:
        if path.suffix == ".gz":
            lines = _read_gz_lines(path)
            tolerate = False
        else:
            lines = path.read_bytes().splitlines(keepends=True)
            tolerate = True
        for item in _parse_lines(path, lines, tolerate):
            if isinstance(item, str):
                out.truncated_tail.append(item)
                continue
            ident = (item.key, item.fingerprint)
            if ident in seen:
                at = seen[ident]
                if out.records[at].error is not None and item.error is None:
                    out.records[at] = item  # a retried failure that now succeeded
                out.duplicates += 1
                continue
            seen[ident] = len(out.records)
            out.records.append(item)
    return out


def read_predictions(path: Path) -> list[PredictionRecord]:
    """All prediction records of a folder or file; a cut-off last line is dropped (see detailed)."""
    return read_predictions_detailed(path).records


def repair_truncated_tail(plain_path: Path) -> bool:
    """Cut a partial final line (left by kill -9) so the next append starts on a fresh line.

    Only bytes after the last newline are removed; every complete line stays. Returns True if cut.
    """
    plain_path = Path(plain_path)
    if not plain_path.exists():
        return False
    with open(plain_path, "rb+") as fh:
        data = fh.read()
        if not data or data.endswith(b"\n"):
            return False
        cut = data.rfind(b"\n") + 1
        fh.truncate(cut)
        fh.flush()
        os.fsync(fh.fileno())
    return True


class PredictionWriter:
    """Appends records to predictions.jsonl (or to a data-parallel shard named by `name`);
    every `append` call ends with flush + fsync."""

    def __init__(self, folder: Path, name: str = PREDICTIONS_NAME) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / name
        repair_truncated_tail(self.path)
        self._fh = open(self.path, "ab")  # noqa: SIM115 - closed in close()

    def append(self, records: Iterable[PredictionRecord]) -> int:
        lines = [r.model_dump_json().encode("utf-8") + b"\n" for r in records]
        if not lines:
            return 0
        self._fh.write(b"".join(lines))
        self._fh.flush()
        os.fsync(self._fh.fileno())
        return len(lines)

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> PredictionWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def compact_predictions(folder: Path, threshold_bytes: int = COMPACT_THRESHOLD_BYTES) -> bool:
    """Fold predictions.jsonl into predictions.jsonl.gz when the plain file passes the threshold.

    Safe at any crash point: the .gz is replaced atomically and only then is the .jsonl removed;
    a crash in between leaves duplicates that readers drop. Returns True if it compacted.
    """
    folder = Path(folder)
    gz_path, plain_path = predictions_paths(folder)
    if not plain_path.exists() or plain_path.stat().st_size < threshold_bytes:
        return False
    repair_truncated_tail(plain_path)
    if gz_path.exists():
        _read_gz_lines(gz_path)  # refuse to extend a damaged archive
    tmp = gz_path.with_name(gz_path.name + ".tmp")
    with open(tmp, "wb") as out:
        if gz_path.exists():
            with open(gz_path, "rb") as old:
                shutil.copyfileobj(old, out)
        # mtime=0 keeps the bytes reproducible for identical content (friendlier to git)
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz, open(plain_path, "rb") as src:
            shutil.copyfileobj(src, gz)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, gz_path)
    fsync_dir(folder)
    plain_path.unlink()
    fsync_dir(folder)
    return True


def write_results(path: Path, results: Results) -> None:
    """Write results.json atomically (a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps(results.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_results(path: Path) -> Results:
    """Load and validate results.json; errors name the file and the offending fields."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ResultsError(
            f"{path}: no results file. Run `rgb-leaderboard run` on the submission first."
        ) from exc
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultsError(
            f"{path}:{exc.lineno}: not valid JSON ({exc.msg}). Regenerate it with "
            "`rgb-leaderboard run` "
            "(predictions are kept, so nothing is generated again)."
        ) from exc
    try:
        return Results.model_validate(obj)
    except ValidationError as exc:
        raise ResultsError(
            f"{path}: invalid results file: {_format_validation(exc)}. Regenerate it with "
            "`rgb-leaderboard run` (nothing is generated again) or fix the named fields."
        ) from exc


def move_aside(paths: Iterable[Path], stamp: str) -> list[Path]:
    """Rename existing files to NAME.superseded-STAMP (never deletes); returns the new paths."""
    moved = []
    for p in paths:
        p = Path(p)
        if p.exists():
            target = p.with_name(f"{p.name}.superseded-{stamp}")
            n = 1
            while target.exists():
                n += 1
                target = p.with_name(f"{p.name}.superseded-{stamp}-{n}")
            os.replace(p, target)
            moved.append(target)
    return moved

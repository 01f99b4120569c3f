"""The two file formats a run leaves behind, read and written one file at a time.

Predictions are JSON Lines (plain, or gzip members appended over time), one `PredictionRecord` per
line; `results.json` is one `Results` object. This module knows the formats, not the folder layout:
which files make up a run, shards and markers belong to `leaderboard.run.store.RunStore`. The board
and the rescoring command read prediction files with the same functions, so there is one parser.

Every write is atomic (temporary file, fsync, rename) or an fsynced append, so a reader never sees
half a file and a kill at any moment loses at most the line being written.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from leaderboard.core.errors import ResultsError
from leaderboard.core.safe_io import gunzip, json_loads, one_line, read_bytes, read_text
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.write_errors import is_write_error, write_failed

MAX_PREDICTION_BYTES = 1 << 31  # the full protocol is ~10 MiB; anything near this is not ours


@dataclass
class PredictionsRead:
    """What was on disk: the records (first occurrence of each key wins) and what was dropped."""

    records: list[PredictionRecord]
    truncated_tail: list[str] = field(default_factory=list)  # "FILE:LINE" of a cut-off last line
    duplicates: int = 0


def format_validation(exc: ValidationError) -> str:
    """A pydantic error as "field 'a.b': message; ..." for one-line messages."""
    parts = []
    for err in exc.errors():
        loc = one_line(".".join(str(p) for p in err["loc"]) or "(root)")
        parts.append(f"field '{loc}': {one_line(err['msg'])}")
    return "; ".join(parts)


_RECORDS = TypeAdapter(list[PredictionRecord])


def _parse_lines(
    path: Path, lines: list[bytes], tolerate_tail: bool
) -> Iterator[PredictionRecord | str]:
    """Yield records; yield a "FILE:LINE" string for a cut-off final line (kill -9 mid-write).

    Whole files are validated in one call first (several times faster on large boards); only a
    file that fails is walked line by line, so the error names the line.
    """
    if lines and lines[-1].endswith(b"\n"):
        try:
            yield from _RECORDS.validate_json(
                b"[" + b",".join(raw for raw in lines if raw.strip()) + b"]"
            )
            return
        except ValidationError:
            pass
    last = len(lines)
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        is_tail = lineno == last and not raw.endswith(b"\n")
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, absurd nesting
            if tolerate_tail and is_tail:
                yield f"{path}:{lineno}"
                continue
            raise ResultsError(
                f"{path}:{lineno}: not valid JSON ({exc}). Earlier lines are intact; "
                "move the damaged file aside (or restore it from version control) and rerun to "
                "regenerate what is missing."
            ) from exc
        try:
            yield PredictionRecord.model_validate(obj)
        except ValidationError as exc:
            raise ResultsError(
                f"{path}:{lineno}: invalid prediction record: {format_validation(exc)}. "
                "Fix or remove that line, or move the file aside and rerun."
            ) from exc


def read_gz_lines(path: Path) -> list[bytes]:
    """The lines of a gzip file (every member); a damaged archive is a one-line error."""
    data = gunzip(read_bytes(path, ResultsError, MAX_PREDICTION_BYTES), path, ResultsError)
    return data.splitlines(keepends=True)


def read_prediction_files(paths: Sequence[Path]) -> PredictionsRead:
    """Read prediction files in order (.gz whole, plain files tolerating a cut-off last line).

    The first record of each (key, fingerprint) wins, except that a later success replaces an
    earlier error (`run --retry-errors`); records of other fingerprints are kept so the
    runner can refuse to mix them.
    """
    out = PredictionsRead(records=[])
    seen: dict[tuple[str, str], int] = {}
    for path in paths:
        if path.suffix == ".gz":
            lines, tolerate = read_gz_lines(path), False
        else:
            data = read_bytes(path, ResultsError, MAX_PREDICTION_BYTES)
            lines, tolerate = data.splitlines(keepends=True), True
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
        fh.truncate(data.rfind(b"\n") + 1)
        fh.flush()
        os.fsync(fh.fileno())
    return True


class PredictionWriter:
    """Appends records to one JSON Lines file; every `append` call ends with flush + fsync."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            repair_truncated_tail(self.path)
            self._fh = open(self.path, "ab")  # noqa: SIM115 - closed in close()
            self._start = self._fh.seek(0, os.SEEK_END)
        except OSError as exc:
            if is_write_error(exc):
                raise write_failed(exc, self.path, self._kept()) from None
            raise

    def _kept(self) -> str:
        """What a failed write leaves: every complete line already in the file."""
        try:
            n = self.path.read_bytes().count(b"\n")
        except OSError:
            return "the predictions already written are kept"
        return f"{n} prediction{'s' if n != 1 else ''} kept"

    def append(self, records: Iterable[PredictionRecord]) -> int:
        """Append and fsync; on a write failure (disk full, quota, read-only) the file is cut
        back to its last complete line and WriteFailed says how many predictions it keeps."""
        lines = [r.model_dump_json().encode("utf-8") + b"\n" for r in records]
        if not lines:
            return 0
        size = self._fh.tell()
        try:
            self._fh.write(b"".join(lines))
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            if not is_write_error(exc):
                raise
            self._cut_back(size)
            raise write_failed(exc, self.path, self._kept()) from None
        return len(lines)

    def lines_appended(self) -> int:
        """Complete lines this writer put in the file, counted on disk: exact even when an
        interruption (Ctrl-C, SIGTERM) lands between a write and the count `append` returns,
        so an interrupted invocation is credited with every answer it left."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._start)
                return fh.read().count(b"\n")
        except OSError:
            return 0

    def _cut_back(self, size: int) -> None:
        """Drop what a failed append wrote (part of a line), keeping every earlier line; the
        buffered bytes are discarded so closing the file writes nothing more."""
        fh, self._fh = self._fh, open(self.path, "rb+")  # noqa: SIM115 - closed in close()
        with contextlib.suppress(OSError):  # the failed append's unwritten buffer: dropped
            fh.close()
        self._fh.truncate(size)
        self._fh.seek(size)

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> PredictionWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in `folder` durable (best effort where the OS refuses)."""
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


def atomic_write_text(path: Path, text: str) -> None:
    """Write a whole text file so that a reader sees the old file or the new one, never half.

    The temporary file's name is unique per process (two processes writing one file never
    rename each other's); on a write failure it is removed, the old file stays as it was, and
    WriteFailed names the file."""
    path = Path(path)
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; keep what a plain open would give
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if is_write_error(exc):
            state = "the previous file is kept unchanged" if path.exists() else "not written"
            raise write_failed(exc, path, state) from None
        raise


def write_results(path: Path, results: Results) -> None:
    """Write results.json atomically."""
    text = json.dumps(results.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(path, text)


def read_results(path: Path) -> Results:
    """Load and validate results.json; errors name the file and the offending fields."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(
            f"{path}: no results file. Run `rgb-leaderboard run` on the submission first."
        )
    obj = json_loads(read_text(path, ResultsError), str(path), ResultsError, constants=True)
    try:
        return Results.model_validate(obj)
    except ValidationError as exc:
        raise ResultsError(
            f"{path}: invalid results file: {format_validation(exc)}. Regenerate it with "
            "`rgb-leaderboard run` (nothing is generated again) or fix the named fields."
        ) from exc


M = TypeVar("M", bound=BaseModel)


def write_model_json(path: Path, model: BaseModel) -> None:
    """Atomically replace `path` with the model's JSON (indented: readable diffs)."""
    atomic_write_text(path, model.model_dump_json(by_alias=True, indent=1) + "\n")


def read_model_json(path: Path, model: type[M], what: str, fix: str) -> M | None:
    """The `model` stored at `path`, or None when there is no such file. A bad file is an error
    of one line: the file, `what` it should be, the first line of the reason, and `fix`."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        return model.model_validate_json(path.read_bytes())
    except ValueError as exc:  # pydantic's ValidationError included
        raise ResultsError(f"{path}: not {what} ({str(exc).splitlines()[0]}); {fix}") from None

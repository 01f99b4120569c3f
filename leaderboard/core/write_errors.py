"""Write failures (disk full, quota, read-only folder, permissions) as one-line errors.

A full disk in the middle of a run must not end in a traceback (`OSError: [Errno 28] ...`): nothing
is lost, since every append is fsynced and every whole-file write is atomic. The writers catch
the OSError where they know which file they were writing and what stays on disk, and raise a
`WriteFailed` saying both and what to do; the CLI prints it as one line and exits 2. Errors of
other kinds (a bug, a missing file) are not touched.
"""

from __future__ import annotations

import errno
from pathlib import Path

from leaderboard.core.errors import LeaderboardError

# errno -> (what happened, what the user does about it)
_KINDS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("disk full", "free space"),
    errno.EDQUOT: ("disk quota exceeded", "free space or raise the quota"),
    errno.EROFS: ("read-only file system", "make the folder writable or write elsewhere"),
    errno.EACCES: ("permission denied", "make the folder writable or write elsewhere"),
    errno.EPERM: ("operation not permitted", "make the folder writable or write elsewhere"),
    errno.EFBIG: ("file too large", "free space or write elsewhere"),
}


class WriteFailed(LeaderboardError):
    """A file could not be written for lack of room or rights; the message names the file, what
    was kept, and says to rerun the same command (nothing already on disk is lost)."""


def is_write_error(exc: BaseException) -> bool:
    """True for the OSErrors a full, read-only or over-quota file system raises."""
    return isinstance(exc, OSError) and exc.errno in _KINDS


def write_failed(exc: OSError, path: Path | str, kept: str) -> WriteFailed:
    """The one-line error for `exc` raised while writing `path`, `kept` saying what stays.

    e.g. "disk full writing runs/x/predictions.jsonl: 75 predictions kept; free space and rerun
    the same command"."""
    what, fix = _KINDS.get(exc.errno or 0, (exc.strerror or "write error", "fix it"))
    where = Path(path).as_posix()
    return WriteFailed(f"{what} writing {where}: {kept}; {fix} and rerun the same command")


def unhandled_write_error(exc: OSError) -> str:
    """The message for a write error no writer caught (the CLI's last resort, e.g. a site page or
    an embedding cache file): the file the OS named, never a traceback."""
    what, fix = _KINDS.get(exc.errno or 0, (exc.strerror or "write error", "fix it"))
    where = f" writing {Path(exc.filename).as_posix()}" if exc.filename else ""
    return f"{what}{where}: files written before are kept; {fix} and rerun the same command"


def write_errno_in(text: str) -> int | None:
    """The write errno a child process (mkdocs) reported in its output, e.g. "[Errno 28] No
    space left on device", so its failure is told as one line too (None when there is none)."""
    for code in _KINDS:
        if f"[Errno {code}]" in text:
            return code
    return None

"""The clock and the checkout: when a record was written (`now_iso`), which commit of which
checkout wrote it (`git_state`, `repo_root`), and paths written relative to the repository
(`repo_relative`), so a record does not carry one machine's folder layout. Results, judgements,
agreement files and reproduce files all stamp themselves with these.
"""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def git_state(
    where: Path = PACKAGE_ROOT, ignore: Path | None = None
) -> tuple[str | None, bool | None]:
    """(HEAD commit, dirty) of the checkout holding the package; (None, None) outside git.

    `ignore` is the run's own output folder: its predictions and results are tracked files that
    the run itself changes, so they do not make the code that produced them "dirty".
    """
    spec: list[str] = []
    top = repo_root(where) if ignore is not None else None  # one git call only when needed
    if top is not None:
        try:
            rel = Path(ignore).resolve().relative_to(top.resolve())
        except ValueError:
            rel = None  # the output lies outside this checkout: nothing to leave out
        if rel is not None and rel.parts:
            spec = ["--", ".", f":(exclude){rel.as_posix()}"]
    try:
        head = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            [
                "git",
                "-C",
                str(top or where),
                "status",
                "--porcelain",
                "--untracked-files=no",
                *spec,
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    return head or None, bool(status.strip())


@lru_cache(maxsize=8)
def repo_root(where: Path | None = None) -> Path | None:
    """The git checkout holding `where` (default: the current folder), None outside git."""
    try:
        top = subprocess.run(
            ["git", "-C", str(where or Path.cwd()), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(top) if top else None


def repo_relative(text: str, roots: tuple[Path | None, ...] | None = None) -> str:
    """`text` (a command line, a message) with the absolute paths of the repository written
    relative to it: provenance must not record the folder layout of the machine it ran on.

    The roots are the checkout of the current folder, the one holding the package (usually the
    same) and the folder above any `.../submissions/<id>` path in the text (a run started from
    another checkout, e.g. a clean worktree, on this repository's submission); a path equal to a
    root becomes ".".
    """
    if roots is None:
        roots = (repo_root(), repo_root(PACKAGE_ROOT), *recorded_roots(text))
    for root in sorted({str(r) for r in roots if r is not None}, key=len, reverse=True):
        if root in ("", "/"):
            continue
        text = re.sub(
            re.escape(root) + r"(/|(?=[\s'\"]|$))", lambda m: "" if m.group(1) else ".", text
        )
    return text


_SUBMISSION_PATH = re.compile(r"(/[^\s'\"]*?)/submissions/[^/\s'\"]+")


def recorded_roots(text: str) -> tuple[Path, ...]:
    """Repository roots a recorded command names implicitly: the folder above any absolute
    `.../submissions/<id>` path (how a command written on another machine is made relative)."""
    return tuple(sorted({Path(m.group(1)) for m in _SUBMISSION_PATH.finditer(text)}))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")

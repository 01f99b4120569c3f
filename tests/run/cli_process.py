"""Real `rgb-leaderboard` processes for the lock and write-failure tests: the commands as a user
runs them (`python -m leaderboard`, this checkout first on the path), and a small tmpfs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    """This checkout's package first (an editable install may point at another worktree)."""
    return {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


def command(*args: object) -> list[str]:
    return [sys.executable, "-m", "leaderboard", *(str(a) for a in args)]


def run_cli(*args: object, cwd: Path = REPO, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        command(*args), cwd=cwd, env=env(), capture_output=True, text=True, timeout=timeout
    )


def start_cli(*args: object, cwd: Path = REPO) -> subprocess.Popen:
    return subprocess.Popen(
        command(*args),
        cwd=cwd,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    """The single `error: ...` line of a failed command; asserts no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def scripted_submission(folder: Path, latency_s: float = 0.0) -> Path:
    """A scripted-backend submission (echo policy) that may take `latency_s` per answer."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "id": folder.name,
        "display_name": "Test",
        "model": "fake-model",
        "backend": "scripted",
        "scripted": {"policy": "echo", "latency_s": latency_s},
        "batch_size": 2,
        "run": {"allow_partial_data": True},
    }
    (folder / "model.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return folder


@contextmanager
def small_tmpfs(folder: Path, size: str = "300k") -> Iterator[Path | None]:
    """A tmpfs of `size` mounted at `folder` (unmounted after), or None where the machine does not
    allow mounting one (not root, a container without CAP_SYS_ADMIN)."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path, leave_bytes: int) -> Path:
    """Fill the file system of `folder` but `leave_bytes`; returns the filler file to delete."""
    filler = folder / "filler"
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(filler, "wb") as fh:
        fh.write(b"\0" * max(0, free - leave_bytes))
    return filler

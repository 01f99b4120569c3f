"""One run per folder (leaderboard.run.lock) with real processes: a second `run` of the same
folder is refused in one line naming the holder, or waits with --wait; the lock dies with its
process; temporary files are unique per process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leaderboard.run.lock import HOLDER_NAME, LOCK_NAME
from tests.helpers import read_predictions
from tests.run.cli_process import env, one_error_line, run_cli, scripted_submission, start_cli

pytestmark = pytest.mark.usefixtures("data_root")
ARGS = ("--languages", "zh", "--abilities", "noise", "--limit", "4", "--no-progress")


def _wait_for_holder(folder: Path, proc: subprocess.Popen, timeout: float = 120) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if (folder / HOLDER_NAME).is_file():
            return json.loads((folder / HOLDER_NAME).read_text(encoding="utf-8"))
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError("the first run never took the lock")


def test_second_run_is_refused_naming_the_holder(tmp_path: Path) -> None:
    sub = scripted_submission(tmp_path / "sub", latency_s=0.5)  # 20 answers: ~10 s
    first = start_cli("run", sub, *ARGS)
    holder = _wait_for_holder(sub, first)
    second = run_cli("run", sub, *ARGS)
    line = one_error_line(second)
    assert f"is being run by pid {first.pid} on {socket.gethostname()}, started " in line
    assert holder["started"] in line and "--wait" in line
    _out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    records = read_predictions(sub)
    assert len(records) == len({r.key for r in records}) == 20  # generated once, no duplicates
    assert not (sub / HOLDER_NAME).exists()


def test_wait_starts_when_the_holder_is_done(tmp_path: Path) -> None:
    sub = scripted_submission(tmp_path / "sub", latency_s=0.3)
    first = start_cli("run", sub, *ARGS)
    _wait_for_holder(sub, first)
    second = run_cli("run", sub, *ARGS, "--wait")
    assert second.returncode == 0, second.stderr
    assert f"waiting for pid {first.pid}" in second.stderr
    assert first.wait(timeout=300) == 0
    assert len(read_predictions(sub)) == 20  # the second run found everything on disk
    assert run_cli("verify", sub).returncode == 0


def test_the_lock_dies_with_its_process(tmp_path: Path) -> None:
    sub = scripted_submission(tmp_path / "sub", latency_s=0.5)
    first = start_cli("run", sub, *ARGS)
    _wait_for_holder(sub, first)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=60)
    resumed = run_cli("run", sub, *ARGS)  # no stale lock to delete by hand
    assert resumed.returncode == 0, resumed.stderr
    assert run_cli("verify", sub).returncode == 0


WRITER = """
import sys
from pathlib import Path
from leaderboard.core.files import atomic_write_text
for i in range(300):
    atomic_write_text(Path(sys.argv[1]), f"{sys.argv[2]} {i}\\n" * 50)
"""


def test_two_processes_writing_one_file_never_share_a_temporary(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), name], env=env(), stderr=subprocess.PIPE
        )
        for name in ("a", "b")
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert target.read_text().splitlines()[0].split()[1] == "299"
    assert sorted(os.listdir(tmp_path)) == ["results.json"]  # no temporary left behind


def test_no_run_lock_is_committed() -> None:
    """A lock belongs to a running process: one committed (a `git add -f` of a submission folder
    while its run held the lock) would look to the next clone like a stale lock of a dead holder."""
    repo = Path(__file__).resolve().parents[2]
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=repo, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    locks = [p for p in listed.stdout.split("\0") if Path(p).name in {LOCK_NAME, HOLDER_NAME}]
    assert locks == [], f"committed run locks: {locks}"

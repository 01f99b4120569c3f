"""Write failures end in one line naming the file and what was kept, exit 2, and lose nothing:
the same command resumes once there is room. On a real 300 KB tmpfs (the machine must allow
mounting one: root, or CAP_SYS_ADMIN); where it does not, the same commands run with a file-size
limit (RLIMIT_FSIZE), which makes the kernel refuse the write (EFBIG), and the test says which ran
in its output (`-rA`)."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
from pathlib import Path

import pytest

from tests.helpers import read_predictions
from tests.run.cli_process import (
    REPO,
    command,
    env,
    fill,
    one_error_line,
    run_cli,
    scripted_submission,
    small_tmpfs,
)

pytestmark = pytest.mark.usefixtures("data_root")
ARGS = ("--languages", "zh", "--abilities", "noise", "--limit", "40", "--no-progress")


@pytest.fixture
def disk(tmp_path: Path):
    """A 300 KB tmpfs, or None (then the tests limit the file size instead)."""
    with small_tmpfs(tmp_path / "disk") as mounted:
        print("write failures: " + ("300 KB tmpfs" if mounted else "RLIMIT_FSIZE (no tmpfs)"))
        yield mounted


def _limited(*args: object, max_bytes: int) -> subprocess.CompletedProcess:
    """A command whose files may not grow past max_bytes (the fallback to a full disk)."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))

    return subprocess.run(
        command(*args), cwd=REPO, env=env(), capture_output=True, text=True, preexec_fn=limit
    )


def test_disk_full_mid_run_keeps_predictions_and_resumes(disk: Path | None, tmp_path: Path) -> None:
    sub = scripted_submission((disk or tmp_path) / "sub")
    if disk is not None:
        filler = fill(disk, leave_bytes=60_000)  # 200 predictions need ~160 KB
        failed = run_cli("run", sub, *ARGS)
        kind = "disk full"
    else:
        failed, filler, kind = _limited("run", sub, *ARGS, max_bytes=60_000), None, "file too large"
    line = one_error_line(failed)
    print(line)
    kept = len(read_predictions(sub))
    assert 0 < kept < 200
    assert line == (
        f"error: {kind} writing {(sub / 'predictions.jsonl').as_posix()}: {kept} predictions "
        f"kept; free space and rerun the same command"
    )
    if filler is not None:
        filler.unlink()
    resumed = run_cli("run", sub, *ARGS)
    assert resumed.returncode == 0, resumed.stderr
    records = read_predictions(sub)
    assert len(records) == len({r.key for r in records}) == 200
    assert run_cli("verify", sub).returncode == 0


def test_read_only_folder(disk: Path | None) -> None:
    if disk is None:
        pytest.skip("needs a mountable tmpfs (remounted read-only)")
    sub = scripted_submission(disk / "sub")
    assert subprocess.run(["mount", "-o", "remount,ro", str(disk)]).returncode == 0
    try:
        line = one_error_line(run_cli("run", sub, *ARGS))
        print(line)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(disk)])
    assert line.startswith(f"error: read-only file system writing {sub.as_posix()}/")
    assert line.endswith("write elsewhere and rerun the same command")


def test_rescore_judge_and_retrieval_on_a_full_disk(disk: Path | None, tmp_path: Path) -> None:
    if disk is None:
        pytest.skip("needs a mountable tmpfs")
    sub = scripted_submission(disk / "sub")
    small = ("--languages", "zh", "--abilities", "rejection", "--limit", "6", "--no-progress")
    assert run_cli("run", sub, *small).returncode == 0
    before = (sub / "results.json").read_bytes()
    filler = fill(disk, leave_bytes=0)
    line = one_error_line(run_cli("rescore", sub))
    print(line)
    assert line == (
        f"error: disk full writing {(sub / 'results.json').as_posix()}: the previous file is "
        "kept unchanged; free space and rerun the same command"
    )
    assert (sub / "results.json").read_bytes() == before
    judge = REPO / "judges" / "scripted-keywords.yaml"
    line = one_error_line(run_cli("judge", sub, "--judge", judge, "--no-progress"))
    print(line)
    assert line.startswith(f"error: disk full writing {(sub / 'judgements.jsonl').as_posix()}: ")
    assert "verdicts kept; free space and rerun the same command" in line
    out = disk / "pool-bm25.json"
    proc = run_cli(
        "retrieval", "run", "--lang", "en", "--split", "partial", "--limit", "5", "--json", out
    )
    print(one_error_line(proc))
    assert one_error_line(proc) == (
        f"error: disk full writing {out.as_posix()}: not written; free space and rerun the same "
        "command"
    )
    filler.unlink()
    assert run_cli("judge", sub, "--judge", judge, "--no-progress").returncode == 0
    assert json.loads((sub / "judge_results.json").read_text())["judges"]


@pytest.mark.slow
def test_site_build_on_a_full_disk(disk: Path | None, tmp_path: Path) -> None:
    """No writer of the site catches the error itself: the CLI's last resort names the file."""
    if disk is None:
        pytest.skip("needs a mountable tmpfs")
    fill(disk, leave_bytes=0)
    proc = run_cli("site", "build", "--out", disk / "site", timeout=900)
    line = one_error_line(proc)
    print(line)
    assert line.startswith("error: disk full writing ") and str(disk) in line
    assert line.endswith("free space and rerun the same command")

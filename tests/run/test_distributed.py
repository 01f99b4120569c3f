"""Data parallel runs (`accelerate launch` / torchrun): real OS processes of `python -m
leaderboard run` with RANK/WORLD_SIZE/LOCAL_RANK, the in-package scripted backend, shards merged by
rank 0, crash leftovers resumed without regenerating them."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leaderboard.backends.scripted import ScriptedBackend
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from tests.helpers import read_predictions, read_results, write_scripted_submission

ARGS = ["--limit", "3", "--languages", "zh,en", "--abilities", "counterfactual,rejection"]
N_KEYS = 12  # 3 records x 4 splits (one noise rate each)
DP_ENV = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "RGB_DP_TIMEOUT_S")


def make_sub(folder: Path) -> Path:
    """A scripted-backend submission slow enough (20 ms a batch) for ranks to overlap."""
    return write_scripted_submission(
        folder,
        display_name="DP",
        scripted={"policy": "echo", "latency_s": 0.02},
        run={"allow_partial_data": True},
    )


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DP_ENV}
    env.update(extra)
    return env


def start(path: Path, root: Path, rank: int | None, world: int = 2, **extra: str):
    """One `python -m leaderboard run` process; rank None = a plain single process."""
    ranks = {} if rank is None else {"RANK": str(rank), "WORLD_SIZE": str(world)}
    if rank is not None:
        ranks["LOCAL_RANK"] = str(rank)
    cmd = [sys.executable, "-m", "leaderboard", "run", str(path), "--data-dir", str(root)]
    return subprocess.Popen(
        [*cmd, *ARGS, "--no-progress"],
        env=_env(**ranks, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def run_ranks(path: Path, root: Path, world: int = 2) -> list[tuple[int, str, str]]:
    procs = [start(path, root, r, world) for r in range(world)]
    return [finish(p) for p in procs]


def plain_lines(folder: Path) -> list[dict]:
    text = (folder / "predictions.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def single_process_results(tmp_path: Path, root: Path):
    path = make_sub(tmp_path / "single")
    code, _, err = finish(start(path, root, None))
    assert code == 0, err
    return read_results(path.parent / "results.json")


def finish_in_process(path: Path, root: Path):
    """Run ARGS' selection in this process on a counting scripted backend: (backend, results)."""
    backend = ScriptedBackend(policy="echo")
    res = run_submission(
        load_submission(path),
        RunOptions(
            root=root,
            backend=backend,
            selection=Selection(
                limit=3, languages=("zh", "en"), abilities=("counterfactual", "rejection")
            ),
            progress=False,
        ),
    )
    return backend, res


def assert_merged(folder: Path) -> None:
    keys = [r["key"] for r in plain_lines(folder)]
    assert len(keys) == len(set(keys)) == N_KEYS
    assert RunStore(folder).shard_paths() == [] and RunStore(folder).marker_paths() == []


def test_two_processes_split_and_merge(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "dp")
    (c0, out0, err0), (c1, out1, err1) = run_ranks(path, rgb_root)
    assert c0 == 0, err0
    assert c1 == 0, err1
    assert "results:" in out0 and "results:" not in out1
    assert "rank 1 of 2" in out1
    assert_merged(path.parent)
    res = read_results(path.parent / "results.json")
    dp = res.provenance.extra["data_parallel"]
    assert dp["world_size"] == 2
    assert sum(dp["unique_prompts_per_rank"]) == N_KEYS
    assert all(n > 0 for n in dp["generated_per_rank"])  # both processes did work
    assert res.provenance.extra["this_invocation"]["generated_prompts"] == N_KEYS
    single = single_process_results(tmp_path, rgb_root)
    assert "data_parallel" not in single.provenance.extra
    assert res.cells == single.cells
    assert res.scores == single.scores
    assert res.bootstrap == single.bootstrap
    # a rerun of both ranks finds everything on disk and generates nothing
    (c0, _, err0), (c1, _, err1) = run_ranks(path, rgb_root)
    assert (c0, c1) == (0, 0), err0 + err1
    assert_merged(path.parent)
    again = read_results(path.parent / "results.json")
    assert again.provenance.extra["this_invocation"]["generated_prompts"] == 0
    assert again.cells == single.cells


SLOW_START = (
    "import runpy, sys, time; time.sleep(float(sys.argv.pop(1))); "
    "sys.argv[0] = 'leaderboard'; runpy.run_module('leaderboard', run_name='__main__')"
)


def test_a_rank_done_before_rank_0_has_planned_counts_for_this_launch(
    tmp_path: Path, rgb_root: Path
) -> None:
    """Seen in CI on a loaded machine: rank 1 planned, generated and marked its share done while
    rank 0 was still importing; rank 0 took its marker for an earlier launch and recorded
    generated_per_rank [6, 0]. Rank 0's process here waits 4 s before it starts planning."""
    path = make_sub(tmp_path / "dp")
    env0 = _env(RANK="0", WORLD_SIZE="2", LOCAL_RANK="0")
    cmd = [str(path), "--data-dir", str(rgb_root), *ARGS, "--no-progress"]
    slow0 = subprocess.Popen(
        [sys.executable, "-c", SLOW_START, "4", "run", *cmd],
        env=env0,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    c1, _, err1 = finish(start(path, rgb_root, 1))
    assert c1 == 0, err1
    assert RunStore(path.parent).read_marker(1) is not None  # done before rank 0 planned
    c0, out0, err0 = finish(slow0)
    assert c0 == 0, err0
    assert "results:" in out0
    dp = read_results(path.parent / "results.json").provenance.extra["data_parallel"]
    assert all(n > 0 for n in dp["generated_per_rank"]), dp
    assert dp["shares_finished_by_an_earlier_launch"] == []


def test_marker_of_an_earlier_launch_counts_as_done_not_as_generated(
    tmp_path: Path, rgb_root: Path
) -> None:
    """Rank 1 finished in a launch whose rank 0 died; a later rank 0 (alone) merges its shard,
    and this run's provenance does not claim rank 1's earlier work."""
    path = make_sub(tmp_path / "dp")
    code, _, err = finish(start(path, rgb_root, 1))
    assert code == 0, err
    left = {r.key for r in read_predictions(RunStore(path.parent).shard_paths()[0])}
    code, _, err = finish(start(path, rgb_root, 0))
    assert code == 0, err
    assert_merged(path.parent)
    res = read_results(path.parent / "results.json")
    dp = res.provenance.extra["data_parallel"]
    assert dp["generated_per_rank"] == [N_KEYS - len(left), 0]
    assert dp["shares_finished_by_an_earlier_launch"] == [1]
    assert res.provenance.extra["this_invocation"]["generated_prompts"] == N_KEYS - len(left)


def test_leftover_shard_is_resumed_not_regenerated(tmp_path: Path, rgb_root: Path) -> None:
    """Rank 0 dies (here: never started); rank 1 finished its shard. The next launch merges it."""
    path = make_sub(tmp_path / "dp")
    code, _, err = finish(start(path, rgb_root, 1))
    assert code == 0, err
    folder = path.parent
    (shard,) = RunStore(folder).shard_paths()
    assert shard.name == "predictions.rank1.jsonl" and not (folder / "results.json").exists()
    left = {r.key: r.created for r in read_predictions(shard)}
    assert 0 < len(left) < N_KEYS
    results = run_ranks(path, rgb_root)
    assert [c for c, _, _ in results] == [0, 0], results[0][2] + results[1][2]
    assert_merged(folder)
    merged = {r["key"]: r["created"] for r in plain_lines(folder)}
    assert {k: merged[k] for k in left} == left  # the same lines, not new ones
    res = read_results(folder / "results.json")
    dp = res.provenance.extra["data_parallel"]
    assert dp["generated_per_rank"][1] == 0
    assert res.provenance.extra["this_invocation"]["generated_prompts"] == N_KEYS - len(left)
    assert res.cells == single_process_results(tmp_path, rgb_root).cells


def test_single_process_picks_up_leftover_shard(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "dp")
    code, _, err = finish(start(path, rgb_root, 1))
    assert code == 0, err
    (shard,) = RunStore(path.parent).shard_paths()
    left = {r.key: r.created for r in read_predictions(shard)}
    backend, res = finish_in_process(path, rgb_root)
    assert backend.requests_seen == N_KEYS - len(left)
    assert_merged(path.parent)
    merged = {r["key"]: r["created"] for r in plain_lines(path.parent)}
    assert {k: merged[k] for k in left} == left
    assert "data_parallel" not in res.provenance.extra


def test_rank0_times_out_naming_missing_rank(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "dp")
    code, _, err = finish(start(path, rgb_root, 0, RGB_DP_TIMEOUT_S="1"))
    assert code == 2
    assert "rank(s) 1 of 2 did not finish" in err and "predictions.rank1.jsonl" in err
    assert "Traceback" not in err
    folder = path.parent
    assert [p.name for p in RunStore(folder).shard_paths()] == ["predictions.rank0.jsonl"]
    assert not (folder / "results.json").exists()
    kept = {r.key for r in read_predictions(RunStore(folder).shard_paths()[0])}
    # finishing as one process generates only the other half
    backend, _ = finish_in_process(path, rgb_root)
    assert backend.requests_seen == N_KEYS - len(kept)
    assert_merged(folder)


def test_overwrite_refused_with_several_processes(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "dp")
    env = _env(RANK="0", WORLD_SIZE="2", LOCAL_RANK="0")
    cmd = [sys.executable, "-m", "leaderboard", "run", str(path), "--data-dir", str(rgb_root)]
    done = subprocess.run(
        [*cmd, *ARGS, "--overwrite", "--no-progress"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "--overwrite cannot be used with several processes" in done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_accelerate_launch_two_processes(tmp_path: Path, rgb_root: Path) -> None:
    """`accelerate launch --cpu` always starts ONE process (its simple launcher); two CPU
    processes come from the multi-process launcher (torchrun), which runs without a GPU."""
    exe = shutil.which("accelerate") or str(Path(sys.executable).with_name("accelerate"))
    if not Path(exe).exists():
        pytest.skip("the accelerate CLI is not installed")
    path = make_sub(tmp_path / "dp")
    launch = [
        exe,
        "launch",
        "--multi_gpu",
        "--num_processes",
        "2",
        "--num_machines",
        "1",
        "--mixed_precision",
        "no",
        "--dynamo_backend",
        "no",
        "--main_process_port",
        str(_free_port()),
        "-m",
        "leaderboard",
        "run",
        str(path),
        "--data-dir",
        str(rgb_root),
        *ARGS,
        "--no-progress",
    ]
    t0 = time.perf_counter()
    done = subprocess.run(launch, env=_env(), capture_output=True, text=True, timeout=300)
    started = RunStore(path.parent).shard_paths() or (path.parent / "results.json").exists()
    if done.returncode != 0 and not started and "rank 1 of 2" not in done.stdout:
        pytest.skip(f"accelerate launch could not start here: {done.stderr[-500:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "rank 1 of 2" in done.stdout and "results:" in done.stdout
    assert_merged(path.parent)
    res = read_results(path.parent / "results.json")
    assert res.provenance.extra["data_parallel"]["world_size"] == 2
    assert res.cells == single_process_results(tmp_path, rgb_root).cells
    assert time.perf_counter() - t0 < 300

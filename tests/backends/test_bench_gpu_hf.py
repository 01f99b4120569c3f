"""benchmarks/bench_gpu_hf.py, the GPU figures of docs/serving.md, checked on the CPU with the tiny
shape: it builds, loads, measures and writes its rows (the GPU figures come from a GPU run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from leaderboard.backends.environment import device_name

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_gpu_hf_runs_on_the_tiny_shape(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks/bench_gpu_hf.py"),
        "--shape",
        "tiny",
        "--allow-cpu",
        "--modes",
        "none",
        "--n",
        "2",
        "--prompt-tokens",
        "120",
        "--answer-tokens",
        "4",
        "--work",
        str(tmp_path / "w"),
        "--json",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads(out.read_text())
    assert written["device"] == device_name()  # the machine named as the backend names it
    rows = written["rows"]
    assert [r["mode"] for r in rows] == ["none"]
    row = rows[0]
    assert row["prompt_tokens_per_answer"] >= 80 and 1 <= row["answer_tokens_per_answer"] <= 4
    assert row["R_p_tok_s"] > 0 and row["answers_per_s"] > 0
    assert "mode=none" in done.stdout


def test_bench_gpu_hf_refuses_a_cpu_without_the_flag() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks/bench_gpu_hf.py")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is visible: the refusal is for CPU-only machines")
    assert done.returncode == 1 and "no CUDA device" in done.stderr

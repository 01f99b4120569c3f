"""`rgb-leaderboard retrieval run|grid|compare` end to end (BM25 on real data) and its one-line
errors, through the real console entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leaderboard", "retrieval", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(cwd)},
        check=False,
    )


def _one_line_error(proc: subprocess.CompletedProcess, needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--retriever", "tfidf"], "unknown; use one of bm25, dense, hybrid, openai"),
        (["--retriever", "openai"], "--base-url"),
        (["--limit", "0"], "--limit 0"),
        (["--setting", "web"], "use pool or corpus"),
        (["--setting", "corpus", "--overlap", "1.5"], "--overlap 1.5"),
    ],
)
def test_errors(args: list[str], needle: str, rgb_root: Path, tmp_path: Path) -> None:
    proc = _cli("run", "--lang", "zh", "--data-dir", str(rgb_root), *args, cwd=tmp_path)
    _one_line_error(proc, needle)


def test_empty_or_missing_split(tmp_path: Path) -> None:
    (tmp_path / "data_zh").mkdir()
    (tmp_path / "data_zh" / "zh_refine.json").write_text("", encoding="utf-8")
    proc = _cli("run", "--lang", "zh", "--data-dir", str(tmp_path), cwd=tmp_path)
    _one_line_error(proc, "zh_refine.json")
    proc = _cli("run", "--lang", "en", "--split", "int", "--data-dir", str(tmp_path), cwd=tmp_path)
    _one_line_error(proc, "en_int.json is missing")
    proc = _cli("run", "--lang", "en", "--data-dir", str(tmp_path), cwd=tmp_path)
    _one_line_error(proc, "--split fact or partial")


def test_run_grid_compare(rgb_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    common = ["--lang", "en", "--split", "fact", "--data-dir", str(rgb_root)]
    proc = _cli("run", *common, "--limit", "12", "--json", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "en_fact · pool · bm25: 12 of 12 questions" in proc.stdout and "MRR" in proc.stdout
    assert not (tmp_path / "retrieval").exists()  # a --limit run is not saved to the board
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["schema"] == "rgb-leaderboard/retrieval/1" and res["n_evaluated"] == 12
    assert res["provenance"]["data"]["git_blob_id"]
    proc = _cli("run", *common, "--setting", "corpus", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    saved = tmp_path / "retrieval" / "en_fact" / "corpus-bm25.json"
    assert saved.is_file() and "saved" in proc.stdout
    proc = _cli("compare", str(out), str(out), "--metrics", "MRR,NDCG@5", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "+0.000" in proc.stdout and "1.0000" in proc.stdout
    proc = _cli("compare", str(out), str(saved), cwd=tmp_path)
    _one_line_error(proc, "same split and setting")
    proc = _cli(
        "grid", *common, "--sizes", "64,512", "--overlaps", "0", "--out-dir", "g", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    grid = json.loads((tmp_path / "g" / "en_fact" / "grid-bm25.json").read_text("utf-8"))
    assert [(c["size"], c["overlap"]) for c in grid["cells"]] == [(64, 0.0), (512, 0.0)]
    assert grid["complete"] is False and "not run" not in proc.stdout

"""`verify` beyond results.json (leaderboard.trust.retrieval_files): a tampered retrieval
result, a tampered judge result and a tampered judge agreement (judges/agreement/) fail naming
the value; `retrieval run` writes only where told."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, write_agreement, write_scripted_submission

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "submissions" / "smollm2-135m-instruct"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> Path:
    """A real BM25 result (pool, en partial file, 8 questions) in a retrieval/ layout."""
    path = tmp_path_factory.mktemp("board") / "retrieval" / "en_head50" / "pool-bm25.json"
    args = ("--lang", "en", "--split", "partial", "--limit", "8", "--data-dir", data_root)
    out = cli("retrieval", "run", *args, "--json", path)
    assert out.code == 0, out.err
    return path


def _edited(src: Path, dst: Path, edit) -> Path:
    data = json.loads(src.read_text(encoding="utf-8"))
    edit(data)
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(data), encoding="utf-8")
    return dst


def test_fresh_retrieval_result_verifies(result: Path, data_root: Path) -> None:
    out = cli("verify", result, "--data-dir", data_root)
    assert out.code == 0 and out.out.strip() == f"ok: {result.as_posix()}", out.out


def test_tampered_metric_fails_naming_it(result: Path, tmp_path: Path, data_root: Path) -> None:
    path = _edited(
        result,
        tmp_path / "retrieval" / "en_head50" / "pool-bm25.json",
        lambda d: d["metrics"]["MRR"].update(mean=0.99),
    )
    out = cli("verify", path, "--data-dir", data_root)
    assert out.code == 1
    assert f"FAIL: {path.as_posix()}" in out.out
    assert "metric MRR mean: file has 0.99, recomputed " in out.out


def test_tampered_ranking_fails(result: Path, tmp_path: Path, data_root: Path) -> None:
    def edit(d: dict) -> None:  # a consistent edit: values and summary agree, the ranking lies
        q = d["per_question"][0]
        q["first_relevant"] = 1
        q["top"] = list(reversed(q["top"]))

    path = _edited(result, tmp_path / "retrieval" / "en_head50" / "pool-bm25.json", edit)
    out = cli("verify", path, "--data-dir", data_root)
    assert out.code == 1 and "per-question rankings: 1 question(s) differ" in out.out, out.out


def test_retrieval_run_writes_only_where_told(tmp_path: Path, data_root: Path) -> None:
    args = ("--lang", "en", "--split", "partial", "--limit", "3", "--data-dir", data_root)
    out = cli("retrieval", "run", *args, "--out-dir", tmp_path / "retrieval")
    assert out.code == 0 and not (tmp_path / "retrieval").exists()
    refused = cli("retrieval", "run", *args, "--save", "--out-dir", tmp_path / "retrieval")
    assert refused.code == 2 and "--save refreshes the committed result" in refused.err


@pytest.fixture
def judged(tmp_path: Path) -> Path:
    """A copy of the SmolLM2 entry's run and judge files (every predictions file it has: the
    archived .gz and the answers appended since)."""
    folder = tmp_path / "smollm2-135m-instruct"
    folder.mkdir()
    for name in ("model.yaml", "predictions.jsonl.gz", "predictions.jsonl", "results.json"):
        if (ENTRY / name).is_file():
            shutil.copy(ENTRY / name, folder / name)
    shutil.copy(ENTRY / "judgements.jsonl", folder / "judgements.jsonl")
    shutil.copy(ENTRY / "judge_results.json", folder / "judge_results.json")
    return folder


def test_judge_results_recomputed_from_judgements(judged: Path, data_root: Path) -> None:
    path = judged / "judge_results.json"
    out = cli("verify", judged, "--data-dir", data_root)
    assert out.code == 0 and f"ok: {path.as_posix()}" in out.out, out.out
    _edited(path, path, lambda d: d["judges"][0]["rates"][0].update(value=0.5))
    out = cli("verify", judged, "--data-dir", data_root)
    assert out.code == 1 and f"FAIL: {path.as_posix()}" in out.out
    assert "smollm2-135m-instruct-judge rate zh/rejection value: file has 0.5, recomputed 1.0" in (
        out.out
    )


def test_judge_agreement_recomputed_from_judgements(tmp_path: Path) -> None:
    """judges/agreement/<id>: a real scripted-judge run verifies by folder, file or the whole
    judges/agreement folder; an edited kappa fails naming it, with the command that rewrites it."""
    folder = write_agreement(tmp_path)
    path = folder / "agreement.json"
    for target in (folder, path, folder.parent):
        out = cli("verify", target)
        assert out.code == 0 and out.out.strip() == f"ok: {path.as_posix()}", out.out
    _edited(path, path, lambda d: d["agreement"][0].update(kappa=0.5))
    out = cli("verify", folder)
    assert out.code == 1 and f"FAIL: {path.as_posix()}" in out.out
    assert "scripted-keywords kappa zh/rejection/judge/labels kappa: file has 0.5, recomputed " in (
        out.out
    )
    assert "1 file(s) failed verification" in out.err


def test_verify_without_paths_covers_judges_agreement(
    tmp_path: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no paths `verify` checks every submission and every judges/agreement/*/."""
    folder = tmp_path / "submissions" / "s"
    yaml_path = write_scripted_submission(folder, run={"allow_partial_data": True})
    args = ("--limit", "1", "--abilities", "counterfactual,rejection")
    assert cli("run", yaml_path, *args, "--data-dir", data_root).code == 0
    path = write_agreement(tmp_path) / "agreement.json"
    monkeypatch.chdir(tmp_path)
    out = cli("verify", "--data-dir", data_root)
    assert out.code == 0 and "ok: submissions/s: " in out.out, out.out
    assert f"ok: {path.relative_to(tmp_path).as_posix()}" in out.out
    _edited(path, path, lambda d: d["rates"][0].update(value=0.5))
    out = cli("verify", "--data-dir", data_root)
    assert out.code == 1 and "scripted-keywords rate zh/rejection value: file has 0.5" in out.out


def test_verify_without_data_says_to_fetch_it(tmp_path: Path) -> None:
    """A checkout with no data fetched: one line saying so, not a failure per submission."""
    sub = Path(__file__).resolve().parents[2] / "submissions" / "baseline-refuse"
    res = cli("verify", sub, "--data-dir", tmp_path)
    assert res.code == 2
    assert "no RGB data file here" in res.err and "data fetch" in res.err

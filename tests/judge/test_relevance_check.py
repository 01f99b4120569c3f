"""`verify` for the relevance judge's run-folder files (judge/relevance_check.py): relevance.jsonl
line by line against the answers, relevance_results.json recomputed (a sampled summary redrawn),
a tampered figure or verdict named; a real scripted-judge run (judges/scripted-relevance.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.judge_schema import FaithfulnessSample
from leaderboard.judge.relevance import RELEVANCE_NAME
from leaderboard.judge.relevance_check import check_relevance
from leaderboard.judge.relevance_figures import (
    RESULTS_NAME,
    relevance_summary,
    write_relevance_results,
)
from tests.judge.test_relevance import JUDGE, answers, judged, scored


def _folder(tmp_path: Path, sample: FaithfulnessSample | None = None) -> Path:
    folder = tmp_path / "entry"
    folder.mkdir(parents=True)
    items, store = judged(folder)
    summary = relevance_summary(load_judge_config(JUDGE), scored(), items, store, {}, sample)
    write_relevance_results(folder / RESULTS_NAME, "entry", "fp", summary)
    return folder


def _edit(path: Path, lineno: int, **fields: object) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[lineno - 1])
    rec.update(fields)
    lines[lineno - 1] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_fresh_run_and_a_sample_verify(tmp_path: Path) -> None:
    check = check_relevance(_folder(tmp_path), answers(), "fp")
    assert check is not None and check.ok, check.render()
    sampled = _folder(tmp_path / "s", FaithfulnessSample(answers_per_lang=1, seed=5))
    check = check_relevance(sampled, answers(), "fp")
    assert check is not None and check.ok, check.render()


def test_no_files_no_check_and_unrebuilt_answers_said(tmp_path: Path) -> None:
    assert check_relevance(tmp_path, answers(), "fp") is None
    check = check_relevance(_folder(tmp_path), None, "fp")
    assert check is not None and check.ok and "not checked" in check.render()


def test_a_tampered_results_file_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    path = folder / RESULTS_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    data["judges"][0]["rows"][0]["judged"] += 1
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    check = check_relevance(folder, answers(), "fp")
    assert check is not None and not check.ok
    assert any(
        m.startswith(f"{RESULTS_NAME} scripted-relevance relevance zh/all judged: file has 4")
        for m in check.mismatches
    ), check.mismatches


def test_a_tampered_verdict_and_a_stale_line_are_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _edit(folder / RELEVANCE_NAME, 1, verdict="not_relevant")
    check = check_relevance(folder, answers(), "fp")
    assert check is not None and not check.ok
    assert (
        f"{RELEVANCE_NAME}:1 (zh/noise/0.0/1) verdict: line has 'not_relevant', its output "
        "parses as 'relevant'" in check.mismatches
    )
    changed = answers()
    inst, _, _ = changed[0]
    changed[0] = (inst, "文档中没有相关信息，无法回答。", None)  # now a refusal: not the judge's
    check = check_relevance(folder, changed, "fp")
    assert check is not None and any(
        m.startswith(f"{RELEVANCE_NAME}:1 (zh/noise/0.0/1): no such answer")
        for m in check.mismatches
    ), check.mismatches


def test_other_answers_and_a_missing_results_file_fail(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    check = check_relevance(folder, answers(), "other-run")
    assert check is not None and any("prediction_fingerprint" in m for m in check.mismatches)
    (folder / RESULTS_NAME).unlink()
    check = check_relevance(folder, answers(), "fp")
    assert check is not None and any(
        m.startswith(f"{RESULTS_NAME}: missing") for m in check.mismatches
    )

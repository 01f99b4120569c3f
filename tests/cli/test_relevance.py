"""`relevance` end to end with the scripted relevance judge (judges/scripted-relevance.yaml, no
model): on a copy of a committed entry, the verdicts and relevance_results.json with partial
coverage, `verify` naming a tampered verdict line and a tampered figure; with --labels, the
agreement record over the grounding labels that `verify` recomputes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "submissions" / "qwen2.5-coder-0.5b-instruct"
JUDGE = REPO / "judges" / "scripted-relevance.yaml"
LABELS = REPO / "leaderboard" / "scoring" / "labels"


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> Path:
    """A copy of the 0.5B entry's run with its first 6 eligible answers judged."""
    folder = tmp_path_factory.mktemp("relevance") / ENTRY.name
    folder.mkdir()
    for name in ("model.yaml", "predictions.jsonl.gz", "predictions.jsonl", "results.json"):
        if (ENTRY / name).is_file():
            shutil.copy(ENTRY / name, folder / name)
    out = cli("relevance", folder, "--judge", JUDGE, "--limit", 6, "--data-dir", data_root)
    assert out.code == 0, out.err
    assert "6 answers of " in out.out and "zh: judged " in out.out and "combined " in out.out
    return folder


def test_results_say_how_much_was_judged(judged: Path) -> None:
    data = json.loads((judged / "relevance_results.json").read_text(encoding="utf-8"))
    (summary,) = data["judges"]
    assert summary["judge_id"] == "scripted-relevance" and summary["sample"] is None
    rows = {(r["lang"], r["ability"]): r for r in summary["rows"]}
    assert {lang for lang, _ in rows} == {"zh", "en"}
    total = rows[("zh", "all")]
    assert 0 < total["judged"] + total["n_unparsable"] < total["eligible"]
    assert not total["complete"] and total["typed"] > 0
    figures = {s["figure"]: s for s in total["shares"]}
    assert figures["combined"]["n"] == total["typed"] + total["judged"]


def test_verify_names_a_tampered_verdict_line_and_figure(judged: Path, data_root: Path) -> None:
    path = judged / "relevance.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[0])
    rec["verdict"] = "not_relevant" if rec["verdict"] != "not_relevant" else "relevant"
    path.write_text("\n".join([json.dumps(rec, ensure_ascii=False), *lines[1:]]) + "\n")
    results = judged / "relevance_results.json"
    data = json.loads(results.read_text(encoding="utf-8"))
    data["judges"][0]["rows"][0]["shares"][0]["count"] += 1
    results.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = cli("verify", judged, "--data-dir", data_root)
    assert out.code == 1, out.out
    assert f"FAIL: {path.as_posix()}" in out.out
    assert f"relevance.jsonl:1 ({rec['key']}) verdict:" in out.out
    assert "relevance_results.json scripted-relevance relevance zh/all shares: file has" in out.out


def test_a_sample_needs_a_positive_number() -> None:
    bad = cli("relevance", ENTRY, "--judge", JUDGE, "--sample-answers", 0)
    assert bad.code != 0 and "--sample-answers" in bad.err + bad.out


def test_labels_write_the_agreement_that_verify_recomputes(tmp_path: Path) -> None:
    folder = tmp_path / "judges" / "relevance" / "agreement" / "scripted-relevance"
    out = cli(
        "relevance", "--labels", LABELS, "--judge", JUDGE, "--out", folder, "--resamples", 100
    )
    assert out.code == 0, out.err
    lines = [ln for ln in out.out.splitlines() if ": agreement " in ln]
    assert [ln.split(":")[0] for ln in lines] == [
        "test zh",
        "test en",
        "dev zh",
        "dev en",
        "all zh",
        "all en",
    ]
    path = folder / "agreement.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["judged_split"] == "all"
    assert set(record["labels"]) == {
        "leaderboard/scoring/labels/grounding_zh.jsonl",
        "leaderboard/scoring/labels/grounding_en.jsonl",
    }
    ok = cli("verify", folder)
    assert ok.code == 0 and ok.out.strip() == f"ok: {path.as_posix()}", ok.out
    record["agreement"][0]["observed"] = 0.5
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = cli("verify", folder)
    assert bad.code == 1 and "scripted-relevance relevance kappa test/zh observed" in bad.out


def test_an_incomplete_row_says_sampled_or_partial() -> None:
    from leaderboard.cli.relevance import _row_line
    from leaderboard.core.judge_schema import RelevanceRow, RelevanceShare

    shares = [
        RelevanceShare(figure=f, count=1, n=2, value=0.5) for f in ("judge", "code", "combined")
    ]
    row = RelevanceRow(
        lang="zh",
        ability="all",
        eligible=10,
        judged=2,
        n_unparsable=0,
        n_unjudged=0,
        typed=3,
        shares=shares,
        complete=False,
    )
    assert "(a seeded sample)" in _row_line(row, sampled=True)
    assert "(partial)" in _row_line(row)
    assert "(partial)" not in _row_line(row.model_copy(update={"complete": True}))

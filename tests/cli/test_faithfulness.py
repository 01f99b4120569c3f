"""`faithfulness` end to end on a copy of a committed entry with the scripted statement judge
(judges/scripted-statements.yaml, no model): the verdicts and faithfulness_results.json with
partial coverage, `verify` naming a tampered verdict line, and `faithfulness --labels` writing
the agreement record that `verify` recomputes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "submissions" / "qwen2.5-coder-1.5b-instruct"
JUDGE = REPO / "judges" / "scripted-statements.yaml"


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> Path:
    """A copy of the 1.5B entry's run with its first 30 eligible statements judged."""
    folder = tmp_path_factory.mktemp("faith") / ENTRY.name
    folder.mkdir()
    for name in ("model.yaml", "predictions.jsonl.gz", "predictions.jsonl", "results.json"):
        if (ENTRY / name).is_file():
            shutil.copy(ENTRY / name, folder / name)
    out = cli("faithfulness", folder, "--judge", JUDGE, "--limit", 30, "--data-dir", data_root)
    assert out.code == 0, out.err
    assert "30 statements of " in out.out and "statements judged" in out.out
    return folder


def test_results_say_how_much_was_judged(judged: Path) -> None:
    data = json.loads((judged / "faithfulness_results.json").read_text(encoding="utf-8"))
    (summary,) = data["judges"]
    assert summary["judge_id"] == "scripted-statements"
    rows = {r["lang"]: r for r in summary["rows"]}
    judged_n = sum(r["judged_statements"] + r["n_unparsable"] for r in rows.values())
    assert judged_n <= 30 < sum(r["eligible_statements"] for r in rows.values())
    assert not any(r["complete"] for r in rows.values())


def test_verify_names_a_tampered_verdict_line(judged: Path, data_root: Path) -> None:
    path = judged / "faithfulness.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[0])
    rec["verdict"] = "contradicted" if rec["verdict"] != "contradicted" else "supported"
    path.write_text("\n".join([json.dumps(rec, ensure_ascii=False), *lines[1:]]) + "\n")
    out = cli("verify", judged, "--data-dir", data_root)
    assert out.code == 1, out.out
    assert f"FAIL: {path.as_posix()}" in out.out
    assert f"faithfulness.jsonl:1 ({rec['key']} statement {rec['statement']}) verdict:" in out.out


def test_labels_write_the_agreement_that_verify_recomputes(
    tmp_path: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 1.5B's labelled statements only (one answer rebuild), the committed layout."""
    labels = tmp_path / "labels"
    labels.mkdir()
    for lang in ("zh", "en"):
        src = REPO / "judges" / "faithfulness" / "labels" / f"{lang}.jsonl"
        mine = [ln for ln in src.read_text(encoding="utf-8").splitlines() if ENTRY.name in ln]
        first = json.loads(mine[0])  # a label read before the splitter changed: stale
        first["statement_text"] += " (as split before)"
        mine[0] = json.dumps(first, ensure_ascii=False)
        (labels / f"{lang}.jsonl").write_text("\n".join(mine) + "\n", encoding="utf-8")
    folder = tmp_path / "judges" / "faithfulness" / "agreement" / "scripted-statements"
    monkeypatch.chdir(REPO)  # the labels name their run folders repository-relative
    out = cli(
        "faithfulness",
        "--labels",
        labels,
        "--split",
        "all",
        "--judge",
        JUDGE,
        "--out",
        folder,
        "--resamples",
        100,
        "--data-dir",
        data_root,
    )
    assert out.code == 0, out.err
    assert "zh: kappa (supported vs not)" in out.out
    # one label per language reads a statement the splitter no longer makes: left out, listed
    assert "left out 2 labelled statement(s)" in out.out
    path = folder / "agreement.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["split"] == "all" and {r["lang"] for r in record["agreement"]} == {"zh", "en"}
    assert len(record["stale"]) == 2 and {r["lang"]: r["n_stale"] for r in record["agreement"]} == {
        "zh": 1,
        "en": 1,
    }
    ok = cli("verify", folder)
    assert ok.code == 0 and ok.out.strip() == f"ok: {path.as_posix()}", ok.out
    record["agreement"][0]["n"] += 1
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = cli("verify", folder)
    assert bad.code == 1 and "scripted-statements faithfulness kappa " in bad.out


def test_a_seeded_sample_of_whole_answers_is_recorded(tmp_path: Path, data_root: Path) -> None:
    folder = tmp_path / ENTRY.name
    folder.mkdir()
    for name in ("model.yaml", "predictions.jsonl.gz", "predictions.jsonl", "results.json"):
        if (ENTRY / name).is_file():
            shutil.copy(ENTRY / name, folder / name)
    args = ("--judge", JUDGE, "--sample-answers", 3, "--seed", 7, "--data-dir", data_root)
    out = cli("faithfulness", folder, *args)
    assert out.code == 0, out.err
    (summary,) = json.loads((folder / "faithfulness_results.json").read_text("utf-8"))["judges"]
    assert summary["sample"] == {"answers_per_lang": 3, "seed": 7}
    for row in summary["rows"]:
        assert row["judged_answers"] + (row["n_unparsable"] > 0) <= 3 < row["eligible_answers"]
    bad = cli("faithfulness", folder, "--judge", JUDGE, "--sample-answers", 0)
    assert bad.code != 0 and "--sample-answers" in bad.err + bad.out


def test_verdicts_outside_the_sample_do_not_enter_its_figures(
    tmp_path: Path, data_root: Path
) -> None:
    """A full run judging answers in order beside a sample: the sample's summary, written again
    from the larger cache, has the same figures, and `verify` recomputes them."""
    folder = tmp_path / ENTRY.name
    folder.mkdir()
    for name in ("model.yaml", "predictions.jsonl.gz", "predictions.jsonl", "results.json"):
        if (ENTRY / name).is_file():
            shutil.copy(ENTRY / name, folder / name)
    sampled = ("--judge", JUDGE, "--sample-answers", 4, "--data-dir", data_root)
    assert cli("faithfulness", folder, *sampled).code == 0
    path = folder / "faithfulness_results.json"
    before = json.loads(path.read_text("utf-8"))["judges"][0]["rows"]
    more = cli("faithfulness", folder, "--judge", JUDGE, "--limit", 40, "--data-dir", data_root)
    assert more.code == 0, more.err
    assert cli("faithfulness", folder, *sampled).code == 0  # every verdict cached: rewritten
    after = json.loads(path.read_text("utf-8"))["judges"][0]["rows"]
    assert after == before
    out = cli("verify", folder, "--data-dir", data_root)
    assert "FAIL" not in out.out and f"ok: {(folder / 'faithfulness.jsonl').as_posix()}" in out.out

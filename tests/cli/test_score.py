"""`score`, `compare` and `data audit` end to end through the real CLI on the real (fetched)
data."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.schema import PredictionRecord

runner = CliRunner()


def _answers(root: Path, name: str) -> dict[int, object]:
    lang = name[:2]
    lines = (root / f"data_{lang}" / name).read_text(encoding="utf-8").splitlines()
    return {r["id"]: r["answer"] for r in map(json.loads, lines) if r}


def _first(answer: object) -> str:
    a = answer[0] if isinstance(answer, list) else answer
    return a[0] if isinstance(a, list) else a


def _rows(root: Path) -> list[dict]:
    zh = _answers(root, "zh_refine.json")
    fact = _answers(root, "zh_fact.json")
    rows = []
    for i in range(20):  # zh noise 0.0: half right
        pred = f"答案是{_first(zh[i])}" if i % 2 == 0 else "我不知道"
        rows.append(
            {"lang": "zh", "ability": "noise", "id": i, "noise_rate": 0.0, "prediction": pred}
        )
    for i in range(10):  # zh rejection: 4 instructed refusals, 2 paraphrases
        pred = "文档信息不足，因此我无法回答。" if i < 4 else "无法确定" if i < 6 else "随便猜"
        rows.append(
            {"lang": "zh", "ability": "rejection", "id": i, "noise_rate": 1.0, "prediction": pred}
        )
    for i in range(10):
        pred = f"提供文档的文档存在事实性错误。答案是{_first(fact[i])}" if i < 5 else "不知道"
        rows.append(
            {
                "lang": "zh",
                "ability": "counterfactual",
                "id": i,
                "noise_rate": 0.0,
                "prediction": pred,
            }
        )
    rows.append(
        {
            "lang": "en",
            "ability": "counterfactual",
            "id": 1,
            "noise_rate": 0.0,
            "prediction": "Norway",
            "extra_field": "kept",
        }
    )
    return rows


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def test_score_end_to_end(tmp_path: Path, rgb_root: Path) -> None:
    preds = _write(tmp_path / "p.jsonl", _rows(rgb_root))
    out = tmp_path / "per.jsonl"
    summary = tmp_path / "summary.json"
    args = [
        "score",
        str(preds),
        "--data-dir",
        str(rgb_root),
        "--per-instance",
        str(out),
        "--mode",
        "rgb",
        "--resamples",
        "200",
        "--json",
        str(summary),
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "cells (rgb mode" in res.output and "41 predictions scored" in res.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 41
    assert lines[0]["labels"] == [1] and lines[0]["correct"] is True and lines[0]["mode"] == "rgb"
    rej = [x for x in lines if x["ability"] == "rejection"]
    assert [x["labels"] == [-1] for x in rej] == [True] * 4 + [False] * 6
    assert lines[-1]["extra_field"] == "kept" and lines[-1]["correct"] is True
    data = json.loads(summary.read_text(encoding="utf-8"))
    cells = {(c["ability"], c["mode"]): c for c in data["cells"] if c["lang"] == "zh"}
    assert cells[("noise", "rgb")]["accuracy"] == pytest.approx(0.5)
    assert cells[("rejection", "rgb")]["rejection_rate"] == pytest.approx(0.4)
    assert cells[("rejection", "strict")]["rejection_rate"] == pytest.approx(0.6)
    assert cells[("counterfactual", "rgb")]["ed"] == pytest.approx(0.5)
    assert data["bootstrap"]["resamples"] == 200


def test_score_strict_per_instance_has_token_f1(tmp_path: Path, rgb_root: Path) -> None:
    preds = _write(tmp_path / "p.jsonl", _rows(rgb_root)[:3])
    out = tmp_path / "per.jsonl"
    res = runner.invoke(
        app,
        [
            "score",
            str(preds),
            "--data-dir",
            str(rgb_root),
            "--per-instance",
            str(out),
            "--resamples",
            "0",
        ],
    )
    assert res.exit_code == 0, res.output
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["mode"] == "strict" and 0 < first["token_f1"] <= 1
    # why: the rule that withheld credit (none when correct) and each element's match
    reason = first["reason"]
    assert (reason["withheld"] is None) == (first["correct"] and not first["rejected"])
    assert len(reason["elements"]) == len(first["labels"])
    assert {e["status"] for e in reason["elements"]} <= {
        "matched",
        "not_found",
        "negated",
        "fake_answer",
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": 999}, "p.jsonl:2: field 'id': 999 is not in zh_refine.json"),
        ({"ability": "recall"}, "p.jsonl:2: field 'ability': 'recall' is not an ability"),
        ({"noise_rate": 2}, "p.jsonl:2: field 'noise_rate'"),
        ({"prediction": None}, "p.jsonl:2: field 'prediction'"),
    ],
)
def test_score_bad_line_names_file_line_and_field(
    tmp_path: Path, rgb_root: Path, change: dict, message: str
) -> None:
    rows = _rows(rgb_root)[:2]
    rows[1] = {**rows[1], **change}
    preds = _write(tmp_path / "p.jsonl", rows)
    out = tmp_path / "per.jsonl"
    res = runner.invoke(
        app, ["score", str(preds), "--data-dir", str(rgb_root), "--per-instance", str(out)]
    )
    assert res.exit_code != 0
    assert message in str(res.exception)
    assert not out.exists()  # nothing half-written


def test_score_missing_field_and_duplicates(tmp_path: Path, rgb_root: Path) -> None:
    rows = _rows(rgb_root)[:1]
    preds = _write(
        tmp_path / "p.jsonl", [rows[0], {k: v for k, v in rows[0].items() if k != "lang"}]
    )
    res = runner.invoke(app, ["score", str(preds), "--data-dir", str(rgb_root)])
    assert "p.jsonl:2: field 'lang': is missing" in str(res.exception)
    preds = _write(tmp_path / "p.jsonl", [rows[0], rows[0]])
    res = runner.invoke(app, ["score", str(preds), "--data-dir", str(rgb_root)])
    assert "already scored at" in str(res.exception)


def _submission(folder: Path, rows: list[dict], gz: bool = False) -> Path:
    folder.mkdir(parents=True)
    lines = []
    for r in rows:
        key = f"{r['lang']}/{r['ability']}/{r['noise_rate']:.1f}/{r['id']}"
        rec = PredictionRecord(
            key=key,
            fingerprint="f",
            lang=r["lang"],
            ability=r["ability"],
            noise_rate=r["noise_rate"],
            id=r["id"],
            prompt_sha256="0" * 64,
            passage_sha256=[],
            prediction=r["prediction"],
            created="2024-01-01T00:00:00Z",
        )
        lines.append(rec.model_dump_json() + "\n")
    if gz:
        with gzip.open(folder / "predictions.jsonl.gz", "wt", encoding="utf-8") as fh:
            fh.writelines(lines)
    else:
        (folder / "predictions.jsonl").write_text("".join(lines), encoding="utf-8")
    return folder


def test_compare_two_submissions(tmp_path: Path, rgb_root: Path) -> None:
    rows = [r for r in _rows(rgb_root) if r["lang"] == "zh"]
    worse = [{**r, "prediction": "不知道"} if r["ability"] == "noise" else r for r in rows]
    a = _submission(tmp_path / "a", rows)
    b = _submission(tmp_path / "b", worse, gz=True)
    res = runner.invoke(
        app, ["compare", str(a), str(b), "--data-dir", str(rgb_root), "--resamples", "300"]
    )
    assert res.exit_code == 0, res.output
    noise_line = next(line for line in res.output.splitlines() if " noise " in line)
    assert "+50.0" in noise_line and "20" in noise_line  # 10 of 20 right vs none
    assert "0.00195" in noise_line  # exact McNemar: 2 / 2**10
    rej_line = next(line for line in res.output.splitlines() if " rejection " in line)
    assert "+0.0" in rej_line


def test_compare_needs_shared_instances(tmp_path: Path, rgb_root: Path) -> None:
    rows = _rows(rgb_root)
    a = _submission(tmp_path / "a", rows[:2])
    b = _submission(tmp_path / "b", rows[2:4])
    res = runner.invoke(app, ["compare", str(a), str(b), "--data-dir", str(rgb_root)])
    assert res.exit_code != 0 and "share no instance keys" in str(res.exception)


def test_data_audit_table_and_json(rgb_root: Path) -> None:
    res = runner.invoke(app, ["data", "audit", "--data-dir", str(rgb_root), "--json"])
    assert res.exit_code == 0, res.output
    findings = json.loads(res.output)
    kinds = {f["kind"] for f in findings if f["id"] == 82 and f["file"] == "zh_fact.json"}
    assert {"fake_equals_answer", "conflict_fake_contains_true"} <= kinds
    assert all(f["lang"] == "zh" for f in findings if f["file"] == "zh_fact.json")
    res = runner.invoke(app, ["data", "audit", "--data-dir", str(rgb_root)])
    assert res.exit_code == 0 and "fake_equals_answer" in res.output


def test_data_audit_without_data(tmp_path: Path) -> None:
    res = runner.invoke(app, ["data", "audit", "--data-dir", str(tmp_path)])
    assert res.exit_code != 0 and "no RGB data files" in str(res.exception)


def test_score_takes_probe_predictions(tmp_path: Path, rgb_root: Path) -> None:
    """Probe lines (chain, replacement: no protocol noise rate) are scored as cells, without the
    off-protocol warning; they crashed `score` once (KeyError: 'replacement')."""
    zh = _answers(rgb_root, "zh_refine.json")
    rows = [
        {"lang": "zh", "ability": probe, "id": i, "noise_rate": 0.0, "prediction": _first(zh[i])}
        for probe in ("chain", "replacement")
        for i in range(3)
    ]
    preds = _write(tmp_path / "probes.jsonl", rows)
    res = runner.invoke(
        app, ["score", str(preds), "--data-dir", str(rgb_root), "--resamples", "50"]
    )
    assert res.exit_code == 0, res.output
    assert "6 predictions scored" in res.output and "outside the RGB protocol" not in res.output

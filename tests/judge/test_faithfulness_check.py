"""`verify` for the statement judge's files (judge/faithfulness_check.py): a run folder's
faithfulness.jsonl line by line against its answers, faithfulness_results.json recomputed, and
judges/faithfulness/agreement/<id>/agreement.json recomputed from its verdicts and the labels; a
real scripted-judge run (judges/scripted-statements.yaml) on answers built here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from leaderboard.core.judge_config import load_judge_config
from leaderboard.judge.faithfulness import FAITHFULNESS_NAME, LabelledStatement, read_labels
from leaderboard.judge.faithfulness_check import (
    check_faithfulness,
    check_faithfulness_agreement,
    is_faithfulness_agreement_target,
    verify_faithfulness_agreements,
)
from leaderboard.judge.faithfulness_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    RESULTS_NAME,
    agreement_record,
    faithfulness_summary,
    write_agreement,
    write_faithfulness_results,
)
from tests.judge.test_faithfulness_figures import JUDGE, answers, judged


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "entry"
    folder.mkdir()
    items, store = judged(folder)
    summary = faithfulness_summary(load_judge_config(JUDGE), items, store, {})
    write_faithfulness_results(folder / RESULTS_NAME, "entry", "fp", summary)
    return folder


def _edit_line(path: Path, lineno: int, **fields: object) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[lineno - 1])
    rec.update(fields)
    lines[lineno - 1] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_fresh_run_verifies(tmp_path: Path) -> None:
    check = check_faithfulness(_folder(tmp_path), answers(), "fp")
    assert check is not None and check.ok, check.render()  # type: ignore[union-attr]


def test_no_files_no_check_and_unrebuilt_answers_said(tmp_path: Path) -> None:
    assert check_faithfulness(tmp_path, answers(), "fp") is None
    check = check_faithfulness(_folder(tmp_path), None, "fp")
    assert check is not None and check.ok and "not checked" in check.render()


def test_a_tampered_verdict_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _edit_line(folder / FAITHFULNESS_NAME, 1, verdict="contradicted")
    check = check_faithfulness(folder, answers(), "fp")
    assert check is not None and not check.ok
    assert (
        f"{FAITHFULNESS_NAME}:1 (zh/noise/0.0/1 statement 0) verdict: line has 'contradicted', "
        "its output parses as 'supported'" in check.mismatches
    )


def test_a_tampered_reply_changes_the_figures_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _edit_line(folder / FAITHFULNESS_NAME, 1, output="矛盾", verdict="contradicted")
    check = check_faithfulness(folder, answers(), "fp")
    assert check is not None and not check.ok
    text = check.render()
    assert f"{RESULTS_NAME} scripted-statements faithfulness zh shares: file has" in text


def test_stale_and_extra_lines_are_named_not_used(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    changed = answers()
    inst, _, _ = changed[1]
    changed[1] = (inst, "冠军是肯塔基野猫队。爱荷华队是亚军。", None)  # the answer changed since
    check = check_faithfulness(folder, changed, "fp")
    assert check is not None and not check.ok
    assert any(
        "(zh/noise/0.2/1 statement 1) statement_text: line has" in m for m in check.mismatches
    )
    lines = (folder / FAITHFULNESS_NAME).read_text(encoding="utf-8").splitlines()
    extra = json.loads(lines[0]) | {"key": "zh/noise/0.2/9", "prompt_sha256": "0" * 64}
    with open(folder / FAITHFULNESS_NAME, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(extra, ensure_ascii=False) + "\n")
    check = check_faithfulness(folder, answers(), "fp")
    n = len(lines) + 1
    assert check is not None and any(
        m.startswith(f"{FAITHFULNESS_NAME}:{n} (zh/noise/0.2/9 statement 0): no such statement")
        for m in check.mismatches
    ), check.mismatches


def test_other_answers_and_a_missing_results_file_fail(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    check = check_faithfulness(folder, answers(), "other-run")
    assert check is not None and any("prediction_fingerprint" in m for m in check.mismatches)
    (folder / RESULTS_NAME).unlink()
    check = check_faithfulness(folder, answers(), "fp")
    assert check is not None and any(
        m.startswith(f"{RESULTS_NAME}: missing") for m in check.mismatches
    )


def _agreement(root: Path) -> Path:
    """A scripted-judge agreement folder in the committed layout, labels in root/labels."""
    items, store = judged(root / "run")
    labels = root / "labels" / "zh.jsonl"
    labels.parent.mkdir()
    rows = [
        LabelledStatement(
            folder="entry",
            key=it.key,
            lang=it.lang,
            statement=it.index,
            statement_text=it.statement,
            label="supported" if i % 2 == 0 else "unsupported",
            split="test",
        ).model_dump_json()
        for i, it in enumerate(items)
        if it.lang == "zh"
    ]
    labels.write_text("\n".join(rows) + "\n", encoding="utf-8")
    judge = load_judge_config(JUDGE)
    folder = root / AGREEMENT_DIR / judge.id
    folder.mkdir(parents=True)
    shutil.copy(root / "run" / FAITHFULNESS_NAME, folder / FAITHFULNESS_NAME)
    record = agreement_record(judge, [labels], read_labels(labels), "test", store, {}, 100)
    write_agreement(folder / AGREEMENT_NAME, record)
    return folder


def test_agreement_recomputed_and_tampering_named(tmp_path: Path) -> None:
    folder = _agreement(tmp_path)
    path = folder / AGREEMENT_NAME
    for target in (folder, path, folder.parent):
        assert is_faithfulness_agreement_target(target)
        lines, failed = verify_faithfulness_agreements([target])
        assert failed == 0 and lines == [f"ok: {path.as_posix()}"], lines
    data = json.loads(path.read_text(encoding="utf-8"))
    data["agreement"][0]["observed"] = 0.99
    path.write_text(json.dumps(data), encoding="utf-8")
    check = check_faithfulness_agreement(folder)
    assert not check.ok
    assert check.mismatches[0].startswith(
        "scripted-statements faithfulness kappa zh observed: file has 0.99, recomputed "
    )
    assert "faithfulness --labels" in check.render()


def test_changed_labels_are_named(tmp_path: Path) -> None:
    folder = _agreement(tmp_path)
    labels = tmp_path / "labels" / "zh.jsonl"
    labels.write_text(labels.read_text(encoding="utf-8").replace("unsupported", "contradicted"))
    check = check_faithfulness_agreement(folder)
    assert any("sha256: file has" in m for m in check.mismatches), check.mismatches

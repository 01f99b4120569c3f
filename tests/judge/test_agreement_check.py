"""`verify` for judges/agreement/<id>/agreement.json (leaderboard/judge/agreement_check.py): a real
scripted-judge run verifies; an edited value, a changed labels file, a missing reply or file, an
invalid file each fail naming what differs."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from leaderboard.judge.agreement import AGREEMENT_NAME, read_agreement
from leaderboard.judge.agreement_check import (
    agreement_folders,
    check_agreement,
    is_agreement_target,
    verify_agreements,
)
from leaderboard.judge.run import JUDGEMENTS_NAME
from tests.helpers import write_agreement


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository-like folder: labels/ and judges/agreement/x/ written by `judge-agreement`."""
    root = tmp_path_factory.mktemp("agree")
    write_agreement(root)
    return root


@pytest.fixture
def folder(made: Path, tmp_path: Path) -> Path:
    """A copy of the run to edit, tmp/judges/agreement/scripted-keywords, its labels recorded
    relative to tmp (as a committed file records them relative to the repository)."""
    shutil.copytree(made, tmp_path, dirs_exist_ok=True)
    out = tmp_path / "judges" / "agreement" / "scripted-keywords"
    _edit(
        out,
        lambda d: d.update(labels={f"labels/{Path(k).name}": v for k, v in d["labels"].items()}),
    )
    return out


def _edit(folder: Path, edit: Callable[[dict], None]) -> None:
    path = folder / AGREEMENT_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def test_a_fresh_run_verifies(folder: Path) -> None:
    record = read_agreement(folder / AGREEMENT_NAME)
    assert record.resamples == 200 and record.seed == 2333 and record.splits == ["test"]
    assert record.n_items == {"zh": 74, "en": 100}
    check = check_agreement(folder)
    assert check.ok, check.render()
    lines, failed = verify_agreements([folder.parent])
    assert failed == 0 and lines == [f"ok: {(folder / AGREEMENT_NAME).as_posix()}"]


def test_an_edited_kappa_fails_naming_the_field(folder: Path) -> None:
    def edit(d: dict) -> None:
        entry = next(
            e
            for e in d["agreement"]
            if (e["rater"], e["against"], e["lang"], e["task"])
            == ("judge", "labels", "en", "rejection")
        )
        entry["kappa"] = 0.99

    _edit(folder, edit)
    check = check_agreement(folder)
    assert not check.ok
    assert len(check.mismatches) == 1, check.mismatches
    assert check.mismatches[0].startswith(
        "scripted-keywords kappa en/rejection/judge/labels kappa: file has 0.99, recomputed 0.12"
    )
    text = check.render()
    assert text.startswith(f"FAIL: {(folder / AGREEMENT_NAME).as_posix()}")
    assert "judge-agreement --judge judges/scripted-keywords.yaml --split test --out" in text


def test_an_edited_rate_and_count_fail(folder: Path) -> None:
    def edit(d: dict) -> None:
        d["rates"][0]["n_unparsable"] = 3
        d["n_items"]["zh"] = 75

    _edit(folder, edit)
    found = check_agreement(folder).mismatches
    assert "scripted-keywords rate zh/rejection n_unparsable: file has 3, recomputed 0" in found
    assert "n_items: file has {'zh': 75, 'en': 100}, recomputed {'zh': 74, 'en': 100}" in found


def test_an_edited_labels_file_is_named(folder: Path) -> None:
    labels = folder.parents[2] / "labels" / "zh.jsonl"
    lines = labels.read_text(encoding="utf-8").splitlines(keepends=True)
    first = json.loads(lines[0])
    first["note"] = "edited"
    labels.write_text(json.dumps(first, ensure_ascii=False) + "\n" + "".join(lines[1:]), "utf-8")
    found = check_agreement(folder).mismatches
    assert any(
        m.startswith("labels labels/zh.jsonl sha256: file has ") and "the labels file now is" in m
        for m in found
    ), found


def test_a_flipped_label_changes_the_kappa_and_is_named(folder: Path) -> None:
    labels = folder.parents[2] / "labels" / "en.jsonl"
    rows = [json.loads(line) for line in labels.read_text(encoding="utf-8").splitlines()]
    target = next(r for r in rows if r["split"] == "test" and r["ability"] == "rejection")
    target["labels"]["rejected"] = not target["labels"]["rejected"]
    labels.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    found = check_agreement(folder).mismatches
    assert any(m.startswith("labels labels/en.jsonl sha256") for m in found)
    assert any(
        m.startswith("scripted-keywords kappa en/rejection/judge/labels kappa: file has ")
        for m in found
    )


def test_missing_labels_and_judgements_are_named(folder: Path) -> None:
    (folder / JUDGEMENTS_NAME).unlink()
    assert check_agreement(folder).mismatches == [
        "judgements.jsonl: missing beside it (nothing to recompute from)"
    ]
    labels = folder.parents[2] / "labels" / "en.jsonl"
    labels.unlink()
    assert check_agreement(folder).mismatches == ["labels labels/en.jsonl: file not found"]


def test_a_missing_reply_counts_as_unjudged(folder: Path) -> None:
    path = folder / JUDGEMENTS_NAME
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[1:]), encoding="utf-8")
    found = check_agreement(folder).mismatches
    assert any(" n_unjudged: file has 0, recomputed 1" in m for m in found), found


def test_an_invalid_file_is_one_line_naming_the_field(folder: Path) -> None:
    _edit(folder, lambda d: d.update(extra_field=1))
    (line,) = check_agreement(folder).mismatches
    assert line.startswith(f"{folder / AGREEMENT_NAME}: field 'extra_field': ")


def test_relative_labels_paths_resolve_in_the_agreement_folders_repository(folder: Path) -> None:
    """A committed file records the labels repository-relative: they are looked up in the checkout
    holding judges/agreement/<id> (here the copy's labels/, not the original run's)."""
    record = read_agreement(folder / AGREEMENT_NAME)
    assert sorted(record.labels) == ["labels/en.jsonl", "labels/zh.jsonl"]
    assert check_agreement(folder).ok
    (folder.parents[2] / "labels" / "zh.jsonl").unlink()
    assert check_agreement(folder).mismatches == ["labels labels/zh.jsonl: file not found"]


def test_resamples_of_older_files_come_from_the_command(folder: Path) -> None:
    command = "rgb-leaderboard judge-agreement --judge J --split test --resamples 200"
    _edit(folder, lambda d: d.update(resamples=None, seed=None))
    _edit(folder, lambda d: d["provenance"].update(command=command))
    assert check_agreement(folder).ok  # --resamples 200 in the recorded command, seed 2333
    _edit(folder, lambda d: d["provenance"].update(command="rgb-leaderboard judge-agreement"))
    found = check_agreement(folder).mismatches  # 2000 resamples: other bounds
    assert found and all(" kappa_ci: file has " in m for m in found), found


def test_targets(folder: Path, tmp_path: Path) -> None:
    root = folder.parent
    misplaced = root / "x"
    shutil.copytree(folder, misplaced)
    assert check_agreement(misplaced).mismatches == [
        "judge_id: file has 'scripted-keywords', the folder is 'x' (judges/agreement/<judge id>/)"
    ]
    assert is_agreement_target(folder) and is_agreement_target(folder / AGREEMENT_NAME)
    assert is_agreement_target(root)  # judges/agreement: every folder under it
    assert not is_agreement_target(tmp_path / "labels")
    assert not is_agreement_target(folder / JUDGEMENTS_NAME)
    assert agreement_folders([root]) == [folder, misplaced]
    assert agreement_folders([folder / AGREEMENT_NAME]) == [folder]

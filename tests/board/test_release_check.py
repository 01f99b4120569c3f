"""board.release_check: `verify` re-derives every score a release shows from the results.json
files it names, in a real git repository: from the working tree while an entry is unchanged,
from the commit that added the release once it was rescored; a tampered board.json, board.csv or
digest fails naming what differs; without git history it says what it could not reach."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.board.release import freeze, write_release
from leaderboard.board.release_check import is_release_target, verify_releases
from tests.board.test_release import CHANGELOG, _rescore
from tests.helpers import cli
from tests.site_factory import make_repo


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def _released_repo(tmp_path: Path) -> Path:
    """A board of 2 entries in git, released as 2026.12.0 and committed."""
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    _git(root, "init", "-q")
    _git(root, "config", "user.name", "t")
    _git(root, "config", "user.email", "t@example.org")
    release = freeze(
        load_site_data(root, with_predictions=False), "2026.12.0", "2026-12-01", CHANGELOG
    )
    write_release(root, release)
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "board and release")
    return root


def _folder(root: Path) -> Path:
    return root / "releases" / "2026.12.0"


def test_an_unchanged_board_is_re_derived_from_the_working_tree(tmp_path):
    root = _released_repo(tmp_path)
    lines, failed = verify_releases([root / "releases"])
    assert failed == 0, lines
    assert lines[0].startswith(f"ok: {_folder(root)}: ")
    assert "of 2 entries re-derived" in lines[0] and "from the commit" not in lines[0]


def test_a_rescored_entry_is_re_derived_from_the_release_commit(tmp_path):
    root = _released_repo(tmp_path)
    _rescore(root, "model-001", 0.5)
    _git(root, "commit", "-qam", "rescore model-001")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 0, lines
    assert "(1 from the commit that added it)" in lines[0]


def _edit_score(path: Path, model: str) -> None:
    rows = json.loads(path.read_text(encoding="utf-8"))
    row = next(r for r in rows if r["model"] == model and r["value"] is not None)
    row["value"] = row["value"] / 2 + 0.25
    path.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def test_a_tampered_board_json_fails_naming_the_score(tmp_path):
    root = _released_repo(tmp_path)
    _edit_score(_folder(root) / "board.json", "model-000")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1
    assert lines[0].startswith("FAILED: ") and "board.json: model-000/" in lines[0]
    assert "its results.json says" in lines[0]


def test_a_tampered_board_csv_fails(tmp_path):
    root = _released_repo(tmp_path)
    path = _folder(root) / "board.csv"
    head, first, *rest = path.read_text(encoding="utf-8").splitlines()
    cells = first.split(",")
    cells[8] = str(int(cells[8]) + 7)  # n_questions
    path.write_text("\n".join([head, ",".join(cells), *rest]) + "\n", encoding="utf-8")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1 and "board.csv: " in lines[0] and "n_questions" in lines[0]


def test_a_row_in_no_results_json_fails(tmp_path):
    root = _released_repo(tmp_path)
    path = _folder(root) / "board.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    rows.append({**rows[0], "metric": "invented"})
    path.write_text(json.dumps(rows), encoding="utf-8")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1 and "not derived from any results.json" in lines[0]


def test_a_tampered_digest_or_fingerprint_fails(tmp_path):
    root = _released_repo(tmp_path)
    path = _folder(root) / "release.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["digest"] = "0" * 16
    doc["entries"][0]["fingerprint"] = "f" * 16
    path.write_text(json.dumps(doc), encoding="utf-8")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1
    assert "digest 0000000000000000 does not follow" in lines[0]
    assert "fingerprint ffffffffffffffff is not its results.json's" in lines[0]


def test_a_results_json_that_is_not_the_released_one_fails(tmp_path):
    """The release commit holds a results.json other than the one the release names (a
    rewritten history): named, not trusted."""
    root = _released_repo(tmp_path)
    path = _folder(root) / "release.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["entries"][1]["results_sha256"] = "a" * 64
    path.write_text(json.dumps(doc), encoding="utf-8")
    _git(root, "commit", "-qam", "edit the release")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1 and "model-001: its results.json in " in lines[0]


def test_without_git_history_it_says_what_it_could_not_reach(tmp_path):
    root = _released_repo(tmp_path)
    _rescore(root, "model-001", 0.5)
    shutil.rmtree(root / ".git")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 0, lines
    assert "of 1 entries re-derived" in lines[0]
    assert "not re-derived: model-001" in lines[0]


def test_an_entry_id_that_leaves_submissions_is_refused(tmp_path):
    root = _released_repo(tmp_path)
    path = _folder(root) / "release.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["entries"][0]["id"] = "../../outside"
    path.write_text(json.dumps(doc), encoding="utf-8")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1 and "'../../outside' is not a submission id" in lines[0]


@pytest.mark.parametrize("name", ["release.json", "board.json"])
def test_an_unreadable_release_is_one_failed_line(tmp_path, name):
    root = _released_repo(tmp_path)
    (_folder(root) / name).write_text("{not json", encoding="utf-8")
    lines, failed = verify_releases([_folder(root)])
    assert failed == 1 and len(lines) == 1 and lines[0].startswith("FAILED: ")


def test_verify_command_checks_releases(tmp_path, monkeypatch):
    root = _released_repo(tmp_path)
    assert is_release_target(root / "releases") and is_release_target(_folder(root))
    assert not is_release_target(root / "submissions")
    monkeypatch.chdir(root)
    out = cli("verify", "releases/2026.12.0")
    assert out.code == 0, out.err
    assert out.out.startswith("ok: releases/2026.12.0: ")
    _edit_score(_folder(root) / "board.json", "model-001")
    bad = cli("verify", "releases")
    assert bad.code == 1 and "FAILED: releases/2026.12.0: board.json" in bad.out

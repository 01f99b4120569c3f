"""`rgb-leaderboard release VERSION` through the real CLI: the release folder, step 2 printed,
or committed and tagged in a real git repository with --commit-and-tag."""

from __future__ import annotations

import subprocess

from tests.helpers import cli, error_line
from tests.site_factory import make_repo


def _git(root, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def test_release_writes_the_folder_and_prints_step_two(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    out = cli("release", "2026.12.0", "--repo", root, "--date", "2026-12-03")
    assert out.code == 0, out.err
    assert "release 2026.12.0 (2026-12-03" in out.out and "the first release" in out.out
    assert 'git tag -a board-2026.12.0 -m "Board release 2026.12.0"' in out.out
    for name in ("release.json", "board.json", "board.csv"):
        assert (root / "releases" / "2026.12.0" / name).is_file()
    again = cli("release", "2026.12.0", "--repo", root)
    assert again.code == 2 and "frozen" in error_line(again)
    bad = cli("release", "2026.12.1", "--repo", root, "--date", "03/12/2026")
    assert bad.code == 2 and "YYYY-MM-DD" in error_line(bad)


def test_commit_and_tag(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    _git(root, "init", "-q")
    _git(root, "config", "user.name", "t")
    _git(root, "config", "user.email", "t@example.org")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "board")
    out = cli("release", "v1", "--repo", root, "--date", "2026-12-03", "--commit-and-tag")
    assert out.code == 0, out.err
    assert "tagged board-v1" in out.out
    assert _git(root, "tag", "--list").split() == ["board-v1"]
    assert "releases/v1/release.json" in _git(root, "show", "--name-only", "board-v1")

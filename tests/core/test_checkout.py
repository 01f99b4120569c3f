"""The clock and the checkout (core/checkout.py): paths written relative to the repository, and
a run's own output folder not counted as a change of the code."""

from __future__ import annotations

import subprocess
from pathlib import Path

from leaderboard.core.checkout import git_state, recorded_roots, repo_relative


def test_repo_relative_rewrites_paths_under_the_roots_only() -> None:
    roots = (Path("/work/main"),)
    cmd = "rgb-leaderboard run /work/main/submissions/x --data-dir /work/main --out /work/mainly/y"
    assert repo_relative(cmd, roots) == (
        "rgb-leaderboard run submissions/x --data-dir . --out /work/mainly/y"
    )
    assert repo_relative("'/work/main' is the root", roots) == "'.' is the root"


def test_roots_of_a_command_written_elsewhere() -> None:
    cmd = "rgb-leaderboard run /home/u/lb/submissions/smol --data-dir /home/u/lb"
    assert recorded_roots(cmd) == (Path("/home/u/lb"),)
    assert repo_relative(cmd, recorded_roots(cmd)) == (
        "rgb-leaderboard run submissions/smol --data-dir ."
    )
    # the default roots include them: a run started from another checkout (a clean worktree)
    # on this repository's submission records a relative command too
    assert repo_relative(cmd) == "rgb-leaderboard run submissions/smol --data-dir ."


def test_the_runs_own_output_folder_does_not_make_the_tree_dirty(tmp_path: Path) -> None:
    """A run writes its tracked predictions/results: that is not an edit of the code it ran."""
    repo = tmp_path / "repo"
    (repo / "submissions" / "m").mkdir(parents=True)
    (repo / "submissions" / "m" / "predictions.jsonl").write_text("{}\n")
    (repo / "code.py").write_text("x = 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    out = repo / "submissions" / "m"
    (out / "predictions.jsonl").write_text("{}\n{}\n")
    assert git_state(repo, ignore=out)[1] is False
    assert git_state(repo)[1] is True
    assert git_state(repo, ignore=tmp_path / "elsewhere")[1] is True  # outside the checkout
    (repo / "code.py").write_text("x = 2\n")
    assert git_state(repo, ignore=out)[1] is True

"""`release VERSION`: freeze the board as a citable release (releases/<id>/release.json,
board.json, board.csv) and print what changed since the previous release.

Two steps, so the tag points at the commit that holds the release's files:
  1. `rgb-leaderboard release 2026.12.0` writes releases/2026.12.0/ and prints step 2;
  2. `git add releases/2026.12.0 && git commit -m "Board release 2026.12.0" &&
     git tag -a board-2026.12.0 -m "Board release 2026.12.0"` (or pass --commit-and-tag).
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import typer

from leaderboard.board.cite import TAG_PREFIX
from leaderboard.board.load import load_site_data
from leaderboard.board.release import (
    compare,
    freeze,
    read_releases,
    release_dir,
    write_release,
)
from leaderboard.core.errors import LeaderboardError


def _git(repo: Path, *args: str) -> None:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise LeaderboardError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")


def release_cmd(
    version: str = typer.Argument(..., help="The release id, e.g. 2026.12.0."),
    repo: Path = typer.Option(Path("."), "--repo", help="The repository root."),
    date: str | None = typer.Option(None, "--date", help="YYYY-MM-DD (default: today, UTC)."),
    commit_and_tag: bool = typer.Option(
        False, "--commit-and-tag", help="Also commit releases/<id> and tag it board-<id>."
    ),
) -> None:
    """Freeze the board as release VERSION and list what changed since the previous one."""
    day = date or datetime.now(UTC).strftime("%Y-%m-%d")
    try:
        datetime.strptime(day, "%Y-%m-%d")
    except ValueError:
        raise LeaderboardError(f"--date {day!r}: expected YYYY-MM-DD") from None
    changelog = repo / "CHANGELOG.md"
    text = changelog.read_text(encoding="utf-8") if changelog.is_file() else ""
    data = load_site_data(repo, with_predictions=False)
    release = freeze(data, version, day, text)
    previous = read_releases(repo)
    changes = compare(previous[-1] if previous else None, release)
    folder = write_release(repo, release)
    typer.echo(
        f"release {release.id} ({release.date}, digest {release.digest}): "
        f"{len(release.entries)} entries, scoring {', '.join(release.scoring_versions)}"
    )
    typer.echo(f"wrote {folder.as_posix()}/ (release.json, board.json, board.csv)")
    if changes.previous is None:
        typer.echo("the first release: every entry is new")
    else:
        typer.echo(
            f"since {changes.previous}: {len(changes.added)} added, {len(changes.removed)} "
            f"removed, {len(changes.rescored)} rescored or rerun, {len(changes.moved)} score(s) "
            "moved beyond their interval"
        )
        for r in changes.rescored:
            why = r.changelog[0][:120] if r.changelog else "no CHANGELOG line names it"
            typer.echo(f"  {r.reason}: {r.entry}: {why}")
    rel = release_dir(Path("."), release.id).as_posix()
    tag = f"{TAG_PREFIX}{release.id}"
    message = f"Board release {release.id}"
    if commit_and_tag:
        _git(repo, "add", rel)
        _git(repo, "commit", "-m", message, "--", rel)
        _git(repo, "tag", "-a", tag, "-m", message)
        typer.echo(f"committed {rel} and tagged {tag}")
    else:
        typer.echo(
            f'step 2: git add {rel} && git commit -m "{message}" && git tag -a {tag} -m "{message}"'
        )


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("release")(release_cmd)

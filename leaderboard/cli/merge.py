"""`merge DIR... --into SUB`: the folders of shard jobs (`run SUB --shard K/N --out DIR`) folded
into the entry after checking that they belong together, then rescored (`run.merge`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.submission import load_submission
from leaderboard.data.manifest import data_root
from leaderboard.run.lock import folder_lock
from leaderboard.run.merge import merge_shard_folders


def merge(
    folders: list[Path] = typer.Argument(..., help="The --out folder of each `run --shard K/N`."),
    into: Path = typer.Option(
        ..., "--into", help="The entry: submissions/<id>/model.yaml (or its folder)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    wait: bool = typer.Option(
        False, "--wait", help="If a run holds the entry's folder, wait for it to finish."
    ),
) -> None:
    """Fold shard folders into the entry: refused unless every shard has the same fingerprint,
    data blob ids, scoring version, selection and number of shards, and overlapping answers
    agree; the entry's results.json is then recomputed over the shards' selection."""
    sub = load_submission(into)
    command = "rgb-leaderboard " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    entry = sub.source_path.parent  # type: ignore[union-attr]
    with folder_lock(entry, command, wait=wait, dry_run=False):
        outcome = merge_shard_folders(sub, folders, root=data_root(data_dir), command=command)
    typer.echo(outcome.render())
    typer.echo(f"results: {entry / 'results.json'}")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `merge`."""
    app.command("merge")(merge)

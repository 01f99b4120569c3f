"""`verify`: every results.json recomputed from its predictions with the current code and data;
fails naming each differing value (the trust chain a submission pull request goes through)."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP, submission_folders
from leaderboard.data.manifest import data_root
from leaderboard.trust.verify import verify


def verify_cmd(
    submissions: list[Path] | None = typer.Argument(
        None, help="Submission folders (default: every submissions/*/ with a results.json)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Recompute every results.json from its predictions (current code and data); exit 1 naming
    each cell that differs, a scoring-version mismatch, a fingerprint or prompt hash that does
    not match the instances."""

    root = data_root(data_dir)
    failed = 0
    for folder in submission_folders(submissions):
        report = verify(folder, root)
        typer.echo(report.render())
        for note in report.recomputed.notes:
            typer.echo(f"  note: {note}")
        failed += not report.ok
    if failed:
        typer.secho(f"{failed} submission(s) failed verification", fg=typer.colors.RED, err=True)
        raise typer.Exit(1)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `verify`."""
    app.command("verify")(verify_cmd)

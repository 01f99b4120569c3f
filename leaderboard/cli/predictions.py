"""`predictions repair`: recorded text the current decoding would not have written is fixed in
place (and recorded in provenance), then results.json is rescored."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.cli.arguments import (
    DATA_DIR_HELP,
    command_group,
    provenance_command,
    submission_folders,
)
from leaderboard.cli.rescore import write_rescored
from leaderboard.data.manifest import data_root
from leaderboard.trust.repair import repair_folder


def repair_cmd(
    submissions: list[Path] = typer.Argument(..., help="Submission folders to repair."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    dry_run: bool = typer.Option(False, "--dry-run", help="Count what would change; write none."),
) -> None:
    """Drop the U+FFFD an interrupted multi-byte character left at the end of recorded
    predictions (marked trimmed_incomplete_char, repaired_by), then rescore results.json."""

    root = data_root(data_dir)
    for folder in submission_folders(submissions):
        summary = repair_folder(folder, dry_run=dry_run)
        typer.echo(
            f"{folder.as_posix()}: {summary.lines} prediction lines, "
            f"{len(summary.trimmed)} ended inside a character (trimmed), "
            f"{len(summary.mid_text)} keep a U+FFFD inside the text (model output, kept)"
        )
        if summary.mid_text:
            typer.echo(f"  kept: {', '.join(summary.mid_text)}")
        if summary.trimmed and not dry_run:
            command = provenance_command("predictions repair", [folder])
            write_rescored(folder, root, command, {"repair": summary.as_dict()})


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `predictions repair`."""
    preds = command_group("Maintain recorded predictions (repair).")
    preds.command("repair")(repair_cmd)
    app.add_typer(preds, name="predictions")

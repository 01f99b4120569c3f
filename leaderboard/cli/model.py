"""`model fetch`: prepare a submission's weights ahead of a run (join split weights into the
cache and check their sha256), so a long run does not start with minutes of joining, and a
missing or wrong part is found before anything else happens."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from leaderboard.cli.arguments import command_group
from leaderboard.core.submission import load_submission
from leaderboard.core.weights import joined_path


def fetch(
    submissions: list[Path] = typer.Argument(..., help="Submission folders or model.yaml files."),
) -> None:
    """Join (once) and check the weights of each submission; print where they are."""
    for path in submissions:
        sub = load_submission(path)
        t0 = time.perf_counter()
        cached = sub.weights is not None and joined_path(sub.weights).is_file()
        resolved = sub.resolve_model()
        where = Path(resolved.path_or_id) / (resolved.gguf_file or "")
        if sub.weights is not None:
            how = "cached, sha256 checked" if cached else "joined from parts, sha256 checked"
            typer.echo(
                f"{sub.id}: {where} ({how}: {sub.weights.sha256[:16]}…, "
                f"{where.stat().st_size:,} bytes, {time.perf_counter() - t0:.1f} s)"
            )
        else:
            typer.echo(f"{sub.id}: {where} ({resolved.source}; nothing to join)")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    group = command_group("Prepare a submission's weights (join split weights, check sha256).")
    group.command("fetch")(fetch)
    app.add_typer(group, name="model")

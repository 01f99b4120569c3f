"""`rescore`: results.json rewritten from the predictions with the current scoring code (the
recorded way to regenerate after a scoring change; no model is loaded, nothing is generated)."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP, provenance_command, submission_folders
from leaderboard.core.checkout import git_state
from leaderboard.core.errors import ResultsError
from leaderboard.data.manifest import data_root
from leaderboard.run.store import RunStore
from leaderboard.trust.differences import compare_results
from leaderboard.trust.rescore import rescored
from leaderboard.trust.retrieval_files import is_retrieval_file, rescore_retrieval_file
from leaderboard.trust.verify import recompute


def write_rescored(
    folder: Path, root: Path, command: str, extra: dict[str, object] | None = None
) -> None:
    """Recompute, refuse when the predictions no longer match their instances (a rerun is
    needed then, not a rescore), write results.json and list what changed."""
    rc = recompute(folder, root)
    if rc.new is None or any(p.startswith(("fingerprint", "prompt hash")) for p in rc.problems):
        raise ResultsError(
            f"{folder}: not rescored: " + "; ".join(rc.problems) + ". The predictions do not "
            "match the instances; rerun the submission instead."
        )
    changed = compare_results(rc.old, rc.new)
    store = RunStore(folder)
    store.write_results(rescored(rc, command, extra))
    typer.echo(f"rescored {store.results_path.as_posix()}: {len(changed)} value(s) changed")
    for m in changed[:50]:
        typer.echo(f"  {m}")
    if len(changed) > 50:
        typer.echo(f"  ... and {len(changed) - 50} more")


def rescore_cmd(
    submissions: list[Path] | None = typer.Argument(
        None,
        help="Submission folders, or retrieval result files (retrieval/<split>/*.json); default: "
        "every submissions/*/ with a results.json and its instruction and conflict folders, as "
        "`verify` reads them.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Rewrite results.json from the predictions with the current scoring code (no model is
    loaded, nothing is generated); the run's provenance is kept and the rescoring recorded."""

    root = data_root(data_dir)
    # The code's checkout as the command found it: read once, before this command writes the
    # first results.json (a tracked file), so the second entry's record does not call the code
    # "dirty" for the first entry's rewrite.
    commit, dirty = git_state()
    state: dict[str, object] = {"git_commit": commit, "git_dirty": dirty}
    named = submissions or []
    for path in [p for p in named if is_retrieval_file(p)]:
        typer.echo(rescore_retrieval_file(path, provenance_command("rescore", [path])))
    folders = [p for p in named if not is_retrieval_file(p)]
    for folder in submission_folders(folders, instructions=True) if folders or not named else []:
        write_rescored(folder, root, provenance_command("rescore", [folder]), state)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `rescore`."""
    app.command("rescore")(rescore_cmd)

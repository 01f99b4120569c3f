"""`verify`, `rescore` and `predictions repair`: the trust chain from predictions to results.json.

verify recomputes every results.json from its predictions with the current code and data and fails
naming each differing value; rescore writes the recomputed file (the recorded way to regenerate
after a scoring change; no model is loaded); predictions repair fixes recorded text the current
decoding would not have written, then rescores.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from leaderboard.core.errors import ResultsError
from leaderboard.data.manifest import data_root
from leaderboard.judge.check import verify_judges
from leaderboard.retrieval.results import RESULTS_DIR
from leaderboard.run.store import RunStore
from leaderboard.trust.board_check import (
    is_retrieval_file,
    is_retrieval_target,
    rescore_retrieval_file,
    verify_retrieval,
)
from leaderboard.trust.repair import repair_folder
from leaderboard.trust.verify import compare_results, recompute, rescored, verify

_DATA_DIR_HELP = (
    "Folder holding data_en/ and data_zh/ (default: $RGB_DATA_DIR, else the current folder "
    "if it has data_zh/MANIFEST.json, else the repository root)."
)


def _folders(paths: list[Path] | None) -> list[Path]:
    """The submission folders named (a model.yaml or results.json stands for its folder), or
    every submissions/*/ holding a results.json."""
    if not paths:
        found = sorted(p.parent for p in Path("submissions").glob("*/results.json"))
        if not found:
            raise ResultsError("no submissions/*/results.json under the current folder")
        return found
    return [p.parent if p.is_file() else p for p in paths]


def _command(name: str, folders: list[Path]) -> str:
    """The command line recorded in provenance (made repository-relative by the writer)."""
    return f"rgb-leaderboard {name} " + " ".join(shlex.quote(f.as_posix()) for f in folders)


def verify_cmd(
    submissions: list[Path] | None = typer.Argument(
        None,
        help="Submission folders, retrieval files or folders (default: every submissions/*/ "
        "with a results.json, and retrieval/).",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
) -> None:
    """Recompute every results.json from its predictions (current code and data), every
    judge_results.json from its judgements and the retrieval results from the data; exit 1
    naming each value that differs, a scoring-version mismatch, a fingerprint or prompt hash
    that does not match the instances."""

    root = data_root(data_dir)
    failed = 0
    named = list(submissions or [])
    retrieval = [p for p in named if is_retrieval_target(p)]
    if not named and Path(RESULTS_DIR).is_dir():
        retrieval = [Path(RESULTS_DIR)]
    folders = [p for p in named if not is_retrieval_target(p)]
    folders = _folders(folders) if folders or not named else []
    for folder in folders:
        report = verify(folder, root)
        typer.echo(report.render())
        for note in report.recomputed.notes:
            typer.echo(f"  note: {note}")
        failed += not report.ok
    for lines, n in (verify_judges(folders, root), verify_retrieval(retrieval, root)):
        for line in lines:
            typer.echo(line)
        failed += n
    if failed:
        typer.secho(f"{failed} submission(s) failed verification", fg=typer.colors.RED, err=True)
        raise typer.Exit(1)


def _write_rescored(
    folder: Path, root: Path, command: str, extra: dict[str, object] | None = None
) -> None:

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
    submissions: list[Path] = typer.Argument(
        ..., help="Submission folders, or retrieval result files (retrieval/<split>/*.json)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
) -> None:
    """Rewrite results.json from the predictions with the current scoring code (no model is
    loaded, nothing is generated); the run's provenance is kept and the rescoring recorded."""

    root = data_root(data_dir)
    for path in [p for p in submissions if is_retrieval_file(p)]:
        typer.echo(rescore_retrieval_file(path, _command("rescore", [path])))
    folders = [p for p in submissions if not is_retrieval_file(p)]
    for folder in _folders(folders) if folders else []:
        _write_rescored(folder, root, _command("rescore", [folder]))


def repair_cmd(
    submissions: list[Path] = typer.Argument(..., help="Submission folders to repair."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    dry_run: bool = typer.Option(False, "--dry-run", help="Count what would change; write none."),
) -> None:
    """Drop the U+FFFD an interrupted multi-byte character left at the end of recorded
    predictions (marked trimmed_incomplete_char, repaired_by), then rescore results.json."""

    root = data_root(data_dir)
    for folder in _folders(submissions):
        summary = repair_folder(folder, dry_run=dry_run)
        typer.echo(
            f"{folder.as_posix()}: {summary.lines} prediction lines, "
            f"{len(summary.trimmed)} ended inside a character (trimmed), "
            f"{len(summary.mid_text)} keep a U+FFFD inside the text (model output, kept)"
        )
        if summary.mid_text:
            typer.echo(f"  kept: {', '.join(summary.mid_text)}")
        if summary.trimmed and not dry_run:
            command = _command("predictions repair", [folder])
            _write_rescored(folder, root, command, {"repair": summary.as_dict()})


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("verify")(verify_cmd)
    app.command("rescore")(rescore_cmd)
    preds = typer.Typer(
        help="Maintain recorded predictions (repair).",
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    preds.command("repair")(repair_cmd)
    app.add_typer(preds, name="predictions")

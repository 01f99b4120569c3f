"""`validate`: a model.yaml checked as CI checks it (schema, pinned revision, remote code only
with a pin, chat template inside the folder).

Errors name the file, the YAML line and the field, as a pull-request reviewer needs them.
"""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.backends.registry import backend_traits
from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import SUBMISSION_FILE, Submission, load_submission

# Architectures outside transformers: they load only with trust_remote_code (which needs a pin).
NEEDS_REMOTE_CODE = frozenset(
    {"Qwen/Qwen-7B-Chat", "THUDM/chatglm2-6b", "internlm/internlm2_5-7b-chat"}
)


def _submission_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir() and (p / SUBMISSION_FILE).is_file():
            files.append(p / SUBMISSION_FILE)
        elif p.is_dir():
            found = sorted(p.glob(f"*/{SUBMISSION_FILE}"))
            files.extend(found or [p / SUBMISSION_FILE])
        else:
            files.append(p)
    return files


def check_submission(file: Path) -> tuple[Submission | None, list[str], list[str]]:
    """(submission, errors, warnings) for one model.yaml; errors already name file,
    line and field."""
    try:
        sub = load_submission(file)
    except ConfigError as exc:
        return None, str(exc).splitlines(), []
    errors: list[str] = []
    warnings: list[str] = []
    try:
        sub.resolve_chat_template()
    except ConfigError as exc:
        errors.append(str(exc))
    resolved = None
    if sub.weights is None:  # parts are joined by `model fetch` or a run, not by validate
        try:
            resolved = sub.resolve_model()
        except ConfigError as exc:
            errors.append(f"{file}: field 'model': {exc}")
    hub = resolved is not None and resolved.source == "hub"
    if hub and backend_traits(sub.backend).hub_checkpoint:
        if not sub.revision_pinned:
            warnings.append(
                f"{file}: field 'revision': needs pin: {sub.revision or '(none)'!r} is "
                "not a commit; run "
                f"`rgb-leaderboard submissions pin {file}` before submitting results"
            )
        if sub.model in NEEDS_REMOTE_CODE and not sub.trust_remote_code:
            warnings.append(
                f"{file}: field 'trust_remote_code': needs pin: {sub.model} only loads "
                "with remote code; "
                "pin the revision, review the code at that commit, then set trust_remote_code: true"
            )
    return sub, errors, warnings


def validate(
    paths: list[Path] = typer.Argument(
        ..., help="model.yaml files, submission folders, or submissions/."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="Treat warnings (e.g. unpinned revisions) as errors."
    ),
) -> None:
    """Check submissions (for pull requests): lists every problem; exit 1 if any is an error."""
    failed = False
    for file in _submission_files(paths):
        sub, errors, warnings = check_submission(file)
        for e in errors:
            typer.secho(f"error: {e}", fg=typer.colors.RED, err=True)
        for w in warnings:
            typer.secho(
                f"{'error' if strict else 'warning'}: {w}", fg=typer.colors.YELLOW, err=True
            )
        bad = bool(errors) or (strict and bool(warnings))
        failed |= bad
        if not bad:
            note = f" ({len(warnings)} warning(s))" if warnings else ""
            typer.echo(f"ok: {file} ({sub.id if sub else '?'}){note}")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `validate`."""
    app.command("validate")(validate)

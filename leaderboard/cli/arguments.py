"""What several commands share: the --data-dir help, a command group's settings, and the
submission folders a trust command works on, with the command line it records in provenance."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from leaderboard.core.entry_folders import CONFLICTS_DIR, INSTRUCTIONS_DIR
from leaderboard.core.errors import ConfigError, ResultsError

DATA_DIR_HELP = (
    "Folder holding data_en/ and data_zh/ (default: $RGB_DATA_DIR, else the current folder "
    "if it has data_zh/MANIFEST.json, else the repository root)."
)


def comma_list(value: str | None, allowed: tuple[str, ...], option: str) -> list[str] | None:
    """A comma list of allowed names, e.g. --languages zh,en (None when the option is not given);
    an unknown name is a one-line error naming the option and what it accepts."""
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise ConfigError(
            f"{option}: unknown value(s) {bad or value!r}; use a comma list of {', '.join(allowed)}"
        )
    return items


def submission_folders(paths: list[Path] | None, instructions: bool = False) -> list[Path]:
    """The submission folders named (a model.yaml or results.json stands for its folder), or
    every submissions/*/ holding a results.json; with `instructions`, each followed by its
    instruction-track and conflict-track folders (submissions/*/instructions/*/,
    submissions/*/conflicts/*/, for `verify` and `rescore`)."""
    if not paths:
        found = sorted(p.parent for p in Path("submissions").glob("*/results.json"))
        if instructions:
            found = sorted(
                found
                + [
                    p.parent
                    for folder in (INSTRUCTIONS_DIR, CONFLICTS_DIR)
                    for p in Path("submissions").glob(f"*/{folder}/*/results.json")
                ]
            )
        if not found:
            raise ResultsError("no submissions/*/results.json under the current folder")
        return found
    return [p.parent if p.is_file() else p for p in paths]


def track_entries(paths: list[Path] | None, track: str, how_to_run: str) -> list[Path]:
    """The entry folders a track's `panel` command reads: those named, else every submissions/*/
    with a results.json under its `track` folder (instructions/ or conflicts/); none is a
    one-line error that says how to make one."""
    folders = paths or sorted(
        p.parent.parent.parent for p in Path("submissions").glob(f"*/{track}/*/results.json")
    )
    folders = list(dict.fromkeys(Path(f) for f in folders))
    if not folders:
        raise ResultsError(
            f"no submissions/*/{track}/*/results.json here: run one with `{how_to_run}`"
        )
    return folders


def provenance_command(name: str, folders: list[Path]) -> str:
    """The command line recorded in provenance (made repository-relative by the writer)."""
    return f"rgb-leaderboard {name} " + " ".join(shlex.quote(f.as_posix()) for f in folders)


def command_group(help: str) -> typer.Typer:
    """A group of subcommands (`data`, `site`, `retrieval`, ...): its help, shown when it is
    called with no subcommand, and -h beside --help, as on every command."""
    return typer.Typer(
        help=help, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]}
    )

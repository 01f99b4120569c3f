"""Arguments several commands share: the --data-dir help and the submission folders a trust
command works on, with the command line it records in provenance."""

from __future__ import annotations

import shlex
from pathlib import Path

from leaderboard.core.errors import ResultsError

DATA_DIR_HELP = (
    "Folder holding data_en/ and data_zh/ (default: $RGB_DATA_DIR, else the current folder "
    "if it has data_zh/MANIFEST.json, else the repository root)."
)


def submission_folders(paths: list[Path] | None) -> list[Path]:
    """The submission folders named (a model.yaml or results.json stands for its folder), or
    every submissions/*/ holding a results.json."""
    if not paths:
        found = sorted(p.parent for p in Path("submissions").glob("*/results.json"))
        if not found:
            raise ResultsError("no submissions/*/results.json under the current folder")
        return found
    return [p.parent if p.is_file() else p for p in paths]


def provenance_command(name: str, folders: list[Path]) -> str:
    """The command line recorded in provenance (made repository-relative by the writer)."""
    return f"rgb-leaderboard {name} " + " ".join(shlex.quote(f.as_posix()) for f in folders)

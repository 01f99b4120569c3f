"""Where an entry's other run folders live: its answers under an alternative instruction
(`<entry>/instructions/<id>/`) and its knowledge-conflict track (`<entry>/conflicts/<id>/`),
each a run folder of its own, never beside the ranked predictions.

Kept apart from the model.yaml schema (core/submission.py): this is the layout of folders on disk,
which the runner, `verify` and the board share.
"""

from __future__ import annotations

from pathlib import Path

from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import SUBMISSION_FILE, is_slug

# An entry's answers under an alternative instruction (the instruction-sensitivity track) live in
# submissions/<id>/instructions/<instruction id>/: a run folder of its own, with its own
# fingerprint, never beside the ranked predictions.
INSTRUCTIONS_DIR = "instructions"


def instruction_dir(entry: Path, instruction_id: str) -> Path:
    """Where an entry's answers under one alternative instruction are kept."""
    if not is_slug(instruction_id):
        raise ConfigError(f"instruction id {instruction_id!r} is not a plain name")
    return Path(entry) / INSTRUCTIONS_DIR / instruction_id


def instruction_folder_entry(folder: Path) -> Path | None:
    """The entry folder of an instruction folder (entry/instructions/<id>/) or of a conflict
    folder (entry/conflicts/<id>/), else None."""
    folder = Path(folder)
    if (
        folder.parent.name in (INSTRUCTIONS_DIR, CONFLICTS_DIR)
        and (folder.parent.parent / SUBMISSION_FILE).is_file()
    ):
        return folder.parent.parent
    return None


CONFLICTS_DIR = "conflicts"  # entry/conflicts/<instruction id>/: the knowledge-conflict track


def conflict_dir(entry: Path, instruction_id: str | None) -> Path:
    """Where an entry's answers of the conflict track under one instruction are kept (RGB's
    instruction: conflicts/rgb/)."""
    iid = instruction_id or "rgb"
    if not is_slug(iid):
        raise ConfigError(f"instruction id {iid!r} is not a plain name")
    return Path(entry) / CONFLICTS_DIR / iid


def is_conflict_folder(folder: Path) -> bool:
    """Is this an entry's conflict-track folder (entry/conflicts/<id>/)?"""
    folder = Path(folder)
    return (
        folder.parent.name == CONFLICTS_DIR and (folder.parent.parent / SUBMISSION_FILE).is_file()
    )

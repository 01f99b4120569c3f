"""Where an entry's other run folders live (leaderboard.core.entry_folders): instruction and
conflict-track folders under the entry, recognised only under a real entry, plain names only."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.entry_folders import (
    conflict_dir,
    instruction_dir,
    instruction_folder_entry,
    is_conflict_folder,
)
from leaderboard.core.errors import ConfigError


@pytest.fixture
def entry(tmp_path: Path) -> Path:
    folder = tmp_path / "submissions" / "m"
    folder.mkdir(parents=True)
    (folder / "model.yaml").write_text("id: m\n", encoding="utf-8")
    return folder


def test_folders_sit_under_the_entry_and_lead_back_to_it(entry: Path) -> None:
    assert instruction_dir(entry, "abstain_user") == entry / "instructions" / "abstain_user"
    assert conflict_dir(entry, None) == entry / "conflicts" / "rgb"
    assert conflict_dir(entry, "conflict_aware") == entry / "conflicts" / "conflict_aware"
    for folder in (instruction_dir(entry, "typo_fixed"), conflict_dir(entry, None)):
        assert instruction_folder_entry(folder) == entry
    assert is_conflict_folder(conflict_dir(entry, None))
    assert not is_conflict_folder(instruction_dir(entry, "typo_fixed"))


def test_a_lookalike_folder_without_an_entry_is_none(tmp_path: Path) -> None:
    folder = tmp_path / "x" / "conflicts" / "rgb"
    assert instruction_folder_entry(folder) is None and not is_conflict_folder(folder)
    assert instruction_folder_entry(tmp_path) is None


@pytest.mark.parametrize("bad", ["../up", "a/b", "Upper", ""])
def test_an_instruction_id_must_be_a_plain_name(entry: Path, bad: str) -> None:
    with pytest.raises(ConfigError, match="not a plain name"):
        instruction_dir(entry, bad)
    with pytest.raises(ConfigError, match="not a plain name"):
        conflict_dir(entry, bad or "..")

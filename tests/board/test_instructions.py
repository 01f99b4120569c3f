"""The instruction track on the board: real panel runs of the always-refusing baseline under every
instruction, read back as the entry's instruction runs; no cell mixes instructions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaderboard.board.instructions import model_panel, panel_frame, panel_keys
from leaderboard.board.load import load_entry
from leaderboard.core.errors import ResultsError
from leaderboard.core.submission import load_submission
from leaderboard.protocol.instructions import OFFICIAL, alternative_ids
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection, panel_selection
from leaderboard.trust.verify import verify


@pytest.fixture(scope="module")
def refuse_entry(
    tmp_path_factory: pytest.TempPathFactory, repo_root: Path, data_root: Path
) -> Path:
    """A copy of the committed always-refuse baseline with the whole panel run under every
    alternative instruction (the scripted policy: seconds)."""
    entry = tmp_path_factory.mktemp("board") / "submissions" / "baseline-refuse"
    shutil.copytree(repo_root / "submissions" / "baseline-refuse", entry)
    sub = load_submission(entry)
    for instruction in alternative_ids():
        selection = panel_selection(Selection(instruction=instruction))
        run_submission(sub, RunOptions(root=data_root, selection=selection, progress=False))
    return entry


def test_every_alternative_is_a_run_folder_of_its_own(refuse_entry: Path) -> None:
    entry = load_entry(refuse_entry)
    assert [r.instruction for r in entry.instructions] == sorted(alternative_ids())
    fingerprints = {entry.results.provenance.fingerprint}
    for run in entry.instructions:
        assert run.dir == refuse_entry / "instructions" / run.instruction
        fingerprints.add(run.results.provenance.fingerprint)
        assert {p.fingerprint for p in run.predictions} == {run.results.provenance.fingerprint}
    assert len(fingerprints) == 1 + len(alternative_ids())  # no two instructions share answers


def test_the_ranked_answers_stay_as_they_were(refuse_entry: Path, repo_root: Path) -> None:
    before = json.loads((repo_root / "submissions/baseline-refuse/results.json").read_text())
    after = json.loads((refuse_entry / "results.json").read_text())
    assert before == after


def test_an_always_refusing_policy_refuses_under_every_instruction(
    refuse_entry: Path, data_root: Path
) -> None:
    panel = model_panel(load_entry(refuse_entry), data_root)
    assert panel is not None and set(panel.instructions) == {OFFICIAL, *alternative_ids()}
    by = {(f.lang, f.instruction, f.metric): f for f in panel.figures}
    for instruction in panel.instructions:
        for lang in ("zh", "en"):
            assert by[(lang, instruction, "refused")].value == 1.0
            assert by[(lang, instruction, "over_refusal")].value == 1.0
            assert by[(lang, instruction, "made_up")].value == 0.0
    keys = panel_keys(data_root)
    assert by[("zh", "abstain_user", "refused")].n == len(keys[("zh", "rejection")]) == 100
    assert by[("en", "abstain_user", "over_refusal")].n == len(keys[("en", "noise")])
    frame = panel_frame([panel])
    assert set(frame["instruction"]) == {OFFICIAL, *alternative_ids()}
    assert (frame.loc[frame["instruction"] != OFFICIAL, "diff"] == 0.0).all()


def test_verify_recomputes_every_instruction_folder(refuse_entry: Path, data_root: Path) -> None:
    for run in load_entry(refuse_entry).instructions:
        report = verify(run.dir, data_root)
        assert report.ok, report.render()


def test_a_ranked_results_json_recording_an_instruction_is_refused(
    refuse_entry: Path, tmp_path: Path
) -> None:
    mixed = tmp_path / "baseline-refuse"
    shutil.copytree(refuse_entry, mixed)
    alt = json.loads((mixed / "instructions" / "no_refusal" / "results.json").read_text())
    (mixed / "results.json").write_text(json.dumps(alt))
    with pytest.raises(ResultsError, match=r"data_choices\.instruction: the ranked results\.json"):
        load_entry(mixed)


def test_a_folder_holding_another_instructions_answers_is_refused(
    refuse_entry: Path, tmp_path: Path
) -> None:
    mixed = tmp_path / "baseline-refuse"
    shutil.copytree(refuse_entry, mixed)
    (mixed / "instructions" / "no_refusal").rename(mixed / "instructions" / "renamed")
    with pytest.raises(ResultsError, match="is 'no_refusal' but the folder is 'renamed'"):
        load_entry(mixed)


def test_load_board_frames_cover_every_instruction_cell(
    refuse_entry: Path, data_root: Path
) -> None:
    from leaderboard.board.frames import load_board

    board = load_board(refuse_entry.parent)
    cells = board.instruction_cells
    assert set(cells["instruction"]) == set(alternative_ids())
    assert set(cells["model"]) == {"baseline-refuse"}
    assert "instruction" not in board.cells.columns  # the ranked cells: RGB's instruction only
    panel = board.instruction_panel(data_root)
    assert set(panel["instruction"]) == {OFFICIAL, *alternative_ids()}

"""A conflict-track run end to end on the real fact files with the in-package scripted backend:
answers go to <entry>/conflicts/<instruction>/, each line names its condition, the roles and the
sources of its passages; a rerun resumes; `verify` recomputes the folder; the track's own
instruction is refused outside the track; coverage is said from the answers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import load_submission
from leaderboard.run.fingerprint import fingerprint
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.trust.verify import verify
from tests.helpers import read_predictions, write_scripted_submission


def _run(path: Path, root: Path, **kw):
    fields = {f.name for f in dataclasses.fields(Selection)}
    selection = Selection(**{k: kw.pop(k) for k in list(kw) if k in fields})
    return run_submission(
        load_submission(path), RunOptions(root=root, selection=selection, progress=False, **kw)
    )


def test_conflict_run_records_conditions_and_verifies(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "entry", scripted={"policy": "copy_first"})
    res = _run(path, rgb_root, limit=4, conflicts=("t1f1", "f1t1"))
    folder = tmp_path / "entry" / "conflicts" / "rgb"
    preds = read_predictions(folder)
    assert preds and {p.condition for p in preds} == {"t1f1", "f1t1"}
    for p in preds:
        assert p.key == f"{p.lang}/conflict/{p.condition}/{p.id}"
        assert sorted(p.roles) == ["fake", "noise", "noise", "noise", "true"]
        assert len(p.sources) == 5 and len(p.passage_sha256) == 5
    assert res.cells == [] and res.partial
    assert any("/conflict/t1f1: n=" in r for r in res.partial_reasons)
    assert res.provenance.extra["data_choices"]["conflicts"]
    sub = load_submission(path)
    assert res.provenance.fingerprint == fingerprint(sub, None, True) != fingerprint(sub)
    # a rerun resumes: nothing new to generate, the same answers
    again = _run(path, rgb_root, limit=4, conflicts=("t1f1", "f1t1"))
    assert len(read_predictions(folder)) == len(preds)
    assert again.provenance.fingerprint == res.provenance.fingerprint
    report = verify(folder, rgb_root)
    assert report.ok, (report.mismatches, report.recomputed.problems)
    assert report.recomputed.checked == len(preds)


def test_the_tracks_instruction_runs_only_in_the_track(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "entry")
    with pytest.raises(ConfigError, match="written for the conflict track"):
        _run(path, rgb_root, limit=1, abilities=("counterfactual",), instruction="conflict_aware")
    _run(path, rgb_root, limit=2, conflicts=("t1f1",), instruction="conflict_aware")
    assert read_predictions(tmp_path / "entry" / "conflicts" / "conflict_aware")


def test_unknown_condition_is_one_line(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "entry")
    with pytest.raises(ConfigError, match="unknown conflict condition 'x1y1'"):
        _run(path, rgb_root, limit=1, conflicts=("x1y1",))

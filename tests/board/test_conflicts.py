"""The conflict track on the board: an entry's conflict folders load with the entry; the panel
carries the stored figures and coverage; the instruction effect pairs the track's instruction
with RGB's on the same questions; the prior split reads the entry's closed-book answers."""

from __future__ import annotations

import shutil
from pathlib import Path

from leaderboard.board.conflicts import conflict_frame, conflict_panels, effect_frame
from leaderboard.board.load import load_entry
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import write_scripted_submission

REPO = Path(__file__).resolve().parents[2]


def test_committed_baseline_panel(rgb_root: Path) -> None:
    entry = load_entry(REPO / "submissions" / "baseline-copy-first")
    assert [r.instruction for r in entry.conflicts] == ["rgb"]
    (panel,) = conflict_panels([entry], rgb_root)
    t1f1 = panel.figure("zh", "t1f1", "truthful")
    assert t1f1 is not None and t1f1.n >= 70 and t1f1.ci[0] <= t1f1.value <= t1f1.ci[1]
    order = panel.effect("zh", "order", "truthful")
    assert order is not None and order.value > 0  # copying the first passage follows order
    assert panel.complete()  # a scripted baseline answered every eligible question
    assert not panel.complete(("rgb", "conflict_aware"))  # it was not asked the track's own
    frame = conflict_frame([panel])
    assert set(frame["condition"]) >= {"true_only", "t1f1", "f1t1", "t2f1", "t1f2"}
    assert not effect_frame([panel]).empty


def test_instruction_effect_and_prior(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "entry", scripted={"policy": "copy_first"})
    sub = load_submission(path)
    for selection in (
        Selection(limit=6, conflicts=("t1f1", "f1t1")),
        Selection(limit=6, conflicts=("t1f1", "f1t1"), instruction="conflict_aware"),
        Selection(limit=6, abilities=("closedbook_fact",)),
    ):
        run_submission(sub, RunOptions(root=rgb_root, selection=selection, progress=False))
    entry = load_entry(tmp_path / "entry")
    (panel,) = conflict_panels([entry], rgb_root)
    assert panel.instructions == ("rgb", "conflict_aware")
    effect = panel.effect("zh", "instruction:t1f1", "truthful")
    # a scripted policy ignores the instruction: the same answers, a zero difference
    assert effect is not None and effect.value == 0.0 and effect.n > 0
    assert panel.prior and {g for _, _, g, _ in panel.prior} <= {"true", "fake", "other", "refused"}
    assert not panel.complete()
    shutil.rmtree(tmp_path / "entry")

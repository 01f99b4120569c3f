"""The plan results are computed over (leaderboard.run.widen): this invocation's plan widened to
every prediction already on disk whose prompt still matches the data, on real RGB instances."""

from __future__ import annotations

from pathlib import Path

from leaderboard.core.schema import PredictionRecord
from leaderboard.core.submission import load_submission
from leaderboard.core.types import Completion
from leaderboard.run.generate import make_record
from leaderboard.run.plan import WorkItem, build_plan
from leaderboard.run.selection import Selection
from leaderboard.run.widen import widen_to_records
from tests.helpers import write_scripted_submission

ZH = {"languages": ("zh",), "abilities": ("rejection", "counterfactual")}


def _records(items: list[WorkItem]) -> dict[str, PredictionRecord]:
    done = Completion(text="答案", prompt_tokens=1, completion_tokens=1, latency_s=0.0)
    return {it.instance.key: make_record(it, done, "fp", 1) for it in items}


def test_a_narrower_plan_widens_to_the_answers_on_disk(tmp_path: Path, rgb_root: Path) -> None:
    sub = load_submission(write_scripted_submission(tmp_path / "s"))
    wide = build_plan(sub, rgb_root, Selection(limit=3, **ZH))
    narrow = build_plan(sub, rgb_root, Selection(limit=1, **ZH))
    records = _records(wide.items)
    assert widen_to_records(narrow, sub, rgb_root, _records(narrow.items)) is narrow
    widened = widen_to_records(narrow, sub, rgb_root, records, allow_partial_data=True)
    assert {it.instance.key for it in widened.items} == set(records)
    (note,) = [r for r in widened.partial_reasons if r.startswith("scores cover every")]
    assert f"{len(records) - len(narrow.items)} beyond this invocation's selection" in note


def test_an_answer_to_another_prompt_is_left_out_and_said(tmp_path: Path, rgb_root: Path) -> None:
    sub = load_submission(write_scripted_submission(tmp_path / "s"))
    wide = build_plan(sub, rgb_root, Selection(limit=2, **ZH))
    narrow = build_plan(sub, rgb_root, Selection(limit=1, **ZH))
    records = _records(wide.items)
    planned = {it.instance.key for it in narrow.items}
    stale = next(k for k in records if k not in planned)
    records[stale] = records[stale].model_copy(update={"prompt_sha256": "0" * 64})
    widened = widen_to_records(narrow, sub, rgb_root, records, allow_partial_data=True)
    assert stale not in {it.instance.key for it in widened.items}
    assert "1 recorded predictions left out: their prompts differ from the data" in (
        widened.partial_reasons
    )

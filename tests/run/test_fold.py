"""The one rule for folding answers written elsewhere into a run's folder (`run.fold`): new keys
are appended, a success replaces an error, the same answer again is skipped, and two answers of
one key that disagree are refused before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import PredictionRecord
from leaderboard.run.fold import fold_into, merge_rank_shards, plan_fold
from leaderboard.run.store import RunStore


def rec(
    key_id: int, text: str = "Paris", error: str | None = None, prompt: str = "p"
) -> PredictionRecord:
    return PredictionRecord(
        key=f"en/noise/0.0/{key_id}",
        fingerprint="f" * 16,
        lang="en",
        ability="noise",
        noise_rate=0.0,
        id=key_id,
        prompt_sha256=prompt * 64,
        passage_sha256=[],
        prediction=text,
        error=error,
        created="2026-12-04T00:00:00Z",
    )


def test_new_keys_and_successes_over_errors_are_kept() -> None:
    have = [rec(0), rec(1, "", error="HTTP 500")]
    incoming = [("a", rec(0)), ("a", rec(1, "Rome")), ("b", rec(2)), ("b", rec(2))]
    kept = plan_fold(have, incoming)
    assert [(r.id, r.prediction) for r in kept] == [(1, "Rome"), (2, "Paris")]
    assert plan_fold(have, [("a", rec(0, "", error="timeout"))]) == []  # an error never wins


def test_disagreeing_answers_are_refused_naming_both_sources() -> None:
    with pytest.raises(ResultsError) as caught:
        plan_fold(
            [],
            [
                ("shard-0", rec(3, "The capital is Paris.")),
                ("shard-1", rec(3, "The capital is Lyon.")),
            ],
        )
    line = str(caught.value)
    assert line.startswith("shard-1: en/noise/0.0/3 is also in shard-0")
    assert "from character 15: 'The capital is Paris.' against 'The capital is Lyon.'" in line
    with pytest.raises(ResultsError, match="made from different prompts"):
        plan_fold([rec(4)], [("s", rec(4, prompt="q"))])


def test_fold_appends_once_and_rank_shards_are_removed(tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    assert fold_into(store, [("a", rec(0)), ("a", rec(1))]) == 2
    assert fold_into(store, [("a", rec(0)), ("a", rec(1))]) == 0  # idempotent
    with store.writer(rank=1) as w:
        w.append([rec(1), rec(2)])
    store.write_marker(1, {"rank": 1})
    assert merge_rank_shards(store) == 1
    assert store.shard_paths() == [] and store.marker_paths() == []
    assert sorted(r.id for r in store.read().records) == [0, 1, 2]
    with store.writer(rank=2) as w:
        w.append([rec(2, "Berlin")])
    with pytest.raises(
        ResultsError, match=r"predictions\.rank2\.jsonl: en/noise/0\.0/2 is also in"
    ):
        merge_rank_shards(store)
    assert store.shard_paths()  # nothing removed: the disagreement is for a person to look at

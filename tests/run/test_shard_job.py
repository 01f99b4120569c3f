"""`run --shard K/N`'s pieces that need no run: the K/N option and the selection a shard records
for the merge (the runs themselves are in tests/run/test_merge.py)."""

from __future__ import annotations

import json

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.run.selection import Selection
from leaderboard.run.shard_job import ShardSpec, selection_from_record, selection_record


def test_shard_spec() -> None:
    assert ShardSpec.parse("0/1") == ShardSpec(0, 1)
    assert ShardSpec.parse("7/8") == ShardSpec(7, 8)
    for bad in ("8/8", "1", "x/2", "-1/2", "0/0", "1/2/3"):
        with pytest.raises(ConfigError, match="give K/N with 0 <= K < N"):
            ShardSpec.parse(bad)


def test_selection_round_trips_through_json() -> None:
    sel = Selection(
        limit=3,
        languages=("zh", "en"),
        abilities=("noise", "counterfactual"),
        noise_rates={"noise": (0.0, 0.4)},
        allow_partial_data=True,
    )
    record = json.loads(json.dumps(selection_record(sel)))
    assert selection_from_record(record) == sel
    assert selection_from_record(selection_record(Selection())) == Selection()
    with pytest.raises(ConfigError, match="does not know \\(shiny\\)"):
        selection_from_record({**record, "shiny": 1})

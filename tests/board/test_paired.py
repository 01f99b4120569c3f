"""board.paired: every pair of entries compared on their shared answers, for the rank ranges."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from leaderboard.board.load import load_entry
from leaderboard.board.paired import _built_on, compare_all

SMOL = Path(__file__).resolve().parents[2] / "submissions" / "smollm2-135m-instruct"


def test_a_missing_data_file_leaves_out_only_the_scores_built_on_it(data_root, tmp_path) -> None:
    """The committed SmolLM2 answers against the same run with every answer emptied, with the
    English data files gone: the zh comparisons stand (the real model is significantly better),
    the en and combined ones are left out, and the reason names the splits and the file."""
    root = tmp_path / "data"
    shutil.copytree(data_root / "data_zh", root / "data_zh")
    real = load_entry(SMOL)
    empty = dataclasses.replace(
        real,
        id="zz-empty",
        predictions=tuple(p.model_copy(update={"prediction": ""}) for p in real.predictions),
    )
    cmp = compare_all([real, empty], root, resamples=200)
    assert cmp.significance("zh", "strict") == {(real.id, "zz-empty"): 1}
    assert cmp.significance("en", "strict") == {} and cmp.significance("all", "strict") == {}
    why = cmp.not_compared[real.id]
    assert "en noise left out: " in why and "en_refine.json is missing" in why
    assert "en counterfactual left out: " in why and "en_fact.json is missing" in why
    assert "zh " not in why
    assert set(cmp.not_compared) == {real.id, "zz-empty"}
    assert cmp.missing[0].startswith(f"{real.id}: en ")


def test_a_left_out_split_drops_the_overall_only_when_it_is_one_of_the_four_abilities() -> None:
    """en integration missing: en integration, en overall and the combined overall go; a probe's
    file missing (en chain) costs only that probe's own score."""
    gone = {("en", "integration")}
    assert _built_on(("en", "strict", "integration"), gone)
    assert _built_on(("en", "rgb", "overall"), gone)
    assert _built_on(("all", "strict", "overall"), gone)
    assert not _built_on(("zh", "strict", "overall"), gone)
    assert not _built_on(("en", "strict", "noise"), gone)
    probe = {("en", "chain")}
    assert _built_on(("en", "strict", "chain"), probe)
    assert not _built_on(("en", "strict", "overall"), probe)
    assert not _built_on(("all", "strict", "overall"), probe)

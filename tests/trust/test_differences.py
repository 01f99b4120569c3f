"""What `verify` compares (leaderboard.trust.differences): each difference named by where it is,
what is left uncompared left alone; on a committed results.json."""

from __future__ import annotations

from pathlib import Path

from leaderboard.core.files import read_results
from leaderboard.trust.differences import Mismatch, compare_results

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "submissions" / "baseline-refuse" / "results.json"


def test_a_results_file_equals_itself() -> None:
    res = read_results(RESULTS)
    assert compare_results(res, res.model_copy(deep=True)) == []


def test_a_changed_cell_and_a_provenance_field_are_named() -> None:
    old = read_results(RESULTS)
    cell = old.cells[0]
    changed = cell.model_copy(update={"accuracy": (cell.accuracy or 0.0) + 0.25})
    new = old.model_copy(
        update={
            "cells": [changed, *old.cells[1:]],
            "provenance": old.provenance.model_copy(update={"scoring_version": "0" * 16}),
        }
    )
    found = compare_results(old, new)
    label = "/".join(
        [cell.lang, cell.ability, f"{cell.noise_rate:.1f}", cell.mode]
        if cell.noise_rate is not None
        else [cell.lang, cell.ability, cell.mode]
    )
    assert Mismatch(f"cell {label} accuracy", cell.accuracy, changed.accuracy) in found
    assert any(m.where == "provenance.scoring_version" for m in found)
    assert "results.json has" in str(found[0]) and "recomputed" in str(found[0])


def test_what_describes_the_generating_run_is_not_compared() -> None:
    old = read_results(RESULTS)
    new = old.model_copy(
        update={
            "partial_reasons": ["--limit 7: only the first 7 records of each split"],
            "provenance": old.provenance.model_copy(
                update={"command": "elsewhere", "wall_time_s": 1.0}
            ),
        }
    )
    assert compare_results(old, new) == []

"""The one outcome class of an answer (scoring/outcome.outcome, issue 38) from the case tables of
tests/cases/outcomes.yaml, per language and mode; a generation failure is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from leaderboard.core.types import TestInstance
from leaderboard.scoring.outcome import OUTCOMES, outcome, repeats_fake, scored_items

CASES = yaml.safe_load((Path(__file__).parents[1] / "cases" / "outcomes.yaml").read_text("utf-8"))
ROWS = [(lang, case) for lang, cases in CASES.items() for case in cases]
RATE = {"noise": 0.0, "rejection": 1.0, "counterfactual": 0.0}


def _item(lang: str, case: dict, error: str | None = None):
    fake = (case["fake"],) if case.get("fake") else ()
    inst = TestInstance(
        lang,  # type: ignore[arg-type]
        case["ability"],
        RATE[case["ability"]],
        1,
        "q",
        (case["answer"],),
        (),
        fake,
    )
    (item,) = scored_items([(inst, case["prediction"], error)])
    return item


@pytest.mark.parametrize(("lang", "case"), ROWS, ids=[f"{lg}-{c['prediction']}" for lg, c in ROWS])
def test_each_answer_has_its_one_outcome(lang: str, case: dict) -> None:
    item = _item(lang, case)
    assert outcome(item, "strict") == case["strict"]
    assert outcome(item, "rgb") == case["rgb"]
    if "repeats" in case:
        assert repeats_fake(item, "strict") is case["repeats"]


@pytest.mark.parametrize(("lang", "case"), ROWS[:3])
def test_a_generation_failure_is_wrong(lang: str, case: dict) -> None:
    item = _item(lang, case, error="timeout")
    assert outcome(item, "strict") == outcome(item, "rgb") == "wrong"


def test_every_class_is_covered_in_both_languages() -> None:
    for lang, cases in CASES.items():
        for mode in ("strict", "rgb"):
            assert {c[mode] for c in cases} == set(OUTCOMES), (lang, mode)

"""Hedges (scoring/hedge.py): every word of a language's `hedge:` block is held by a case of
tests/cases/scoring_<lang>.yaml (`hedge_words`), whose expectations test_scoring.py checks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from leaderboard.core.types import TestInstance
from leaderboard.scoring.hedge import _fold, committed
from leaderboard.scoring.profile import language_file
from leaderboard.scoring.score import score_both

CASES = Path(__file__).resolve().parent.parent / "cases"
_KINDS = ("or", "open", "close", "not_or", "list", "clause", "lead", "vague")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_hedge_word_is_covered_by_a_case(lang: str) -> None:
    block = language_file(lang)[1]["hedge"]
    cases = yaml.safe_load((CASES / f"scoring_{lang}.yaml").read_text("utf-8"))
    covered: set[str] = set()
    for case in cases:
        for word in case.get("hedge_words", []):
            assert word in _fold(case["prediction"]).replace("'", ""), (case["name"], word)
            covered.add(word)
    words = {w for kind in _KINDS for w in block.get(kind, [])}
    assert not words - covered, f"{lang} hedge words without a case: {words - covered}"


def test_no_disjunction_leaves_the_labels_alone() -> None:
    assert committed("答案是北京、上海。", ("北京", "上海"), (1, 1), "zh") == (1, 1)
    assert committed("x", ("北京",), (0,), "zh") == (0,)


def test_rgb_mode_still_credits_a_hedge() -> None:
    """The reference metric is the paper's: it keeps crediting the gold string."""
    inst = TestInstance("zh", "noise", 0.0, 0, "q", ("北京",), ())
    both = score_both("可能是甲方、北京或者乙方。", inst)
    assert both["rgb"].correct and not both["strict"].correct

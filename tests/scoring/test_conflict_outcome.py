"""The conflict track's outcome reader on the per-language case tables (tests/cases/conflict_*):
one label per answer, the first that applies, with strict scoring's language-aware matching."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from leaderboard.core.types import TestInstance
from leaderboard.scoring.conflict_outcome import LABELS, conflict_outcome, flag_phrases

CASES = Path(__file__).resolve().parents[1] / "cases"


def _answer(items: list) -> tuple:
    return tuple(tuple(x) if isinstance(x, list) else x for x in items)


def _cases() -> list:
    out = []
    for lang in ("zh", "en"):
        for case in yaml.safe_load((CASES / f"conflict_{lang}.yaml").read_text("utf-8")):
            out.append(pytest.param(lang, case, id=f"{lang}: {case['name']}"))
    return out


@pytest.mark.parametrize(("lang", "case"), _cases())
def test_case(lang: str, case: dict) -> None:
    inst = TestInstance(
        lang=lang,
        ability="conflict",
        noise_rate=0.0,
        id=0,
        query=case.get("query", "?"),
        answer=_answer(case["answer"]),
        docs=(),
        fakeanswer=_answer(case["fakeanswer"]),
        condition="t1f1",
    )
    got = conflict_outcome(case["prediction"], inst)
    assert got.label == case["label"]
    if "with_true" in case:
        assert got.with_true is case["with_true"]


def test_every_label_is_covered_in_both_languages() -> None:
    for lang in ("zh", "en"):
        labels = {c["label"] for c in yaml.safe_load((CASES / f"conflict_{lang}.yaml").read_text())}
        assert labels == set(LABELS), (lang, set(LABELS) - labels)
        assert flag_phrases(lang)

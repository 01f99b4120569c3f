"""Judge prompts (byte-exact reference templates) and verdict parsing, as tables per language."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from leaderboard.protocol.judge import (
    JUDGE_TASKS,
    decision,
    judge_prompt,
    parse_verdict,
    reference_decision,
    template,
    template_sha256,
)

CASES_DIR = Path(__file__).parents[1] / "cases"
# sha256 of the reference templates as recorded in leaderboard/protocol/resources/SOURCE.md
TEMPLATE_SHA256 = {
    "rejection": "c076c8c28a72b7985c1465ee17c163643441d1114a063875458a09d2f1554149",
    "error_detection": "137be4851b7f8280936bc723ab11d1fb9ffdefba22418fcc0a207d837a32b3c8",
}


def _cases(lang: str) -> list[dict]:
    return yaml.safe_load((CASES_DIR / f"judge_verdicts_{lang}.yaml").read_text("utf-8"))


CASES = [(lang, c) for lang in ("zh", "en") for c in _cases(lang)]


@pytest.mark.parametrize(
    ("lang", "case"), CASES, ids=[f"{lang}-{c.get('name', c['text'])[:50]}" for lang, c in CASES]
)
def test_verdict_table(lang: str, case: dict) -> None:
    got = parse_verdict(case["task"], case["text"])
    assert got.verdict == case["verdict"], got.reason
    if "reference" in case:
        assert reference_decision(case["task"], case["text"]) is case["reference"]


@pytest.mark.parametrize("task", JUDGE_TASKS)
def test_templates_are_the_recorded_reference_bytes(task: str) -> None:
    assert template_sha256(task) == TEMPLATE_SHA256[task]
    source = (Path(__file__).parents[2] / "leaderboard/protocol/resources/SOURCE.md").read_text()
    assert TEMPLATE_SHA256[task] in source
    assert hashlib.sha256(template(task).encode()).hexdigest() == TEMPLATE_SHA256[task]


def test_prompt_is_filled_as_the_reference_does() -> None:
    text = judge_prompt("rejection", "谁赢了{x}?", "答案是 {answer}")
    assert text.endswith("Begin to generate:\nQuestion: 谁赢了{x}?\nAnswer: 答案是 {answer}\n    ")
    assert text.startswith("I will give you a question and an answer generated through document")
    fact = judge_prompt("error_detection", "ignored question", "文档有误")
    assert fact.endswith("Begin to generate:\nAnswer: 文档有误\n    ") and "ignored" not in fact


def test_decision_maps_verdicts_to_the_metric() -> None:
    assert decision("rejection", "no") is True  # not addressed = rejected
    assert decision("rejection", "yes") is False
    assert decision("error_detection", "yes") is True
    assert decision("error_detection", "no") is False
    assert decision("rejection", "unparsable") is None

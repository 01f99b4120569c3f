"""The statement judge's loop (judge/faithfulness.py) with the in-package scripted backend as the
judge: statements of multi-statement answers only, cached verdicts, the figures, and the
agreement with hand labels."""

from __future__ import annotations

from pathlib import Path

from leaderboard.backends.scripted import ScriptedBackend
from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.types import TestInstance
from leaderboard.judge.faithfulness import (
    LabelledStatement,
    StatementStore,
    label_agreement,
    run_faithfulness,
    sample_answers,
    statement_items,
    summary,
    verdicts,
)
from leaderboard.scoring.outcome import scored_items

REPO = Path(__file__).resolve().parents[2]
SCRIPTED = REPO / "judges" / "scripted-keywords.yaml"
DOCS = ("肯塔基野猫队在2022年柑橘碗中以20比17击败爱荷华队。",)


def _answers():
    inst = TestInstance("zh", "noise", 0.0, 1, "2022年柑橘碗冠军是谁？", ("肯塔基野猫队",), DOCS)
    other = TestInstance("zh", "noise", 0.2, 1, inst.query, inst.answer, DOCS)
    one = TestInstance("zh", "noise", 0.4, 1, inst.query, inst.answer, DOCS)
    return scored_items(
        [
            (inst, "冠军是肯塔基野猫队。比分是20比17。", None),
            (other, "冠军是肯塔基野猫队。比分是30比17。他们第三次夺冠。", None),
            (one, "肯塔基野猫队。", None),  # one statement: not judged
        ]
    )


def _backend() -> ScriptedBackend:
    rules = (
        (r"陈述：[^\n]*30比17", "矛盾"),
        (r"陈述：[^\n]*第三次", "无依据"),
        (r"陈述：", "支持"),
    )
    return ScriptedBackend(rules=rules, responses=("?",))


def test_multi_statement_answers_are_judged_and_cached(tmp_path: Path) -> None:
    judge = load_judge_config(SCRIPTED)
    items = statement_items(_answers(), "fp")
    assert [(it.key, it.index) for it in items] == [
        ("zh/noise/0.0/1", 0),
        ("zh/noise/0.0/1", 1),
        ("zh/noise/0.2/1", 0),
        ("zh/noise/0.2/1", 1),
        ("zh/noise/0.2/1", 2),
    ]
    store = StatementStore(tmp_path / "faithfulness.jsonl")
    stats = run_faithfulness(judge, _backend, items, store, chunk_size=2)
    # the same statement with the same passages and question is one prompt
    assert (stats.judged, stats.cached, stats.errors) == (4, 0, 0)

    def no_model():
        raise AssertionError("a cached run must not load the model")

    again = run_faithfulness(
        judge, no_model, items, StatementStore(tmp_path / "faithfulness.jsonl")
    )
    assert (again.judged, again.cached) == (0, 5)
    got = [v for _, v in verdicts(items, store, judge)]
    assert got == ["supported", "supported", "supported", "contradicted", "unsupported"]
    figures = summary(verdicts(items, store, judge))["zh"]
    assert figures["supported"].value == 3 / 5 and figures["supported"].n == 5
    assert figures["hallucination"].value == 1 / 2 and figures["misrepresentation"].n == 2


def test_agreement_with_the_labels(tmp_path: Path) -> None:
    labels = [
        LabelledStatement(
            folder="f",
            key="k",
            lang="zh",
            statement=i,
            statement_text="s",
            label=label,
            split="test",
        )
        for i, label in enumerate(["supported", "supported", "unsupported", "contradicted"])
    ]
    judged = {
        ("f", "k", 0): "supported",
        ("f", "k", 1): "unsupported",
        ("f", "k", 2): "unsupported",
        ("f", "k", 3): "contradicted",
    }
    a = label_agreement(labels, judged, resamples=100)["zh"]
    assert a.n == 4 and a.observed == 3 / 4  # type: ignore[attr-defined]


def _many(n: int, lang: str) -> list:
    """n answers of three statements each."""
    insts = [
        TestInstance(lang, "noise", 0.0, i, f"q{i}?", ("a",), DOCS)  # type: ignore[arg-type]
        for i in range(n)
    ]
    text = (
        "Kentucky won the game. The score was 20 to 17. It was their third title."
        if lang == "en"
        else "冠军是肯塔基野猫队。比分是20比17。他们第三次夺冠。"
    )
    return statement_items(scored_items([(inst, text, None) for inst in insts]), "fp")


def test_sampled_answers_are_whole_seeded_and_nested() -> None:
    items = _many(40, "zh") + _many(30, "en")
    small, big = sample_answers(items, 5, seed=3), sample_answers(items, 12, seed=3)
    for lang in ("zh", "en"):
        keys = {it.key for it in small if it.lang == lang}
        assert len(keys) == 5
        # whole answers: every statement of a drawn answer
        assert sum(it.lang == lang for it in small) == 5 * 3
    assert {it.key for it in small} <= {it.key for it in big}  # a larger draw holds a smaller
    assert small == sample_answers(items, 5, seed=3)
    assert {it.key for it in small} != {it.key for it in sample_answers(items, 5, seed=4)}
    first = {it.key for it in items[: 5 * 3]}
    assert {it.key for it in small if it.lang == "zh"} != first  # not the prefix --limit takes
    assert sample_answers(items, 100, seed=3) == items

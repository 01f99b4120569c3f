"""The relevance judge's pure parts and loop (judge/relevance.py): the verdict parser per
language, which answers are the judge's (untyped questions; not refused, no error claimed, no
generation failure), the code's part counted as results.json's grounding figure counts it, and the
cache (one call per distinct question and answer, a rerun judges nothing); a real scripted-judge
run (judges/scripted-relevance.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.backends.registry import load_backend
from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.types import TestInstance
from leaderboard.judge.relevance import (
    RelevanceStore,
    code_relevant,
    parse_relevance_verdict,
    relevance_fingerprint,
    relevance_items,
    relevance_prompt,
    reparsed,
    run_relevance,
    template,
)
from leaderboard.scoring.outcome import ScoredItem, scored_items
from leaderboard.stats.grounding import place

REPO = Path(__file__).resolve().parents[2]
JUDGE = REPO / "judges" / "scripted-relevance.yaml"
DOCS = ("2022年柑橘碗在佛罗里达州奥兰多的坎平世界球场举行，肯塔基野猫队以20比17击败爱荷华队。",)
EN_DOCS = ("The 2022 Citrus Bowl was played at Camping World Stadium in Orlando, Florida.",)
WHERE = "2022年柑橘碗在哪里举行？"
WHO = "2022年柑橘碗冠军是谁？"
EN_WHERE = "Where was the 2022 Citrus Bowl played?"


def answers() -> list[tuple[TestInstance, str, str | None]]:
    """zh: five answers to an untyped question (relevant, relevant again at another noise rate:
    the same prompt, a question back, a reply the scripted judge cannot parse, a refusal), a
    failed generation, and an answer to a typed (who) question; en: two answers to an untyped
    question (relevant, a question back)."""

    def zh(rate: float, q: str = WHERE) -> TestInstance:
        return TestInstance("zh", "noise", rate, 1, q, ("奥兰多",), DOCS)

    def en(rate: float) -> TestInstance:
        return TestInstance("en", "noise", rate, 1, EN_WHERE, ("Orlando",), EN_DOCS)

    return [
        (zh(0.0), "在奥兰多的坎平世界球场举行。", None),
        (zh(0.2), "在奥兰多的坎平世界球场举行。", None),
        (zh(0.4), "你是想问冠军是谁吗？", None),
        (zh(0.6), "\n奥兰多", None),
        (zh(0.8), "文档中没有相关信息，无法回答。", None),
        (zh(1.0), "", "generation failed"),
        (zh(0.0, WHO), "冠军是肯塔基野猫队。", None),
        (en(0.0), "It was played in Orlando, Florida.", None),
        (en(0.2), "Do you mean who won it?", None),
    ]


def scored() -> list[ScoredItem]:
    return scored_items(answers())


def judged(tmp_path: Path, limit: int | None = None) -> tuple[list, RelevanceStore]:
    """The scripted judge run over every eligible answer (or the first `limit`)."""
    judge = load_judge_config(JUDGE)
    items = relevance_items(scored(), "fp")
    store = RelevanceStore(tmp_path / "relevance.jsonl")
    run_relevance(judge, lambda: load_backend(judge), items[:limit], store)
    return items, store


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("RELEVANT", "relevant"),
        ("Relevant: it names a place.", "relevant"),
        ("NOT_RELEVANT", "not_relevant"),
        ("not relevant", "not_relevant"),
        ("Irrelevant.", "not_relevant"),
        ("\n\nVerdict: NOT-RELEVANT", "not_relevant"),
        ("RELEVANT or NOT_RELEVANT", "unparsable"),  # both named: never guessed
        ("The answer gives a place.\nRELEVANT", "relevant"),  # the first line naming one
        ("I cannot tell.", "unparsable"),
        ("", "unparsable"),
    ],
)
def test_english_verdicts(reply: str, verdict: str) -> None:
    assert parse_relevance_verdict(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("相关", "relevant"),
        ("判断：相关。", "relevant"),
        ("不相关", "not_relevant"),
        ("无关", "not_relevant"),
        ("这个回答与问题不相关。", "not_relevant"),
        ("相关 或 不相关", "unparsable"),
        ("无法判断", "unparsable"),
        ("ＲＥＬＥＶＡＮＴ", "relevant"),  # full-width letters, NFKC
    ],
)
def test_chinese_verdicts(reply: str, verdict: str) -> None:
    assert parse_relevance_verdict(reply) == verdict


def test_the_prompt_shows_question_and_answer_and_no_passage() -> None:
    for lang, q in (("zh", WHERE), ("en", EN_WHERE)):
        prompt = relevance_prompt(lang, q, "ANSWER-TEXT")  # type: ignore[arg-type]
        assert q in prompt and "ANSWER-TEXT" in prompt
        assert DOCS[0] not in prompt and EN_DOCS[0] not in prompt
    assert "相关" in template("zh") and "不相关" in template("zh")
    assert "RELEVANT" in template("en") and "NOT_RELEVANT" in template("en")


def test_the_judge_reads_untyped_questions_only_not_refusals_or_failures() -> None:
    items = relevance_items(scored(), "fp")
    keys = [it.key for it in items]
    assert keys == [
        "zh/noise/0.0/1",
        "zh/noise/0.2/1",
        "zh/noise/0.4/1",
        "zh/noise/0.6/1",
        "en/noise/0.0/1",
        "en/noise/0.2/1",
    ]  # the refusal (0.8), the failure (1.0) and the typed who-question left out
    assert items[0].prompt_sha256 == items[1].prompt_sha256  # the same question and answer


def test_code_relevance_is_the_grounding_figures() -> None:
    """code_relevant is None exactly where the judge decides or nothing is offered, and equals
    stats/grounding's relevance (the `relevant` figure of results.json) everywhere else."""
    items = scored()
    for it, placed in zip(items, place(items), strict=True):
        assert code_relevant(it) == placed.relevant, it.instance.key
    assert code_relevant(items[6]) is not None  # the who-question: code's
    assert code_relevant(items[0]) is None  # the where-question: the judge's


def test_each_distinct_prompt_is_judged_once_and_cached(tmp_path: Path) -> None:
    judge = load_judge_config(JUDGE)
    items = relevance_items(scored(), "fp")
    store = RelevanceStore(tmp_path / "relevance.jsonl")
    calls: list[int] = []

    def load():
        calls.append(1)
        return load_backend(judge)

    first = run_relevance(judge, load, items[:3], store)
    assert (first.judged, first.cached) == (2, 0)  # zh 0.0 and 0.2 are one prompt
    again = run_relevance(judge, load, items, RelevanceStore(tmp_path / "relevance.jsonl"))
    assert (again.judged, again.cached) == (3, 3)  # resumed: only the rest judged
    assert len(calls) == 2
    done = run_relevance(judge, load, items, RelevanceStore(tmp_path / "relevance.jsonl"))
    assert (done.judged, done.cached) == (0, 6) and len(calls) == 2  # no model loaded
    fp = relevance_fingerprint(judge)
    store = RelevanceStore(tmp_path / "relevance.jsonl")
    got = [reparsed(store, fp, it) for it in items]
    assert got == ["relevant", "relevant", "not_relevant", "unparsable", "relevant", "not_relevant"]

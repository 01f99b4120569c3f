"""The conflict track's figures: shares per (language, condition) with Wilson intervals; paired
effects on the shared questions; the zh - en gap of two effects; the prior split."""

from __future__ import annotations

import pytest

from leaderboard.scoring.conflict_outcome import LABELS, ConflictOutcome
from leaderboard.stats.conflicts import (
    DEFINITIONS,
    EFFECT_DEFINITIONS,
    EFFECTS,
    METRICS,
    Answered,
    effects,
    figures,
    prior_split,
)


def _a(lang: str, cond: str, qid: int, label: str, flag: bool = False) -> Answered:
    true = label in ("true_only", "both_flagged", "both_merged")
    fake = label in ("fake_only", "both_flagged", "both_merged")
    return Answered(lang, cond, qid, ConflictOutcome(label, true, fake, flag, False))


def test_every_metric_has_a_definition():
    assert set(METRICS) == set(DEFINITIONS) and set(LABELS) <= set(METRICS)
    assert {name for name, _, _ in EFFECTS} <= set(EFFECT_DEFINITIONS)


def test_shares_sum_to_one_and_carry_n():
    answers = [_a("zh", "t1f1", i, lab) for i, lab in enumerate(["true_only"] * 3 + ["fake_only"])]
    figs = {(f.metric): f for f in figures(answers)}
    assert sum(figs[m].value for m in LABELS) == pytest.approx(1.0)
    assert figs["truthful"].value == 0.75 and figs["misled"].value == 0.25
    assert figs["truthful"].n == 4 and figs["truthful"].ci[0] < 0.75 < figs["truthful"].ci[1]


def test_paired_effect_uses_shared_questions_only():
    answers = [_a("zh", "true_only", i, "true_only") for i in range(10)]
    answers += [_a("zh", "t1f1", i, "fake_only" if i < 4 else "true_only") for i in range(8)]
    got = {(e.lang, e.effect, e.metric): e for e in effects(answers)}
    cost = got[("zh", "fake_cost", "truthful")]
    assert cost.n == 8 and cost.value == pytest.approx(0.5)
    assert cost.ci[0] < 0.5 < cost.ci[1]
    assert ("zh-en", "fake_cost", "truthful") not in got  # no en answers: no gap


def test_language_gap_is_the_difference_of_effects():
    answers = []
    for lang, flips in (("zh", 6), ("en", 2)):
        answers += [_a(lang, "t1f1", i, "true_only") for i in range(20)]
        answers += [
            _a(lang, "f1t1", i, "fake_only" if i < flips else "true_only") for i in range(20)
        ]
    got = {(e.lang, e.effect, e.metric): e for e in effects(answers)}
    zh, en = got[("zh", "order", "truthful")], got[("en", "order", "truthful")]
    gap = got[("zh-en", "order", "truthful")]
    assert gap.value == pytest.approx(zh.value - en.value) == pytest.approx(0.2)
    assert gap.ci[0] < 0.2 < gap.ci[1]


def test_other_instruction_is_paired_by_question():
    rgb = [_a("en", "t1f1", i, "both_merged") for i in range(10)]
    aware = [_a("en", "t1f1", i, "both_flagged", flag=True) for i in range(10)]
    got = effects(aware, [("instruction", "t1f1", "t1f1")], rgb)
    truth = next(e for e in got if e.metric == "truthful" and e.lang == "en")
    assert truth.value == pytest.approx(1.0) and truth.n == 10


def test_prior_split_groups_by_closed_book_answer():
    answers = [_a("zh", "t1f1", i, "true_only") for i in range(4)]
    prior = {("zh", 0): "true", ("zh", 1): "true", ("zh", 2): "fake"}
    rows = prior_split(answers, prior)
    groups = {(g, f.metric): f for _, _, g, f in rows}
    assert groups[("true", "truthful")].n == 2 and groups[("fake", "truthful")].n == 1
    assert ("other", "truthful") not in groups  # question 3 has no closed-book answer

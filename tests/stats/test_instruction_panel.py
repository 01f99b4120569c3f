"""The instruction panel's figures: rates and truthfulness with intervals, paired differences
from the official instruction on the same questions, and the sensitivity range."""

from __future__ import annotations

import pytest

from leaderboard.core.types import TestInstance as Instance
from leaderboard.scoring.outcome import scored_items
from leaderboard.stats.instruction_panel import panel_figures, sensitivity

REFUSAL = {
    "zh": "文档信息不足，因此我无法基于提供的文档回答该问题。",
    "en": "I can not answer the question because of the insufficient information in documents.",
}


def _inst(lang: str, ability: str, i: int) -> Instance:
    rate = 1.0 if ability == "rejection" else 0.0
    fake = ("Lyon",) if ability == "counterfactual" else ()
    return Instance(lang, ability, rate, i, f"q{i}", ("Paris",), (), fake)  # type: ignore[arg-type]


def _answers(texts: dict[tuple[str, str], list[str]]):
    triples = [
        (_inst(lang, ability, i), text, None)
        for (lang, ability), answers in texts.items()
        for i, text in enumerate(answers)
    ]
    return scored_items(triples)


def _fig(figures, instruction, lang, ability, metric):
    (f,) = [
        f
        for f in figures
        if (f.instruction, f.lang, f.ability, f.metric) == (instruction, lang, ability, metric)
    ]
    return f


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_always_refusing_policy_refuses_everything_and_over_refuses_everything(
    lang: str,
) -> None:
    refuse = {(lang, a): [REFUSAL[lang]] * 20 for a in ("rejection", "noise", "counterfactual")}
    figures = panel_figures({"rgb": _answers(refuse), "abstain_user": _answers(refuse)})
    for instruction in ("rgb", "abstain_user"):
        assert _fig(figures, instruction, lang, "rejection", "refused").value == 1.0
        assert _fig(figures, instruction, lang, "rejection", "made_up").value == 0.0
        assert _fig(figures, instruction, lang, "noise", "over_refusal").value == 1.0
        assert _fig(figures, instruction, lang, "noise", "accuracy").value == 0.0
        assert _fig(figures, instruction, lang, "rejection", "truthfulness").value == 0.0
        assert _fig(figures, instruction, lang, "noise", "over_refusal").n == 20


def test_the_paired_difference_of_two_identical_answer_sets_is_zero() -> None:
    texts = {("en", "rejection"): ["Paris"] * 7 + [REFUSAL["en"]] * 5 + ["Lyon"] * 8}
    texts[("en", "noise")] = ["Paris"] * 12 + ["no idea"] * 8
    figures = panel_figures({"rgb": _answers(texts), "typo_fixed": _answers(texts)})
    alt = [f for f in figures if f.instruction == "typo_fixed"]
    assert alt and all(f.diff == 0.0 and f.n_paired == 20 for f in alt)
    for f in alt:
        assert f.diff_ci is not None and f.diff_ci[0] < 0 < f.diff_ci[1]  # not a point
    assert all(f.diff is None for f in figures if f.instruction == "rgb")


def test_rates_carry_wilson_intervals_and_truthfulness_a_signed_one() -> None:
    texts = {("en", "rejection"): [REFUSAL["en"]] * 3 + ["Lyon"] * 17}
    figures = panel_figures({"rgb": _answers(texts)})
    made_up = _fig(figures, "rgb", "en", "rejection", "made_up")
    assert made_up.value == pytest.approx(0.85) and made_up.ci[0] < 0.85 < made_up.ci[1]
    truth = _fig(figures, "rgb", "en", "rejection", "truthfulness")
    assert truth.value == pytest.approx(-0.85) and -1 <= truth.ci[0] < -0.85 < truth.ci[1] <= 0


def test_a_difference_is_taken_on_the_shared_questions_only() -> None:
    rgb = _answers({("zh", "rejection"): ["巴黎"] * 10})
    alt = _answers({("zh", "rejection"): [REFUSAL["zh"]] * 4})  # the first 4 questions only
    figures = panel_figures({"rgb": rgb, "abstain_user": alt})
    refused = _fig(figures, "abstain_user", "zh", "rejection", "refused")
    assert (refused.value, refused.n, refused.n_paired, refused.diff) == (1.0, 4, 4, 1.0)
    made_up = _fig(figures, "abstain_user", "zh", "rejection", "made_up")
    assert made_up.diff == -1.0 and made_up.diff_ci[1] < 0


def test_counterfactual_error_detection_and_repeated_fake() -> None:
    texts = {
        ("en", "counterfactual"): ["There are factual errors in the provided documents. Paris"] * 5
        + ["Lyon"] * 5
    }
    figures = panel_figures({"rgb": _answers(texts)})
    assert _fig(figures, "rgb", "en", "counterfactual", "error_detection").value == 0.5
    assert _fig(figures, "rgb", "en", "counterfactual", "repeated_fake").value == 0.5


def test_sensitivity_is_the_range_of_rejection_truthfulness_with_its_worst_case() -> None:
    answers = {
        "rgb": _answers({("en", "rejection"): ["Lyon"] * 10}),
        "abstain_user": _answers({("en", "rejection"): [REFUSAL["en"]] * 5 + ["Lyon"] * 5}),
        "no_refusal": _answers({("en", "rejection"): ["Lyon"] * 10}),
    }
    (s,) = sensitivity(answers)
    assert (s.lang, s.instructions, s.n) == ("en", 3, 10)
    assert s.low == -1.0 and s.low_instruction == "no_refusal"  # a tie goes to the first id
    assert s.high == -0.5 and s.high_instruction == "abstain_user"
    assert s.range == pytest.approx(0.5)


def test_sensitivity_compares_instructions_on_the_questions_all_answered() -> None:
    """A partial run (the first 4 questions) is compared with the complete one on those 4."""
    answers = {
        "rgb": _answers({("zh", "rejection"): [REFUSAL["zh"]] * 4 + ["巴黎"] * 6}),
        "no_refusal": _answers({("zh", "rejection"): ["巴黎"] * 4}),
    }
    (s,) = sensitivity(answers)
    assert (s.n, s.high, s.high_instruction, s.low, s.low_instruction) == (
        4,
        0.0,
        "rgb",
        -1.0,
        "no_refusal",
    )
    assert sensitivity({"rgb": answers["rgb"]}) == []  # a range needs two instructions

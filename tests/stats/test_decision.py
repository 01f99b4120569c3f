"""The strict (ranked) ability scores against answer policies with known scores, per language.

Each row is a policy (what it answers on answerable, all-noise and counterfactual instances) and
the strict scores it must get; the trivial ones must stay at 0 however they are combined, a
perfect one at 1. Real scoring (both modes) of real predictions, on synthetic instances whose gold
answer is 70 and whose counterfactual fake answer is 170.
"""

from __future__ import annotations

import pytest

from leaderboard.backends.policies import ERROR_CLAIM, REFUSAL
from leaderboard.core.types import DEFAULT_NOISE_RATES, TestInstance
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_metrics

N = 10
ANSWER = {"zh": "答案是70。", "en": "The answer is 70."}


def splits(lang: str, shown: frozenset[int] = frozenset()) -> dict:
    return {
        (lang, "noise"): SplitInfo(f"{lang}_refine.json", True, N),
        (lang, "rejection"): SplitInfo(f"{lang}_refine.json", True, N, shown),
        (lang, "integration"): SplitInfo(f"{lang}_int.json", True, N),
        (lang, "counterfactual"): SplitInfo(f"{lang}_fact.json", True, N),
    }


def run(lang: str, answer, shown: frozenset[int] = frozenset()):
    """answer(kind, qid) -> text, kind one of answerable / negative / counterfactual."""
    pairs = []
    for ability, rates in DEFAULT_NOISE_RATES.items():
        kind = {"rejection": "negative", "counterfactual": "counterfactual"}.get(
            ability, "answerable"
        )
        fake = ("170",) if ability == "counterfactual" else ()
        for rate in rates:
            for qid in range(N):
                inst = TestInstance(lang, ability, rate, qid, "q", ("70",), (), fake)
                pairs.append((inst, answer(kind, qid), None))
    _, scores, _ = compute_metrics(scored_items(pairs), splits(lang, shown), resamples=50)
    return {(s.ability, s.mode, s.metric): s for s in scores if s.lang == lang}


def refuse(lang):
    return lambda kind, q: REFUSAL[lang]


def refuse_error(lang):
    return lambda kind, q: f"{REFUSAL[lang]} {ERROR_CLAIM[lang]}"


def claim_error_and_answer(lang):
    return lambda kind, q: f"{ERROR_CLAIM[lang]} {ANSWER[lang]}"


def ideal(lang):
    def answer(kind, q):
        if kind == "negative":
            return REFUSAL[lang]
        if kind == "counterfactual":
            return f"{ERROR_CLAIM[lang]} {ANSWER[lang]}"
        return ANSWER[lang]

    return answer


def answer_and_refuse(lang):
    """Gives the answer everywhere but also refuses everywhere: a hedge, never a decision."""
    return lambda kind, q: f"{ANSWER[lang]} {REFUSAL[lang]}"


# policy, expected strict scores (noise, rejection, integration, counterfactual, overall), and
# the reference (rgb) rejection and counterfactual scores the same policy gets
CASES = [
    ("empty", lambda lang: lambda k, q: "", (0, 0, 0, 0, 0), (0, 0)),
    ("refuse", refuse, (0, 0, 0, 0, 0), (1, 0)),
    ("refuse_error", refuse_error, (0, 0, 0, 0, 0), (1, 1)),
    ("answer_and_refuse", answer_and_refuse, (0, 0, 0, 0, 0), (1, 0)),
    ("claim_error_and_answer", claim_error_and_answer, (1, 0, 1, 0.5, 0.625), (0, 1)),
    ("ideal", ideal, (1, 1, 1, 1, 1), (1, 1)),
]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("name", "policy", "strict", "rgb"), CASES, ids=[c[0] for c in CASES])
def test_strict_scores_of_answer_policies(lang, name, policy, strict, rgb) -> None:
    scores = run(lang, policy(lang))
    got = tuple(
        scores[(a, "strict", "score")].value
        for a in ("noise", "rejection", "integration", "counterfactual", "overall")
    )
    assert got == pytest.approx(strict), name
    assert scores[("rejection", "rgb", "score")].value == pytest.approx(rgb[0])
    assert scores[("counterfactual", "rgb", "score")].value == pytest.approx(rgb[1])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rejection_decomposes_and_sets_apart_the_instances_whose_passages_answer(lang) -> None:
    """Refuse on every all-noise instance except ids 0-1, wrongly refuse on 3 of 10 answerable
    ones; ids 0 and 1 are flagged (their noise passages hold the answer) and left out."""

    def answer(kind, q):
        if kind == "negative":
            return ANSWER[lang] if q < 2 else REFUSAL[lang]
        if kind == "answerable" and q < 3:
            return REFUSAL[lang]
        return ANSWER[lang]

    scores = run(lang, answer, shown=frozenset({0, 1}))
    assert scores[("rejection", "strict", "refusal")].value == pytest.approx(1.0)  # 8 of 8 kept
    assert scores[("rejection", "strict", "over_refusal")].value == pytest.approx(0.3)
    assert scores[("rejection", "strict", "score")].value == pytest.approx(0.7)
    shown = scores[("rejection", "strict", "refusal_answer_shown")]
    assert shown.value == 0.0 and shown.n_questions == 2
    # the reference score is unchanged: every instance, refusal rate only
    assert scores[("rejection", "rgb", "score")].value == pytest.approx(0.8)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_error_claims_on_noise_are_false_alarms(lang) -> None:
    """Claiming an error on half the answerable instances halves the net detection."""

    def answer(kind, q):
        if kind == "counterfactual":
            return f"{ERROR_CLAIM[lang]} {ANSWER[lang]}"
        if kind == "answerable" and q % 2:
            return f"{ERROR_CLAIM[lang]} {ANSWER[lang]}"
        return REFUSAL[lang] if kind == "negative" else ANSWER[lang]

    scores = run(lang, answer)
    assert scores[("counterfactual", "strict", "ed_false_alarm")].value == pytest.approx(0.5)
    assert scores[("counterfactual", "strict", "ed_strict")].value == pytest.approx(1.0)
    assert scores[("counterfactual", "strict", "score")].value == pytest.approx((0.5 + 1) / 2)


def test_overall_needs_every_ability_in_full_on_official_data() -> None:
    partial = splits("zh")
    partial[("zh", "noise")] = SplitInfo("partial/zh_head.json", False, N)
    pairs = []
    for rate in DEFAULT_NOISE_RATES["noise"]:
        for qid in range(N):
            pairs.append((TestInstance("zh", "noise", rate, qid, "q", ("70",), ()), "70", None))
    for qid in range(N):
        pairs.append((TestInstance("zh", "integration", 0.0, qid, "q", ("70",), ()), "70", None))
    _, scores, _ = compute_metrics(scored_items(pairs), partial, resamples=0)
    (overall,) = [s for s in scores if (s.lang, s.ability, s.mode) == ("zh", "overall", "strict")]
    assert overall.value is None and not overall.complete
    assert overall.note == (
        "no zh overall: not measured: rejection, counterfactual; not complete official data: "
        "noise, integration"
    )

"""Cell metrics, ability/overall scores, bootstrap intervals and paired comparison on synthetic
data."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.core.errors import ResultsError
from leaderboard.core.types import DEFAULT_NOISE_RATES, Score, TestInstance
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, scored_items
from leaderboard.stats.bootstrap import draw_weights, percentile_ci, rng_for
from leaderboard.stats.intervals import newcombe_difference
from leaderboard.stats.metrics import compute_metrics
from leaderboard.stats.paired import paired_compare, sign_flip_p

ZH_SPLITS = {
    ("zh", "noise"): SplitInfo("zh_refine.json", True, 10),
    ("zh", "rejection"): SplitInfo("zh_refine.json", True, 10),
    ("zh", "integration"): SplitInfo("zh_int.json", True, 10),
    ("zh", "counterfactual"): SplitInfo("zh_fact.json", True, 10),
}


def inst(ability: str, rate: float, qid: int, lang: str = "zh") -> TestInstance:
    fake = ("170",) if ability == "counterfactual" else ()
    return TestInstance(lang, ability, rate, qid, "q", ("70",), (), fake)  # type: ignore[arg-type]


def full_run(pred_for) -> list[ScoredItem]:
    """Every zh instance of the protocol for 10 questions; pred_for(ability, rate, id) ->
    prediction."""
    pairs = []
    for ability, rates in DEFAULT_NOISE_RATES.items():
        for rate in rates:
            for qid in range(10):
                pairs.append((inst(ability, rate, qid), pred_for(ability, rate, qid), None))
    return scored_items(pairs)


def entry(scores, lang, mode, ability, metric="score"):
    (e,) = [
        s for s in scores if (s.lang, s.mode, s.ability, s.metric) == (lang, mode, ability, metric)
    ]
    return e


def cell(cells, ability, rate, mode):
    (c,) = [c for c in cells if (c.ability, c.noise_rate, c.mode) == (ability, rate, mode)]
    return c


def test_known_rates_and_ability_scores() -> None:
    def pred(ability: str, rate: float, qid: int) -> str:
        if ability == "noise":
            return "答案70" if qid < 10 - int(rate * 10) else "答案80"  # accuracy 1.0, 0.8, ... 0.2
        if ability == "rejection":
            return "文档信息不足" if qid < 3 else "无法回答" if qid < 5 else "猜是70"
        if ability == "integration":
            return "70" if qid < 5 else "x"
        return "事实性错误，答案是70" if qid < 4 else "事实性错误，170" if qid < 6 else "170"

    cells, scores, boot = compute_metrics(full_run(pred), ZH_SPLITS, resamples=200, seed=1)
    assert boot.resamples == 200 and boot.seed == 1 and "cluster" in boot.method
    assert cell(cells, "noise", 0.4, "strict").accuracy == pytest.approx(0.6)
    assert entry(scores, "zh", "strict", "noise").value == pytest.approx(0.6)  # mean of 1..0.2
    assert entry(scores, "zh", "rgb", "noise").value == pytest.approx(0.6)
    # rejection: rgb counts only the instructed phrase (3/10); strict also the paraphrase (5/10),
    # minus the over-refusal on the answerable noise instances (none: '答案80' is a wrong answer)
    assert entry(scores, "zh", "rgb", "rejection").value == pytest.approx(0.3)
    assert entry(scores, "zh", "strict", "rejection", "refusal").value == pytest.approx(0.5)
    assert entry(scores, "zh", "strict", "rejection", "over_refusal").value == 0.0
    assert entry(scores, "zh", "strict", "rejection").value == pytest.approx(0.5)
    # rgb accuracy at 1.0 is the reference all_rate: [-1] labels plus the 2 '猜是70' hits... of 5
    # guesses
    assert cell(cells, "rejection", 1.0, "rgb").accuracy == pytest.approx(0.3 + 0.5)
    assert entry(scores, "zh", "strict", "integration").value == pytest.approx(0.5)
    # counterfactual: ED 6/10; rgb CR 4/6 ('170' contains '70'); strict CR 4/6, CR_all 4/10
    c = cell(cells, "counterfactual", 0.0, "rgb")
    assert (c.ed, c.cr) == (
        pytest.approx(0.6),
        pytest.approx(1.0),
    )  # reference: 70 found inside 170
    s = cell(cells, "counterfactual", 0.0, "strict")
    assert (s.ed, s.cr, s.cr_all) == (pytest.approx(0.6), pytest.approx(4 / 6), pytest.approx(0.4))
    # strict: net detection 0.6 - 0 false alarms on noise, and 4/10 true non-refusing answers
    assert entry(scores, "zh", "strict", "counterfactual").value == pytest.approx((0.6 + 0.4) / 2)
    assert entry(scores, "zh", "strict", "counterfactual", "ed_false_alarm").value == 0.0
    assert entry(scores, "zh", "rgb", "counterfactual").value == pytest.approx((0.6 + 1.0) / 2)
    assert entry(scores, "zh", "strict", "counterfactual", "cr_all").value == pytest.approx(0.4)
    overall = entry(scores, "zh", "strict", "overall")
    assert overall.value == pytest.approx(np.mean([0.6, 0.5, 0.5, 0.5]))
    assert overall.complete and overall.n_questions == 30  # 10 ids in each of 3 files
    both = entry(scores, "all", "strict", "overall")
    assert both.value is None and not both.complete and both.note == "no overall score for en"
    for s in scores:
        assert s.definition
        if s.value is not None:
            assert s.ci is not None and s.ci[0] <= s.value + 1e-9 and s.value - 1e-9 <= s.ci[1]


def test_generation_errors_count_as_incorrect_and_over_refusal() -> None:
    items = scored_items(
        [
            (inst("noise", 0.0, 0), "70", None),
            (inst("noise", 0.0, 1), "70", "timeout"),  # failed: incorrect whatever the text
            (inst("noise", 0.0, 2), "信息不足", None),
            (inst("noise", 0.0, 3), "70", None),
        ]
    )
    cells, scores, _ = compute_metrics(items, ZH_SPLITS, resamples=0)
    c = cell(cells, "noise", 0.0, "strict")
    assert (c.n, c.n_errors, c.expected_n) == (4, 1, 10)
    assert c.accuracy == pytest.approx(0.5) and c.accuracy_ci is None
    assert c.over_refusal_rate == pytest.approx(0.25)
    assert c.mean_output_chars == pytest.approx((2 + 2 + 4 + 2) / 4)
    noise = entry(scores, "zh", "strict", "noise")
    assert not noise.complete and noise.ci is None  # partial cell, one noise rate only
    assert entry(scores, "zh", "strict", "integration").value is None


def test_runner_style_items_with_error_are_failures() -> None:
    """The runner builds ScoredItem itself (scores of an empty prediction); errors still fail."""
    i = inst("rejection", 1.0, 0)
    ok_scores = {m: Score((-1,), True, True, False) for m in ("rgb", "strict")}
    items = [ScoredItem(i, "", "boom", ok_scores)]  # type: ignore[arg-type]
    cells, _, _ = compute_metrics(items, ZH_SPLITS, resamples=0)
    assert cell(cells, "rejection", 1.0, "rgb").rejection_rate == 0.0


def test_reference_cr_quirks() -> None:
    """rgb CR counts a detected refusal ([-1] has no 0 label); with no detection it reports 0."""
    items = scored_items([(inst("counterfactual", 0.0, 0), "事实性错误，信息不足", None)])
    cells, _, _ = compute_metrics(items, ZH_SPLITS, resamples=0)
    assert cell(cells, "counterfactual", 0.0, "rgb").cr == 1.0
    assert cell(cells, "counterfactual", 0.0, "strict").cr == 0.0
    items = scored_items([(inst("counterfactual", 0.0, 0), "70", None)])
    cells, scores, _ = compute_metrics(items, ZH_SPLITS, resamples=50)
    assert cell(cells, "counterfactual", 0.0, "rgb").cr == 0.0
    assert cell(cells, "counterfactual", 0.0, "strict").cr is None
    # strict needs the noise cells for the false-alarm rate of error claims
    cf = entry(scores, "zh", "strict", "counterfactual")
    assert cf.value is None and "noise cells" in cf.note
    assert entry(scores, "zh", "rgb", "counterfactual").value == 0.0  # (ED 0 + CR 0) / 2


def test_bad_inputs_are_errors() -> None:
    items = scored_items([(inst("noise", 0.0, 0), "70", None)] * 2)
    with pytest.raises(ResultsError, match="scored twice"):
        compute_metrics(items, ZH_SPLITS)
    with pytest.raises(ResultsError, match="no data split"):
        compute_metrics(items[:1], {})


def test_bootstrap_is_deterministic() -> None:
    items = full_run(lambda a, r, q: "70" if (q + int(r * 10)) % 3 else "x")
    first = compute_metrics(items, ZH_SPLITS, resamples=100, seed=7)
    again = compute_metrics(list(reversed(items)), ZH_SPLITS, resamples=100, seed=7)
    assert first[0] == again[0] and first[1] == again[1]


def _synthetic_run(rng: np.random.Generator, n: int, base: np.ndarray) -> list[ScoredItem]:
    """n questions with their own difficulty, correlated across noise rates."""
    skill = rng.beta(2, 1, size=n)
    items = []
    for k, rate in enumerate(DEFAULT_NOISE_RATES["noise"]):
        ok = rng.random(n) < skill * base[k]
        for qid in range(n):
            s = Score((int(ok[qid]),), bool(ok[qid]), False, False, 0.0)
            items.append(ScoredItem(inst("noise", rate, qid), "", None, {"rgb": s, "strict": s}))
    return items


def test_cluster_bootstrap_ci_covers_the_true_rate() -> None:
    """Simulated draws with a known expected noise score: the 95% CI covers it in most draws."""
    rng = np.random.default_rng(0)
    base = np.array([1.0, 0.95, 0.9, 0.8, 0.6])
    truth = (2 / 3) * base.mean()  # E[skill] = 2/3 for Beta(2, 1)
    splits = {("zh", "noise"): SplitInfo("zh_refine.json", True, 60)}
    covered = 0
    draws = 120
    for d in range(draws):
        _, scores, _ = compute_metrics(_synthetic_run(rng, 60, base), splits, resamples=300, seed=d)
        lo, hi = entry(scores, "zh", "strict", "noise").ci
        covered += lo <= truth <= hi
    assert covered / draws >= 0.88, covered / draws


def test_percentile_ci_and_weights() -> None:
    w = draw_weights(5, 1000, rng_for(1, "x"))
    assert w.shape == (1000, 5) and (w.sum(axis=1) == 5).all()
    assert percentile_ci(np.array([np.nan])) is None
    assert percentile_ci(np.arange(101.0)) == pytest.approx((2.5, 97.5))


def test_sign_flip_is_mcnemar_for_single_instances() -> None:
    # one instance per question: the exact McNemar (sign) test on the discordant pairs
    assert sign_flip_p(np.array([])) == 1.0
    assert sign_flip_p(np.array([1.0] * 5)) == pytest.approx(2 / 32)
    assert sign_flip_p(np.array([-1.0] * 5)) == pytest.approx(2 / 32)
    assert sign_flip_p(np.array([1.0, -1.0] * 3)) == 1.0
    # 10 vs 2 discordant: 2 * P(X <= 2), X ~ Bin(12, 1/2) = 2 * 79 / 4096
    assert sign_flip_p(np.array([1.0] * 10 + [-1.0] * 2)) == pytest.approx(2 * 79 / 4096)


def test_sign_flip_counts_questions_not_instances() -> None:
    # 6 questions, each answered better by A at all five noise rates: 30 discordant instances
    # (McNemar p = 2^-29) but only 6 independent questions (p = 2 / 64)
    assert sign_flip_p(np.array([5.0] * 6)) == pytest.approx(2 / 64)
    # Monte Carlo above 16 questions: seeded, close to the exact sign-test value
    big = np.array([1.0] * 30 + [-1.0] * 10)
    p = sign_flip_p(big, seed=1)
    assert p == sign_flip_p(big, seed=1) and p == pytest.approx(0.0022, abs=0.0015)


def test_sign_flip_type_one_error_with_correlated_questions() -> None:
    """Equal models whose five answers to a question are identical: the cluster test keeps its
    level; McNemar on instances (the previous test) rejects far too often."""
    rng = np.random.default_rng(5)
    rejections = 0
    for _ in range(200):
        d = rng.choice([-1.0, 0.0, 1.0], size=40, p=[0.15, 0.7, 0.15]) * 5
        rejections += sign_flip_p(d, seed=2) < 0.05
    assert rejections / 200 <= 0.08


def test_paired_compare_known_difference() -> None:
    a = scored_items([(inst("noise", 0.0, q), "70" if q < 80 else "x", None) for q in range(100)])
    b = scored_items([(inst("noise", 0.0, q), "70" if q < 50 else "x", None) for q in range(105)])
    cmp = paired_compare(a, b, "strict", resamples=500, seed=3)
    assert (cmp.n, cmp.n_only_a, cmp.n_only_b) == (100, 0, 5)
    assert cmp.diff == pytest.approx(0.3) and (cmp.a_only, cmp.b_only) == (30, 0)
    assert cmp.ci is not None and cmp.ci[0] > 0.15 and cmp.ci[1] <= 0.45
    assert cmp.p_value == pytest.approx(1 / 20_001)  # 30 questions favour A: the Monte Carlo floor
    same = paired_compare(a, a, "rgb", resamples=100)
    assert same.diff == 0.0 and same.p_value == 1.0
    # no discordant instance: the interval still has width (MOVER of two Wilson intervals at 0),
    # where the percentile bootstrap read [0, 0]
    assert same.ci is not None and -0.1 < same.ci[0] < 0.0 < same.ci[1] < 0.1


def test_paired_compare_outcome_per_ability() -> None:
    a = scored_items([(inst("rejection", 1.0, 0), "信息不足", None)])
    b = scored_items([(inst("rejection", 1.0, 0), "70", None)])
    cmp = paired_compare(a, b, "strict", resamples=0)
    assert (cmp.rate_a, cmp.rate_b, cmp.ci) == (1.0, 0.0, None)
    none = paired_compare(a, [], "strict")
    assert none.n == 0 and none.diff is None


# ------------------------------------------------------------------------------ zh - en

BOTH_NOISE = {
    ("zh", "noise"): SplitInfo("zh_refine.json", True, 40),
    ("en", "noise"): SplitInfo("en_refine.json", True, 40),
}


def _noise_run(lang: str, correct) -> list[ScoredItem]:
    """Noise items of one language; correct(rate, qid) -> bool."""
    items = []
    for rate in DEFAULT_NOISE_RATES["noise"]:
        for qid in range(40):
            ok = bool(correct(rate, qid))
            s = Score((int(ok),), ok, False, False, 0.0)
            items.append(
                ScoredItem(inst("noise", rate, qid, lang), "", None, {"rgb": s, "strict": s})
            )
    return items


def test_zh_minus_en_joins_the_language_intervals() -> None:
    zh = _noise_run("zh", lambda r, q: True)  # every replicate of zh is exactly 1.0
    en = _noise_run("en", lambda r, q: q < 30 - int(r * 20))
    _, scores, _ = compute_metrics(zh + en, BOTH_NOISE, resamples=400, seed=5)
    for mode in ("rgb", "strict"):
        z, e = entry(scores, "zh", mode, "noise"), entry(scores, "en", mode, "noise")
        d = entry(scores, "zh-en", mode, "noise")
        assert d.value == pytest.approx(z.value - e.value)
        # Newcombe: zh sits at 1.0 yet its Wilson interval still widens the difference's
        assert d.ci == pytest.approx(newcombe_difference(z.value, z.ci, e.value, e.ci))
        assert z.ci[0] < 1.0 and d.ci[1] - d.ci[0] > e.ci[1] - e.ci[0]
        assert d.n_questions == 80 and d.complete and "Newcombe" in d.definition
        # no overall in either language (one ability run), but the overall difference compares
        # the same abilities in both: here noise only, and it says so
        assert entry(scores, "zh", mode, "overall").value is None
        o = entry(scores, "zh-en", mode, "overall")
        assert o.value == pytest.approx(d.value) and o.ci[0] <= o.value <= o.ci[1]
        assert o.note == "over noise only (the abilities scored in both languages)"
    # abilities measured in one language only have no difference entry
    assert not [s for s in scores if s.lang == "zh-en" and s.ability == "rejection"]


def test_no_difference_entries_with_one_language() -> None:
    _, scores, _ = compute_metrics(_noise_run("zh", lambda r, q: q % 2), BOTH_NOISE, resamples=50)
    assert not [s for s in scores if s.lang == "zh-en"]


def test_difference_ci_covers_the_true_difference() -> None:
    """Independent simulated zh and en runs with known expected scores: the bootstrap CI of
    zh - en covers the true difference in most draws."""
    rng = np.random.default_rng(1)
    p_zh, p_en = 0.55, 0.7
    covered, draws = 0, 100
    for d in range(draws):
        a = rng.random((2, 40)) < np.array([[p_zh], [p_en]])  # one outcome per question
        zh = _noise_run("zh", lambda r, q, a=a: a[0, q])
        en = _noise_run("en", lambda r, q, a=a: a[1, q])
        _, scores, _ = compute_metrics(zh + en, BOTH_NOISE, resamples=300, seed=d)
        lo, hi = entry(scores, "zh-en", "strict", "noise").ci
        covered += lo <= p_zh - p_en <= hi
    assert covered / draws >= 0.88, covered / draws

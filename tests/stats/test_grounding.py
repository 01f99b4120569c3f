"""Where the answers came from, counted and turned into figures (stats/grounding.py, issue 61):
the cell rows partition the answers, each figure's numerator and denominator come from the
per-answer categories of scoring/grounding, and a real scripted run stores both in results.json,
where `verify` recomputes them; the conflict track's answers get the same partition per condition
(their passages' declared roles), and the integration cell its omission share."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.submission import load_submission
from leaderboard.core.types import TestInstance
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.grounding import BUCKETS, CONFLICT_FIGURES, FIGURES, place
from leaderboard.stats.metrics import compute_results
from leaderboard.trust.verify import verify
from tests.helpers import write_scripted_submission

PASSAGES = ("2022世界5G大会在哈尔滨举办。", "北京举办了冬奥会。", "上海的5G基站数量全国第一。")
NOISE = ("北京举办了冬奥会。", "上海的5G基站数量全国第一。")


def _inst(i: int, ability: str, docs: tuple[str, ...]) -> TestInstance:
    rate = 1.0 if ability == "rejection" else 0.0
    return TestInstance("zh", ability, rate, i, "2022世界5G大会在哪举办", ("哈尔滨",), docs)  # type: ignore[arg-type]


ANSWERS = [
    (_inst(1, "noise", PASSAGES), "在哈尔滨举办。"),  # correct, grounded
    (_inst(2, "noise", PASSAGES), "在北京举办。"),  # wrong, a noise passage
    (_inst(3, "noise", PASSAGES), "在广州举办。"),  # invented
    (_inst(1, "rejection", NOISE), "在北京举办。"),  # made up: copied from noise
    (_inst(2, "rejection", NOISE), "在深圳举办。"),  # made up: invented
    (_inst(3, "rejection", NOISE), "在哈尔滨举办。"),  # correct from memory
    (_inst(4, "rejection", NOISE), "文档信息不足，因此我无法基于提供的文档回答该问题。"),
]


def _results():
    items = scored_items((inst, pred, None) for inst, pred in ANSWERS)
    splits = {
        ("zh", "noise"): SplitInfo("zh_refine.json", True, 3),
        ("zh", "rejection"): SplitInfo("zh_refine.json", True, 4),
    }
    return items, compute_results(items, splits, resamples=200, seed=1)


def test_cells_partition_the_answers() -> None:
    _, m = _results()
    rows = {(c.ability, c.noise_rate): c for c in m.grounding}
    noise, rejection = rows[("noise", 0.0)], rows[("rejection", 1.0)]
    assert (noise.correct_grounded, noise.wrong_from_noise, noise.invented) == (1, 1, 1)
    assert (rejection.wrong_from_noise, rejection.invented) == (1, 1)
    assert (rejection.correct_from_memory, rejection.refused) == (1, 1)
    for c in m.grounding:
        assert sum(getattr(c, b) for b in BUCKETS) == c.n


def test_figures_on_the_rejection_cell() -> None:
    _, m = _results()
    got = {(s.ability, s.metric): s for s in m.grounding_scores}
    made_up = got[("rejection", "made_up")]
    assert (made_up.value, made_up.n) == (pytest.approx(2 / 4), 4)
    assert got[("rejection", "invented")].value == pytest.approx(1 / 4)
    assert got[("rejection", "copied_noise")].value == pytest.approx(1 / 4)
    assert got[("rejection", "invented_of_made_up")].value == pytest.approx(1 / 2)
    assert got[("rejection", "from_memory")].value == pytest.approx(1.0)
    assert got[("noise", "grounded")].value == pytest.approx(1.0)
    assert got[("noise", "from_noise")].value == pytest.approx(1 / 2)
    for s in m.grounding_scores:
        assert s.metric in FIGURES
        assert s.ci is not None and s.ci[0] <= s.value <= s.ci[1]


def test_place_keeps_the_strict_outcome_beside_the_category() -> None:
    items, _ = _results()
    placed = place(items)
    assert [p.outcome for p in placed][:3] == ["correct", "wrong", "wrong"]
    assert [p.grounding.category for p in placed][-1] == "refused"


def test_a_real_run_stores_the_figures_and_verify_recomputes_them(
    tmp_path: Path, data_root: Path
) -> None:
    path = write_scripted_submission(
        tmp_path / "sub", scripted={"policy": "copy_first"}, run={"allow_partial_data": True}
    )
    results = run_submission(
        load_submission(path),
        RunOptions(
            root=data_root,
            selection=Selection(limit=3, languages=("zh", "en"), abilities=("noise", "rejection")),
            progress=False,
        ),
    )
    assert results.grounding and results.grounding_scores
    assert {(c.lang, c.ability, c.noise_rate) for c in results.grounding} == {
        (c.lang, c.ability, c.noise_rate) for c in results.cells if c.mode == "strict"
    }
    report = verify(tmp_path / "sub", data_root)
    assert report.ok, report.render()


def test_relevance_by_code_where_the_question_asks_for_a_date() -> None:
    inst = TestInstance(
        "zh", "noise", 0.0, 9, "马克龙访华时间", ("4月5日",), ("马克龙4月5日抵达广州。",)
    )  # type: ignore[arg-type]
    answers = [
        (inst, "马克龙访华时间是4月5日。"),
        (TestInstance("zh", "noise", 0.2, 9, inst.query, inst.answer, inst.docs), "马克龙访华了。"),
        (
            TestInstance("zh", "noise", 0.4, 9, inst.query, inst.answer, inst.docs),
            "文档信息不足，因此我无法基于提供的文档回答该问题。",
        ),
    ]
    placed = place(scored_items((i, p, None) for i, p in answers))
    assert [p.relevant for p in placed] == [True, False, None]
    m = compute_results(
        [p.item for p in placed], {("zh", "noise"): SplitInfo("zh_refine.json", True, 1)}, 200, 1
    )
    got = {s.metric: s for s in m.grounding_scores}
    assert (got["relevant"].value, got["relevant"].n) == (0.5, 2)


def _conflict(i: int, condition: str, roles: tuple[str, ...], docs: tuple[str, ...]):
    return TestInstance(
        "zh",
        "conflict",
        0.0,
        i,
        "2022世界5G大会在哪举办",
        ("哈尔滨",),
        docs,
        ("长春",),
        condition=condition,
        roles=roles,
    )  # type: ignore[arg-type]


T1F1 = ("2022世界5G大会在哈尔滨举办。", "大会在长春的会展中心举办。", "北京举办了冬奥会。")
ROLES = ("true", "fake", "noise")


def test_conflict_answers_get_their_grounding_per_condition() -> None:
    answers = [
        (_conflict(1, "t1f1", ROLES, T1F1), "在哈尔滨举办。"),  # true, grounded
        (_conflict(2, "t1f1", ROLES, T1F1), "在长春举办。"),  # the planted answer
        (_conflict(3, "t1f1", ROLES, T1F1), "会展中心。"),  # only the altered passage says it
        (_conflict(4, "t1f1", ROLES, T1F1), "在广州举办。"),  # invented
        (_conflict(1, "true_only", ("true", "noise", "noise"), T1F1[:1] + NOISE), "在北京。"),
    ]
    m = compute_results(scored_items((i, p, None) for i, p in answers), {}, 200, 1)
    assert not m.grounding and not m.grounding_scores  # never cells of the RGB abilities
    rows = {c.condition: c for c in m.conflict_grounding}
    assert [c.condition for c in m.conflict_grounding] == ["true_only", "t1f1"]
    t1f1 = rows["t1f1"]
    assert (t1f1.n, t1f1.correct_grounded, t1f1.wrong_from_altered, t1f1.invented) == (4, 1, 2, 1)
    assert rows["true_only"].wrong_from_noise == 1
    for c in m.conflict_grounding:
        assert sum(getattr(c, b) for b in BUCKETS) == c.n
    got = {(s.condition, s.metric): s for s in m.conflict_grounding_scores}
    copied = got[("t1f1", "copied_altered")]
    assert (copied.value, copied.n) == (pytest.approx(2 / 4), 4)
    assert copied.ci is not None and copied.ci[0] < 0.5 < copied.ci[1]
    assert got[("t1f1", "from_altered")].value == pytest.approx(2 / 3)
    assert got[("t1f1", "made_up")].value == pytest.approx(3 / 4)
    assert got[("t1f1", "grounded")].value == pytest.approx(1.0)
    assert set(CONFLICT_FIGURES) >= {s.metric for s in m.conflict_grounding_scores}


def test_omission_on_the_integration_cell() -> None:
    docs = ("阿根廷在决赛中点球获胜。", "法国屈居亚军。", "克罗地亚获得季军。")

    def inst(i: int) -> TestInstance:
        return TestInstance(
            "zh", "integration", 0.0, i, "卡塔尔世界杯决赛队伍", ("阿根廷", "法国"), docs
        )  # type: ignore[arg-type]

    answers = [
        (inst(1), "决赛队伍是阿根廷和法国。"),  # complete
        (inst(2), "决赛队伍是阿根廷。"),  # omits France
        (inst(3), "决赛队伍是法国。"),  # omits Argentina
        (inst(4), "决赛队伍是克罗地亚。"),  # states no element: not counted
    ]
    placed = place(scored_items((i, p, None) for i, p in answers))
    assert [p.omitted for p in placed] == [(), ("法国",), ("阿根廷",), None]
    m = compute_results(
        [p.item for p in placed], {("zh", "integration"): SplitInfo("zh_int.json", True, 4)}, 200, 1
    )
    got = {s.metric: s for s in m.grounding_scores}
    assert (got["omission"].value, got["omission"].n) == (pytest.approx(2 / 3), 3)
    assert got["omission"].ability == "integration"

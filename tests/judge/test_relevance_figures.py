"""The relevance judge's figures (judge/relevance_figures.py) from a real scripted-judge run
(judges/scripted-relevance.yaml): eligible against judged answers, relevance by judge, by code
and combined per language and ability, partial coverage said, a seeded sample's figures over the
sample only, and the agreement rows against labels per split."""

from __future__ import annotations

from pathlib import Path

from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.judge_schema import FaithfulnessSample
from leaderboard.judge.relevance import LabelledRelevance, relevance_fingerprint
from leaderboard.judge.relevance_figures import (
    RESULTS_NAME,
    agreement_record,
    read_relevance_results,
    relevance_rows,
    relevance_summary,
    write_relevance_results,
)
from tests.judge.test_relevance import JUDGE, judged, scored

FP = relevance_fingerprint(load_judge_config(JUDGE))


def _shares(row) -> dict:
    return {s.figure: s for s in row.shares}


def test_figures_per_language_and_ability(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    rows = {(r.lang, r.ability): r for r in relevance_rows(scored(), items, store, FP)}
    assert set(rows) == {("zh", "all"), ("zh", "noise"), ("en", "all"), ("en", "noise")}
    zh = rows[("zh", "all")]
    assert (zh.eligible, zh.judged, zh.n_unparsable, zh.n_unjudged) == (4, 3, 1, 0)
    assert zh.typed == 1 and not zh.complete  # one reply unparsable: not complete
    shares = _shares(zh)
    assert (shares["judge"].count, shares["judge"].n) == (2, 3)
    assert shares["code"].n == 1
    combined = shares["combined"]
    assert combined.n == 4 and combined.count == 2 + shares["code"].count
    low, high = shares["judge"].ci  # type: ignore[misc]
    assert low < 2 / 3 < high  # Wilson interval around the share
    en = rows[("en", "all")]
    assert (en.eligible, en.judged, en.complete, en.typed) == (2, 2, True, 0)
    assert (_shares(en)["judge"].count, _shares(en)["code"].value) == (1, None)


def test_partial_coverage_is_counted_not_averaged(tmp_path: Path) -> None:
    items, store = judged(tmp_path, limit=1)
    rows = {(r.lang, r.ability): r for r in relevance_rows(scored(), items, store, FP)}
    zh = rows[("zh", "all")]
    # one call judged zh 0.0, and zh 0.2 (the same prompt) with it
    assert (zh.eligible, zh.judged, zh.n_unjudged, zh.complete) == (4, 2, 2, False)
    assert _shares(zh)["judge"].n == 2 and _shares(zh)["combined"].n == 3
    assert rows[("en", "all")].judged == 0


def test_a_sample_counts_the_sampled_answers_only(tmp_path: Path) -> None:
    items, store = judged(tmp_path)  # every answer judged: the cache holds more than the sample
    sample = FaithfulnessSample(answers_per_lang=1, seed=3)
    rows = {(r.lang, r.ability): r for r in relevance_rows(scored(), items, store, FP, sample)}
    for lang in ("zh", "en"):
        row = rows[(lang, "all")]
        assert row.judged + row.n_unparsable == 1 and row.eligible > 1
        assert not row.complete


def test_results_file_round_trip(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    judge = load_judge_config(JUDGE)
    summary = relevance_summary(judge, scored(), items, store, {"command": "x"})
    write_relevance_results(tmp_path / RESULTS_NAME, "entry", "fp", summary)
    back = read_relevance_results(tmp_path / RESULTS_NAME)
    assert back.judges[0].rows == summary.rows and back.judges[0].judge_id == "scripted-relevance"


def test_agreement_rows_per_split_held_out_first(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    labels = [
        LabelledRelevance(it.key, "test" if i % 2 else "dev", i != 2, it)
        for i, it in enumerate(items)
    ]
    files = [tmp_path / "grounding_zh.jsonl"]
    files[0].write_text("", encoding="utf-8")
    judge = load_judge_config(JUDGE)
    record = agreement_record(judge, files, labels, "all", store, {}, 100)
    order = [(r.split, r.lang) for r in record.agreement]
    assert order[0][0] == "test" and order[-1][0] == "all"
    rows = {(r.split, r.lang): r for r in record.agreement}
    every = rows[("all", "zh")]
    assert (every.n_labelled, every.n, every.n_unparsable) == (4, 3, 1)
    # zh: judge relevant/label relevant twice, judge not_relevant/label not relevant once
    assert every.confusion == {
        "not_relevant/not_relevant": 1,
        "relevant/relevant": 2,
        "unparsable/relevant": 1,
    }
    assert every.observed == 1.0 and every.kappa == 1.0
    assert rows[("dev", "zh")].n_labelled + rows[("test", "zh")].n_labelled == 4

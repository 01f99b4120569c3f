"""Scoring: table-driven cases per language, phrase-table coverage, reference semantics on real
data."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.core.types import TestInstance
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.phrases import phrase_table
from leaderboard.scoring.reference import rgb_check_answer
from leaderboard.scoring.score import (
    detects_error,
    is_rejection,
    score,
    score_both,
)

CASES_DIR = Path(__file__).parents[1] / "cases"


def _answer(raw: list) -> tuple:
    return tuple(tuple(x) if isinstance(x, list) else x for x in raw)


def _instance(case: dict, lang: str) -> TestInstance:
    return TestInstance(
        lang=lang,  # type: ignore[arg-type]
        ability="counterfactual" if case.get("fakeanswer") else "noise",
        noise_rate=float(case.get("noise_rate", 0.0)),
        id=0,
        query=case.get("question", "q"),
        answer=_answer(case["answer"]),
        docs=tuple(case.get("docs", ())),
        fakeanswer=_answer(case.get("fakeanswer", [])),
    )


def _cases(lang: str) -> list[dict]:
    return yaml.safe_load((CASES_DIR / f"scoring_{lang}.yaml").read_text(encoding="utf-8"))


ALL_CASES = [(lang, c) for lang in ("zh", "en") for c in _cases(lang)]


@pytest.mark.parametrize(
    ("lang", "case"), ALL_CASES, ids=[f"{lg}:{c['name']}" for lg, c in ALL_CASES]
)
def test_case_table(lang: str, case: dict) -> None:
    inst = _instance(case, lang)
    for mode in ("rgb", "strict"):
        expected = case.get(mode)
        if not expected:
            continue
        got = score(case["prediction"], inst, mode)  # type: ignore[arg-type]
        for key, value in expected.items():
            actual = list(got.labels) if key == "labels" else getattr(got, key)
            assert actual == value, f"{mode} {key}: expected {value}, got {actual}"


def _phrase_file(lang: str) -> dict:
    text = (
        resources.files("leaderboard.scoring").joinpath(f"phrases/{lang}.yaml").read_text("utf-8")
    )
    return yaml.safe_load(text)


_WORD_LISTS = (
    "anaphora",
    "correction",
    "corrected_answer",
    "speaker",
    "first_person",
    "absence",
    "not_error",
    "undecided",
    "passive",
)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_phrase_table_entry_is_covered_by_a_case(lang: str) -> None:
    table = _phrase_file(lang)
    covered: dict[str, set[str]] = {
        "rejection": set(),
        "error": set(),
        "weak_error": set(),
        "negation": set(),
        "verb": set(),
        **{kind: set() for kind in _WORD_LISTS},
    }
    for case in _cases(lang):
        for kind, phrase in (case.get("phrase") or {}).items():
            covered[kind].add(phrase)
            if kind in ("rejection", "error", "weak_error", *_WORD_LISTS):  # the case holds it
                assert normalize(phrase, lang) in normalize(case["prediction"], lang), case["name"]
    for kind in ("rejection", "error", "weak_error"):
        missing = {p["phrase"] for p in table[kind]} - covered[kind]
        assert not missing, f"{lang} {kind} phrases without a test case: {missing}"
    for kind in _WORD_LISTS:  # the case contains the word or phrase
        missing_words = set(table.get(kind, [])) - covered[kind]
        assert not missing_words, f"{lang} {kind} entries without a test case: {missing_words}"
    if "negation" in table:
        assert set(table["negation"]["negations"]) <= covered["negation"]
        assert set(table["negation"]["verbs"]) <= covered["verb"]


def test_negation_cases_are_not_fixed_phrases() -> None:
    """The negation+verb cases must be found by the window pattern, not by the fixed phrase list."""
    table = phrase_table("zh")
    for case in _cases("zh"):
        if any(k in (case.get("phrase") or {}) for k in ("negation", "verb")):
            norm = normalize(case["prediction"], "zh")
            if not table.patterns["rejection"].search(norm):
                assert is_rejection(case["prediction"], "zh", "strict"), case["name"]


def test_detectors_modes() -> None:
    assert is_rejection("信息 不足", "zh", "rgb")
    assert not is_rejection("信息 不足", "en", "rgb")  # spaces are only removed for Chinese
    assert not is_rejection("INSUFFICIENT INFORMATION", "en", "rgb")
    assert is_rejection("INSUFFICIENT INFORMATION", "en", "strict")
    assert detects_error("事实性 错误", "zh", "rgb")
    assert not detects_error("factual error", "en", "rgb")  # the reference looks for the plural
    assert detects_error("factual error", "en", "strict")


def test_rgb_check_answer_is_the_reference_function() -> None:
    assert rgb_check_answer("ABC", ("abc",)) == (1,)
    assert rgb_check_answer("abc", (("x", "B"),)) == (1,)
    assert rgb_check_answer("abc", ("a", "z")) == (1, 0)
    assert rgb_check_answer("abc", ()) == ()


def test_score_both_and_token_f1_only_in_strict() -> None:
    inst = TestInstance("zh", "noise", 0.0, 1, "q", ("北京",), ())
    both = score_both("答案是北京", inst)
    assert set(both) == {"rgb", "strict"}
    assert both["rgb"].token_f1 is None
    assert both["strict"].token_f1 is not None and 0 < both["strict"].token_f1 <= 1


def test_unknown_mode_is_rejected() -> None:
    inst = TestInstance("zh", "noise", 0.0, 1, "q", ("北京",), ())
    with pytest.raises(ValueError, match="unknown scoring mode"):
        score("x", inst, "other")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- real data, rgb mode


def _records(path: Path) -> list[dict]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def _reference_labels(prediction: str, ground_truth: object, zh: bool) -> list[int]:
    """Independent transcription of RGB evalue.py predict()+checkanswer() for the cross-check."""
    if zh:
        prediction = prediction.replace(" ", "")
    if "信息不足" in prediction or "insufficient information" in prediction:
        return [-1]
    prediction = prediction.lower()
    if not isinstance(ground_truth, list):
        ground_truth = [ground_truth]
    labels = []
    for inst in ground_truth:
        if isinstance(inst, list):
            labels.append(int(any(i.lower() in prediction for i in inst)))
        else:
            labels.append(int(inst.lower() in prediction))
    return labels


@pytest.mark.parametrize("name", ["zh_refine.json", "zh_int.json", "zh_fact.json", "en_fact.json"])
def test_rgb_mode_matches_reference_on_real_data(official_dir: Path, name: str) -> None:
    """Predictions made from each real record (answer, partial answer, case, spaces, refusal)."""
    zh = name.startswith("zh")
    lang = "zh" if zh else "en"
    for rec in _records(official_dir / name):
        raw = rec["answer"]
        answer = _answer(raw if isinstance(raw, list) else [raw])
        first = answer[0] if isinstance(answer[0], str) else answer[0][-1]
        preds = [
            f"答案 是 {first.upper()}",
            " ".join(first),
            f"文档信息不足 {first}",
            f"insufficient information {first}",
            f"Insufficient information {first}",
            f"事实性错误 {first}" if zh else f"There are factual errors. {first}",
            rec["query"],
        ]
        for rate in (0.0, 1.0):
            inst = TestInstance(lang, "noise", rate, rec["id"], rec["query"], answer, ())  # type: ignore[arg-type]
            for pred in preds:
                labels = _reference_labels(pred, raw, zh)
                got = score(pred, inst, "rgb")
                assert list(got.labels) == labels
                expected_correct = (rate == 1 and labels[0] == -1) or (
                    0 not in labels and 1 in labels
                )
                assert got.correct == expected_correct
                spaced = pred.replace(" ", "") if zh else pred
                assert got.error_detected == ("事实性错误" in spaced or "factual errors" in spaced)


# ----------------------------------------------------------------------------- property tests


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200), st.sampled_from(["zh", "en"]))
def test_any_text_scores_in_both_modes(text: str, lang: str) -> None:
    inst = TestInstance(lang, "counterfactual", 0.0, 0, "q", ("70", ("a", "b")), (), ("170",))  # type: ignore[arg-type]
    both = score_both(text, inst)
    assert len(both["strict"].labels) == 2
    assert 0.0 <= (both["strict"].token_f1 or 0.0) <= 1.0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_very_long_prediction(lang: str) -> None:
    filler = ("很长的无关文本。" if lang == "zh" else "long unrelated text. ") * 20_000
    inst = TestInstance(lang, "noise", 0.0, 0, "q", ("Norway",), ())  # type: ignore[arg-type]
    got = score(filler + " Norway", inst, "strict")
    assert got.correct and not got.rejected
    assert 0 < (got.token_f1 or 0) < 0.01
    assert score(filler, inst, "rgb").labels == (0,)


@pytest.mark.xfail(
    strict=True,
    reason="known hole, not fixed yet: the candidate-list rule needs LIST_MIN (8) short items, so "
    "a short list of candidates with the gold among them is credited (scripts/list_top_k.py "
    "measures it: the top 3 of the passages score 22.9 % strict on zh noise, committing to the "
    "top one 5.7 %); lowering the threshold as it is withholds honest multi-item answers",
)
@pytest.mark.parametrize(
    ("lang", "prediction", "gold"),
    [
        ("zh", "答案是北京、上海、广州。", "上海"),
        ("en", "The answer is Paris, Lyon, Marseille.", "Lyon"),
    ],
)
def test_a_short_list_of_candidates_credits_nothing(lang: str, prediction: str, gold: str) -> None:
    assert not score(prediction, _instance({"answer": [gold]}, lang), "strict").correct

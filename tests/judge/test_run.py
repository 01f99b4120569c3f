"""The judge loop (leaderboard/judge/run.py) with the in-package scripted backend as the judge:
cache keys, the judge fingerprint, failed judge calls, a line cut by kill -9."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.backends.scripted import ScriptedBackend
from leaderboard.core.errors import ResultsError
from leaderboard.core.judge_config import JudgeConfig, load_judge_config
from leaderboard.judge.run import JudgeItem, JudgementStore, judge_fingerprint, run_judge

REPO = Path(__file__).resolve().parents[2]
SCRIPTED = REPO / "judges" / "scripted-keywords.yaml"


def _items() -> list[JudgeItem]:
    return [
        JudgeItem("zh/rejection/1.0/0", "rejection", "zh", 0, "谁赢了？", "信息不足。", "fp"),
        JudgeItem("zh/rejection/1.0/1", "rejection", "zh", 1, "谁赢了？", "挪威。", "fp"),
        JudgeItem("en/counterfactual/0.0/0", "error_detection", "en", 0, "Who?", "Paris.", "fp"),
        # the same answer to another counterfactual question: the same error-detection prompt
        JudgeItem("en/counterfactual/0.0/1", "error_detection", "en", 1, "Where?", "Paris.", "fp"),
        JudgeItem("zh/rejection/1.0/2", "rejection", "zh", 2, "谁？", "", "fp", "CUDA OOM"),
    ]


def _scripted(judge: JudgeConfig, **kw: object) -> ScriptedBackend:
    return ScriptedBackend.from_submission(judge) if not kw else ScriptedBackend(**kw)  # type: ignore[arg-type]


def test_scripted_judge_caches_by_prompt(tmp_path: Path) -> None:
    judge = load_judge_config(SCRIPTED)
    backend = _scripted(judge)
    store = JudgementStore(tmp_path / "j.jsonl")
    stats, describe = run_judge(judge, lambda: backend, _items(), store, chunk_size=2)
    assert (stats.judged, stats.cached, stats.skipped, stats.errors) == (3, 0, 1, 0)
    assert describe is not None and describe["backend"] == "scripted"
    assert (
        backend.requests_seen == 3
    )  # one call for the two identical prompts, none for the failure
    by_key = {r.key: r for r in JudgementStore(tmp_path / "j.jsonl").by_key.values()}
    assert by_key["zh/rejection/1.0/0"].decision is True
    assert by_key["zh/rejection/1.0/1"].decision is False
    assert by_key["en/counterfactual/0.0/0"].decision is False

    def no_model() -> ScriptedBackend:
        raise AssertionError("a fully cached run must not load the model")

    again = JudgementStore(tmp_path / "j.jsonl")
    stats, describe = run_judge(judge, no_model, _items(), again)
    assert (stats.judged, stats.cached, describe) == (0, 4, None)


def test_fingerprint_follows_the_judge_settings() -> None:
    judge = load_judge_config(SCRIPTED)
    base = judge_fingerprint(judge)
    assert judge_fingerprint(load_judge_config(SCRIPTED)) == base
    hotter = judge.model_copy(
        update={"generation": judge.generation.model_copy(update={"temperature": 0.7})}
    )
    assert judge_fingerprint(hotter) != base
    assert judge_fingerprint(judge.model_copy(update={"model": "other"})) != base
    # speed-only settings do not change the verdicts, nor the fingerprint
    assert judge_fingerprint(judge.model_copy(update={"batch_size": 64})) == base


def test_failed_judge_calls_are_not_stored_and_asked_again(tmp_path: Path) -> None:
    judge = load_judge_config(SCRIPTED)
    store = JudgementStore(tmp_path / "j.jsonl")
    flaky = ScriptedBackend(
        ["No, the question is not addressed by the documents."], fail_indices=[0]
    )
    stats, _ = run_judge(judge, lambda: flaky, _items()[:2], store)
    assert stats.errors == 1 and len(store.by_key) == 1
    stats, _ = run_judge(judge, lambda: flaky, _items()[:2], JudgementStore(store.path))
    assert (stats.judged, stats.cached, stats.errors) == (1, 1, 0)
    assert len(JudgementStore(store.path).by_key) == 2


def test_unparsable_replies_are_stored_as_such(tmp_path: Path) -> None:
    judge = load_judge_config(SCRIPTED)
    store = JudgementStore(tmp_path / "j.jsonl")
    run_judge(judge, lambda: ScriptedBackend(["Hmm, hard to say."]), _items()[:1], store)
    (rec,) = store.by_key.values()
    assert (
        rec.verdict == "unparsable" and rec.decision is None and rec.output == "Hmm, hard to say."
    )


def test_a_line_cut_by_kill_is_dropped_and_cut_before_the_next_append(tmp_path: Path) -> None:
    judge = load_judge_config(SCRIPTED)
    path = tmp_path / "j.jsonl"
    run_judge(judge, lambda: _scripted(judge), _items()[:2], JudgementStore(path))
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 40])  # the second line loses its end
    store = JudgementStore(path)
    assert store.truncated_tail and len(store.by_key) == 1
    stats, _ = run_judge(judge, lambda: _scripted(judge), _items()[:2], store)
    assert stats.judged == 1
    assert path.read_bytes().count(b"\n") == 2 and len(JudgementStore(path).by_key) == 2


def test_a_damaged_line_in_the_middle_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"key": 1}\n{}\n', "utf-8")
    with pytest.raises(ResultsError, match=r"j.jsonl:1: field 'key'"):
        JudgementStore(path)

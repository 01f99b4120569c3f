"""Provenance paths (leaderboard.run.provenance): relative to the repository, never the layout of
the machine a run happened on."""

from __future__ import annotations

from pathlib import Path

from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import write_scripted_submission

REPO = Path(__file__).resolve().parents[2]


def test_run_records_a_repository_relative_command(tmp_path: Path, data_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "sub", run={"allow_partial_data": True})
    res = run_submission(
        load_submission(path),
        RunOptions(
            root=data_root,
            selection=Selection(limit=1, languages=("zh",), abilities=("rejection",)),
            progress=False,
            command=f"rgb-leaderboard run {REPO}/submissions/sub --data-dir {REPO}",
        ),
    )
    assert res.provenance.command == "rgb-leaderboard run submissions/sub --data-dir ."
    assert str(REPO) not in " ".join(res.partial_reasons)


# ------------------------------------------------------------ where the answers were generated


def test_history_keeps_what_each_invocation_recorded_and_adds_this_one() -> None:
    from leaderboard.run.invocations import invocation_history, machines

    created = ["2026-01-01T00:00:05Z", "2026-01-01T00:00:09Z", "2026-01-02T00:00:01Z"]
    first = {"device": "cpu: A", "build": "AVX512 = 1 |", "answers": 2}
    second = {"device": "cpu: B", "build": "AVX2 = 1 |", "answers": 1}
    third = {"device": "cpu: A", "build": "AVX512 = 1 |", "answers": 4}
    previous = {"extra": {"invocations": [first, second]}}
    history = invocation_history(previous, third, created)
    assert history == [first, second, third]
    assert machines(history) == [("cpu: A", "AVX512 = 1 |", 6), ("cpu: B", "AVX2 = 1 |", 1)]
    # nothing written now (a rescore, a verify): the recorded history as it was
    assert invocation_history(previous, None, created) == [first, second]


def test_results_written_before_histories_seed_one_marked_entry() -> None:
    """An older results.json says only where its last invocation ran: the seeded entry covers the
    answers up to its end and is marked, never presented as a full record."""
    from leaderboard.run.invocations import invocation_history

    previous = {
        "device": "cpu: Intel",
        "finished": "2026-01-01T10:00:00Z",
        "git_commit": "abc",
        "extra": {"backend": {"llamacpp": {"system_info": "AVX512 = 1 | "}}},
    }
    created = ["2026-01-01T06:00:00Z", "2026-01-01T09:59:59Z", "2026-01-02T00:00:01Z"]
    (seeded,) = invocation_history(previous, None, created)
    assert seeded["seeded"] is True and seeded["answers"] == 2
    assert (seeded["started"], seeded["device"], seeded["build"]) == (
        "2026-01-01T06:00:00Z",
        "cpu: Intel",
        "AVX512 = 1 |",
    )
    assert invocation_history(None, None, created) == []


def test_a_resumed_run_records_each_invocation_that_generated(
    tmp_path: Path, data_root: Path
) -> None:
    import json

    path = write_scripted_submission(tmp_path / "sub", run={"allow_partial_data": True})
    sub = load_submission(path)

    def run(limit: int):
        return run_submission(
            sub,
            RunOptions(
                root=data_root,
                selection=Selection(limit=limit, languages=("zh",), abilities=("rejection",)),
                progress=False,
            ),
        )

    first = run(1).provenance.extra["invocations"]
    assert len(first) == 1 and first[0]["answers"] == first[0]["generated"] == 1
    assert first[0]["device"] and "seeded" not in first[0]
    assert first[0]["peak_rss_mib"] > 10  # this Python process, at least its interpreter
    history = run(3).provenance.extra["invocations"]
    assert [h["answers"] for h in history] == [1, 2] and history[0] == first[0]
    assert run(3).provenance.extra["invocations"] == history  # nothing new: nothing added
    # a results.json from before histories were recorded: seeded from its last invocation
    results = tmp_path / "sub" / "results.json"
    doc = json.loads(results.read_text(encoding="utf-8"))
    del doc["provenance"]["extra"]["invocations"]
    results.write_text(json.dumps(doc), encoding="utf-8")
    seeded = run(4).provenance.extra["invocations"]
    assert [h.get("seeded", False) for h in seeded] == [True, False]
    assert [h["answers"] for h in seeded] == [3, 1]

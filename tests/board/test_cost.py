"""What a run cost, per machine (board/cost.py): from a real run's records and from the committed
entries, whose histories name their machines."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from leaderboard.board.cost import UNRECORDED, answer_cost, entry_cost, hours_for
from leaderboard.board.load import load_entry
from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import write_scripted_submission

SUBMISSIONS = Path(__file__).resolve().parents[2] / "submissions"


def _run(folder: Path, data_root: Path, limit: int) -> None:
    sub = load_submission(folder / "model.yaml")
    run_submission(
        sub,
        RunOptions(
            root=data_root,
            selection=Selection(limit=limit, languages=("zh",), abilities=("rejection",)),
            progress=False,
        ),
    )


def test_a_run_records_its_machine_and_peak_memory_and_costs_per_language(
    tmp_path: Path, data_root: Path
) -> None:
    folder = tmp_path / "sub"
    write_scripted_submission(folder, scripted={"policy": "echo", "latency_s": 0.01})
    _run(folder, data_root, 2)
    _run(folder, data_root, 3)  # resumed on the same machine: one row, two invocations
    (machine,) = entry_cost(load_entry(folder))
    assert machine.attributed == "invocations" and machine.engine == "scripted"
    assert machine.device and machine.build is None  # the scripted backend's device: "none"
    assert machine.peak_rss_mib is not None and machine.peak_rss_mib > 10
    assert machine.all.answers == 3 and machine.all.errors == 0
    assert machine.all.median_s is not None and machine.all.median_s >= 0.01
    assert machine.all.mean_completion_tokens is not None
    assert [lang for lang, _ in machine.langs] == ["zh"]
    hours = hours_for(machine.all, 3600)
    assert hours is not None and abs(hours - machine.all.total_s / 3) < 1e-9


def test_the_committed_1_5b_splits_its_answers_over_the_machines_its_history_names() -> None:
    entry = load_entry(SUBMISSIONS / "qwen2.5-coder-1.5b-instruct")
    machines = entry_cost(entry)
    assert sum(m.all.answers for m in machines) == len(entry.predictions)
    (xeon,) = [m for m in machines if m.device == "cpu: Intel(R) Xeon(R) Processor"]
    # the AMD EPYC ran two builds: AVX2 with llamafile off, then (closed book) with it on
    (epyc,) = [
        m for m in machines if m.device == "cpu: AMD EPYC" and "LLAMAFILE" not in (m.build or "")
    ]
    assert xeon.build and "AVX512 = 1" in xeon.build and "AVX512" not in (epyc.build or "")
    assert all(m.attributed in ("invocations", "unattributed") for m in machines)
    assert all(m.device == UNRECORDED for m in machines if m.attributed == "unattributed")
    # the AVX2 build without llamafile is the slow one (issue 39's figures)
    assert epyc.all.median_s and xeon.all.median_s and epyc.all.median_s > 2 * xeon.all.median_s
    assert all(m.all.mean_prompt_tokens and m.all.mean_completion_tokens for m in machines)


def test_results_without_a_history_name_the_last_invocations_device() -> None:
    # a reference system's results.json predates the invocation history
    entry = load_entry(SUBMISSIONS / "system-bm25-qwen2.5-coder-0.5b")
    (machine,) = entry_cost(entry)
    assert machine.attributed == "last invocation"
    assert machine.device == entry.results.provenance.device
    assert machine.all.answers == len(entry.predictions) and machine.peak_rss_mib is None
    assert {lang for lang, _ in machine.langs} == {r.lang for r in entry.predictions}


def test_errors_are_counted_apart_from_the_figures() -> None:
    entry = load_entry(SUBMISSIONS / "smollm2-135m-instruct")
    records = list(entry.predictions[:3])
    failed = records[0].model_copy(update={"error": "RuntimeError: boom", "latency_s": 999.0})
    cost = answer_cost([failed, *records[1:]])
    assert (cost.answers, cost.errors) == (3, 1)
    assert cost.median_s is not None and cost.median_s < 999.0
    assert answer_cost([]).median_s is None and answer_cost([]).answers == 0


def test_cost_command_prints_a_table_per_machine() -> None:
    result = CliRunner().invoke(app, ["cost", str(SUBMISSIONS / "qwen2.5-coder-1.5b-instruct")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("qwen2.5-coder-1.5b-instruct (llamacpp)")
    assert "cpu: AMD EPYC; llama.cpp built with SSE3 SSSE3 AVX AVX2" in out
    assert "| all |" in out and "| zh |" in out and "h per 1,000" in out

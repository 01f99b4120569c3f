"""The probes through the real runner (scripted backend, echo policy), with the chain's
retriever and provenance of run/chain_retriever.py: selectable like abilities, resumable and cached
like every prediction, kept by a later narrower run, stored in results.json under their own names,
and never changing the RGB numbers."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.trust.verify import verify
from tests.helpers import read_predictions, write_scripted_submission


def _rgb(res):
    return [c for c in res.cells if c.ability == "noise"], res.scores


def probes(limit: int) -> Selection:
    return Selection(limit=limit, abilities=("chain", "replacement"))


def test_probes_resume_and_leave_the_rgb_numbers_alone(rgb_root: Path, tmp_path: Path) -> None:
    sub = load_submission(
        write_scripted_submission(
            tmp_path / "p", run={"allow_partial_data": True, "abilities": ["noise"]}
        )
    )
    kw = {"root": rgb_root, "progress": False}
    before = run_submission(sub, RunOptions(selection=Selection(limit=4), **kw))
    res = run_submission(sub, RunOptions(selection=probes(2), **kw))
    assert _rgb(res) == _rgb(before)  # the four abilities' cells and scores: identical
    assert {(c.lang, c.ability) for c in res.cells if c.ability in ("chain", "replacement")} == {
        (lang, p) for lang in ("zh", "en") for p in ("chain", "replacement")
    }
    assert {e.probe for e in res.probes} == {"chain", "replacement", "cliff"}
    probe_recs = [r for r in read_predictions(tmp_path / "p") if r.ability != "noise"]
    assert len(probe_recs) == 8
    assert res.provenance.extra["probes"]["chain"]["retriever"] == "bm25"
    again = run_submission(sub, RunOptions(selection=probes(2), **kw))
    assert again.provenance.extra["this_invocation"]["generated_prompts"] == 0
    more = run_submission(sub, RunOptions(selection=probes(3), **kw))
    assert more.provenance.extra["this_invocation"]["generated_prompts"] == 4
    # a later run of the submission's own abilities keeps the measured probes in results.json
    plain = run_submission(sub, RunOptions(selection=Selection(limit=4), **kw))
    assert plain.provenance.extra["this_invocation"]["generated_prompts"] == 0
    kept = {(e.lang, e.probe, e.metric, e.mode): e for e in plain.probes}
    assert kept[("zh", "chain", "recall_at_k", "rgb")].n_questions == 3
    assert _rgb(plain) == _rgb(before)
    report = verify(tmp_path / "p", rgb_root)  # verify recomputes the probes too
    assert report.ok, report.render()
    assert report.recomputed.new.probes == plain.probes


def test_cli_selects_probes_like_abilities(rgb_root: Path, tmp_path: Path) -> None:
    yaml_path = write_scripted_submission(tmp_path / "c", run={"allow_partial_data": True})
    args = ["run", str(yaml_path), "--abilities", "chain,replacement", "--limit", "2"]
    res = CliRunner().invoke(app, [*args, "--data-dir", str(rgb_root), "--no-progress"])
    assert res.exit_code == 0, res.output
    shown = CliRunner().invoke(app, ["probes", "show", str(tmp_path / "c")])
    assert shown.exit_code == 0 and "zh chain (n=2)" in shown.output
    assert "Wilson at the cluster-bootstrap effective n" in shown.output
    assert "context_reliance" not in shown.output  # no noise-0 run here: nothing to pair with
    bad = CliRunner().invoke(app, ["run", str(yaml_path), "--abilities", "chains"])
    assert bad.exit_code != 0

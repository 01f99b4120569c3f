"""The trust chain (leaderboard.trust.verify, trust.repair, cli.verify): results recomputed
from predictions, every difference named, rescoring and repair recorded; on real RGB instances
with the in-package fake backend, and on the committed submissions."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from leaderboard.stats.version import scoring_files, scoring_version
from leaderboard.trust.repair import REPAIR_ID, repair_folder
from leaderboard.trust.verify import verify
from tests.helpers import write_scripted_submission

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
SMALL = {"languages": ["zh", "en"], "abilities": ["counterfactual", "rejection"]}


@pytest.fixture
def sub(tmp_path: Path, data_root: Path) -> Path:
    """A freshly run fake-backend submission folder (2 records per split)."""
    path = write_scripted_submission(tmp_path / "sub", run={"allow_partial_data": True})
    run_submission(
        load_submission(path),
        RunOptions(root=data_root, selection=Selection(limit=2, **SMALL), progress=False),
    )
    return path.parent


def _edit_results(folder: Path, edit) -> None:
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    edit(data)
    (folder / "results.json").write_text(json.dumps(data), encoding="utf-8")


def test_fresh_run_verifies(sub: Path, data_root: Path) -> None:
    report = verify(sub, data_root)
    assert report.ok, report.render()
    assert report.recomputed.checked == 8 and report.render().startswith("ok: ")
    assert RunStore(sub).read_results().provenance.scoring_version == scoring_version()


def test_one_changed_value_fails_naming_the_cell(sub: Path, data_root: Path) -> None:
    def bump(data: dict) -> None:
        cell = next(c for c in data["cells"] if c["lang"] == "zh" and c["mode"] == "strict")
        cell["rejection_rate"] = 0.75

    _edit_results(sub, bump)
    report = verify(sub, data_root)
    assert not report.ok and len(report.mismatches) == 1
    text = report.render()
    assert "cell zh/rejection/1.0/strict rejection_rate: results.json has 0.75, recomputed" in text
    assert "rgb-leaderboard rescore" in text


def test_scoring_version_mismatch_is_said_first(sub: Path, data_root: Path) -> None:
    _edit_results(sub, lambda d: d["provenance"].update(scoring_version="0123456789abcdef"))
    text = verify(sub, data_root).render()
    assert "scoring version: results.json was scored by 0123456789abcdef" in text
    assert "only the version differs" in text


def test_prompt_hash_and_fingerprint_are_checked(sub: Path, data_root: Path) -> None:
    plain = sub / "predictions.jsonl"
    lines = plain.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["prompt_sha256"] = "0" * 64
    plain.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    yaml_path = sub / "model.yaml"
    yaml_path.write_text(yaml_path.read_text() + "system_prompt: merge\n", encoding="utf-8")
    report = verify(sub, data_root)
    problems = " | ".join(report.recomputed.problems)
    assert "prompt hash: 1 prediction(s)" in problems and first["key"] in problems
    assert "fingerprint: results.json records" in problems
    assert not report.ok


def test_rescore_rewrites_and_records_then_verifies(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _edit_results(sub, lambda d: d["scores"][0].update(value=0.5))
    monkeypatch.chdir(sub.parent)
    out = runner.invoke(app, ["verify", "--data-dir", str(data_root)])
    assert out.exit_code == 1 and "FAIL: submissions" not in out.output  # no submissions/ here
    out = runner.invoke(app, ["verify", "sub", "--data-dir", str(data_root)])
    assert out.exit_code == 1 and "FAIL: sub" in out.output and "value=" not in out.output
    out = runner.invoke(app, ["rescore", "sub", "--data-dir", str(data_root)])
    assert out.exit_code == 0, out.output
    assert "1 value(s) changed" in out.output
    res = RunStore(sub).read_results()
    assert res.provenance.extra["rescored"][-1]["command"] == "rgb-leaderboard rescore sub"
    out = runner.invoke(app, ["verify", "sub", "--data-dir", str(data_root)])
    assert out.exit_code == 0 and out.output.startswith("ok: sub"), out.output


def test_rescore_keeps_the_limit_the_run_was_given(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--limit` is an option of the run, invisible in its predictions: the rescored results.json
    still says the run was limited (first), beside the reasons recomputed from disk."""
    before = RunStore(sub).read_results()
    assert before.partial_reasons[0] == "--limit 2: only the first 2 records of each split"
    monkeypatch.chdir(sub.parent)
    out = runner.invoke(app, ["rescore", "sub", "--data-dir", str(data_root)])
    assert out.exit_code == 0, out.output
    after = RunStore(sub).read_results()
    assert after.partial and after.partial_reasons == before.partial_reasons
    runner.invoke(app, ["rescore", "sub", "--data-dir", str(data_root)])  # said once, not twice
    assert RunStore(sub).read_results().partial_reasons == before.partial_reasons


def test_rescore_of_several_entries_records_the_checkout_as_the_command_found_it(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One command, two entries: both records carry the checkout state read before the first
    write (a rewrite of the first entry's tracked results.json must not make the second's code
    look dirty)."""
    import shutil

    from leaderboard.core.checkout import git_state

    shutil.copytree(sub, sub.parent / "sub2")
    monkeypatch.chdir(sub.parent)
    commit, dirty = git_state()
    out = runner.invoke(app, ["rescore", "sub", "sub2", "--data-dir", str(data_root)])
    assert out.exit_code == 0, out.output
    for folder in (sub, sub.parent / "sub2"):
        record = RunStore(folder).read_results().provenance.extra["rescored"][-1]
        assert (record["git_commit"], record["git_dirty"]) == (commit, dirty)


def test_rescore_without_folders_takes_every_entry_as_verify_does(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`rescore` with no argument is the maintainer's "after a scoring change" command: every
    submissions/*/ entry, as `verify` with no argument checks them."""
    import shutil

    work = tmp_path / "checkout"
    shutil.copytree(sub, work / "submissions" / "sub")
    _edit_results(work / "submissions" / "sub", lambda d: d["scores"][0].update(value=0.5))
    monkeypatch.chdir(work)
    out = runner.invoke(app, ["verify", "--data-dir", str(data_root)])
    assert out.exit_code == 1 and "FAIL: submissions/sub" in out.output
    out = runner.invoke(app, ["rescore", "--data-dir", str(data_root)])
    assert out.exit_code == 0 and "1 value(s) changed" in out.output, out.output
    out = runner.invoke(app, ["verify", "--data-dir", str(data_root)])
    assert out.exit_code == 0, out.output


def test_rescore_loads_no_model(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leaderboard.backends import registry
    from leaderboard.run import runner
    from leaderboard.trust import verify as v

    def refuse(_sub: object) -> None:
        raise AssertionError("rescoring must not load a backend")

    # where a backend is loaded from: the registry, and the runner's name for it
    monkeypatch.setattr(registry, "load_backend", refuse)
    monkeypatch.setattr(runner, "load_backend", refuse)
    rc = v.recompute(sub, data_root)
    assert rc.new is not None
    assert rc.new.provenance.fingerprint == RunStore(sub).read_results().provenance.fingerprint
    assert rc.new.provenance.extra["backend"]["described_by_previous_run"] is True


def _with_broken_tail(folder: Path) -> list[str]:
    """Make the first two predictions end inside a character, as SmolLM2's did."""
    plain = folder / "predictions.jsonl"
    recs = [json.loads(x) for x in plain.read_text(encoding="utf-8").splitlines()]
    recs[0]["prediction"] += " 北\ufffd"
    recs[1]["prediction"] = "公\ufffdareth " + recs[1]["prediction"] + "\ufffd"
    plain.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return [recs[0]["key"], recs[1]["key"]]


def test_repair_trims_marks_and_is_idempotent(sub: Path) -> None:
    keys = _with_broken_tail(sub)
    summary = repair_folder(sub)
    assert summary.trimmed == keys and summary.mid_text == [keys[1]]
    assert not (sub / "predictions.jsonl").exists() and (sub / "predictions.jsonl.gz").exists()
    by_key = {r.key: r for r in RunStore(sub).read().records}
    assert by_key[keys[0]].prediction.endswith("北") and by_key[keys[0]].trimmed_incomplete_char
    assert by_key[keys[0]].repaired_by == REPAIR_ID
    assert by_key[keys[1]].prediction.startswith("公\ufffdareth")  # inside: model output, kept
    untouched = [r for r in by_key.values() if r.key not in keys]
    assert not any(r.trimmed_incomplete_char or r.repaired_by for r in untouched)
    data = (sub / "predictions.jsonl.gz").read_bytes()
    again = repair_folder(sub)
    assert again.trimmed == [] and (sub / "predictions.jsonl.gz").read_bytes() == data


def test_repair_command_rescores_and_records(
    sub: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_broken_tail(sub)
    monkeypatch.chdir(sub.parent)
    out = runner.invoke(app, ["predictions", "repair", "sub", "--data-dir", str(data_root)])
    assert out.exit_code == 0, out.output
    assert "2 ended inside a character (trimmed), 1 keep a U+FFFD inside" in out.output
    rescored = RunStore(sub).read_results().provenance.extra["rescored"][-1]
    assert rescored["repair"]["trimmed_incomplete_char"] == 2
    assert rescored["command"].startswith("rgb-leaderboard predictions repair sub")
    assert verify(sub, data_root).ok


def test_broken_tail_of_decoded_text_is_flagged(sub: Path, data_root: Path) -> None:
    """Text decoded from model tokens (here an OpenAI-compatible backend) ending in U+FFFD is a
    cut character; the same ending from a scripted policy is copied data and not flagged."""
    _with_broken_tail(sub)
    assert "end inside a character" not in verify(sub, data_root).render()
    yaml_path = sub / "model.yaml"
    doc = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    doc.pop("scripted")
    doc.update(backend="openai", openai={"base_url": "http://127.0.0.1:9/v1"})
    yaml_path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    assert "end inside a character" in verify(sub, data_root).render()


def test_scoring_version_covers_scoring_stats_and_phrases() -> None:
    names = {p.relative_to(REPO / "leaderboard").as_posix() for p in scoring_files()}
    assert {"scoring/score.py", "scoring/phrases/zh.yaml", "stats/intervals.py"} <= names
    assert not any("__pycache__" in n for n in names)
    assert len(scoring_version()) == 16


def test_committed_submissions_verify(data_root: Path) -> None:
    folders = sorted(p.parent for p in (REPO / "submissions").glob("*/results.json"))
    assert folders
    for folder in folders:
        report = verify(folder, data_root)
        assert report.ok, report.render()


def test_committed_predictions_have_no_broken_tail() -> None:
    """Model output only: the scripted copy baselines copy passages, some of which end in U+FFFD
    in the data itself (verify skips them for the same reason)."""
    for path in (REPO / "submissions").glob("*/predictions.jsonl.gz"):
        if "backend: scripted" in (path.parent / "model.yaml").read_text(encoding="utf-8"):
            continue
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                assert not json.loads(line)["prediction"].endswith("\ufffd"), path


def test_a_narrowed_rerun_still_verifies(sub: Path, data_root: Path) -> None:
    """A rerun narrowed to one language over a folder holding both (the way long runs are
    resumed stage by stage) writes results that `verify` recomputes to the same data files."""
    run_submission(
        load_submission(sub / "model.yaml"),
        RunOptions(
            root=data_root,
            selection=Selection(limit=2, languages=("zh",), abilities=("rejection",)),
            progress=False,
        ),
    )
    report = verify(sub, data_root)
    assert report.ok, report.render()


def test_a_first_run_narrowed_without_partial_data_verifies(
    tmp_path: Path, data_root: Path
) -> None:
    """A submission whose YAML does not allow partial data, run with --languages zh --abilities
    counterfactual: the recorded view holds zh_fact.json only, and the rebuild does not ask for
    the files of splits without predictions."""
    path = write_scripted_submission(tmp_path / "narrow")
    selection = Selection(limit=2, languages=("zh",), abilities=("counterfactual",))
    run_submission(
        load_submission(path), RunOptions(root=data_root, selection=selection, progress=False)
    )
    report = verify(path.parent, data_root)
    assert report.ok, report.render()


def test_a_run_given_allow_partial_data_verifies_without_it(tmp_path: Path) -> None:
    """A YAML that does not allow partial data, run as the missing-data error advises
    (`--allow-partial-data`) on a data root without en_refine.json: results.json records the
    choice, so `verify` rebuilds the same instances from the partial file without the option."""
    root = tmp_path / "data"
    for rel in ("data_en/MANIFEST.json", "data_en/partial/en_head50.json"):
        if not (REPO / rel).is_file():
            pytest.skip(f"{rel} not fetched")
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes((REPO / rel).read_bytes())
    path = write_scripted_submission(tmp_path / "sub")
    args = ["--languages", "en", "--abilities", "noise", "--limit", "2", "--data-dir", str(root)]
    refused = runner.invoke(app, ["run", str(path), *args, "--no-progress"])
    assert refused.exit_code != 0 and "--allow-partial-data" in str(refused.exception)
    out = runner.invoke(app, ["run", str(path), *args, "--no-progress", "--allow-partial-data"])
    assert out.exit_code == 0, out.output
    choices = RunStore(path.parent).read_results().provenance.extra["data_choices"]
    assert choices == {"allow_partial_data": True, "limit": 2}
    report = verify(path.parent, root)
    assert report.ok and report.recomputed.checked > 0, report.render()

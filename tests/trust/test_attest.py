"""Attesting answers from uncommitted code (leaderboard.trust.attest): each invocation's git state,
the stratified re-generation from a clean checkout, `verify`'s check of attestation.json, and the
ranking rule that follows. Real RGB instances, the in-package scripted backend."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from leaderboard.board.ranking import unverified_reasons
from leaderboard.cli.run import dirty_refusal
from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from leaderboard.trust.attest import (
    ATTEST_NAME,
    attest,
    check,
    invocations,
    read_attestation,
    stratified,
    unattested,
    write_attestation,
)
from tests.helpers import write_scripted_submission

SMALL = {"languages": ("zh", "en"), "abilities": ("counterfactual", "noise")}
CLEAN = ("c" * 40, False)


@pytest.fixture
def sub(tmp_path: Path, data_root: Path) -> Path:
    """A scripted run whose one invocation is recorded as dirty."""
    path = write_scripted_submission(tmp_path / "sub", run={"allow_partial_data": True})
    run_submission(
        load_submission(path),
        RunOptions(root=data_root, selection=Selection(limit=3, **SMALL), progress=False),
    )
    _set_history(path.parent, lambda h: [{**h[0], "git_dirty": True}])
    return path.parent


def _set_history(folder: Path, edit) -> None:
    results = folder / "results.json"
    doc = json.loads(results.read_text(encoding="utf-8"))
    extra = doc["provenance"]["extra"]
    extra["invocations"] = edit(extra["invocations"])
    results.write_text(json.dumps(doc), encoding="utf-8")


def test_each_invocation_records_its_git_state(sub: Path) -> None:
    (inv,) = invocations(RunStore(sub).read_results())
    assert inv.state == "dirty" and inv.answers == 36


def test_a_record_without_the_field_is_unrecorded_unless_it_wrote_the_provenance(
    sub: Path,
) -> None:
    def legacy(h: list[dict]) -> list[dict]:
        old = {k: v for k, v in h[0].items() if k != "git_dirty"}
        return [{**old, "started": "2020-01-01T00:00:00Z"}, old]

    _set_history(sub, legacy)
    results = RunStore(sub).read_results()
    states = [i.state for i in invocations(results)]
    expected = "dirty" if results.provenance.git_dirty else "clean"
    assert states == ["unrecorded", expected]


def test_stratified_sample_takes_every_commit() -> None:
    groups = {"a": [f"k{i}" for i in range(100)], "b": ["x1", "x2"], "c": []}
    chosen = stratified(groups, 4, 7)
    assert len(chosen) == 4 and {"x1", "x2"} <= set(chosen)
    assert stratified(groups, 4, 7) == chosen and stratified(groups, 4, 8) != chosen


def test_attestation_clears_the_reason_and_verify_checks_it(sub: Path, data_root: Path) -> None:
    results = RunStore(sub).read_results()
    reasons = unverified_reasons(results)
    assert any(
        "not attested; cleared by `rgb-leaderboard attest submissions/sub`" in r for r in reasons
    )
    found = attest(sub, data_root, n=4, seed=3, checkout=CLEAN)
    assert found.passed and found.sample == 4 and found.of == 36
    assert [c.state for c in found.invocations] == ["dirty"]
    write_attestation(sub / ATTEST_NAME, found)
    saved = read_attestation(sub / ATTEST_NAME)
    assert saved is not None and not unattested(results, saved)
    assert not any("attest" in r for r in unverified_reasons(results, saved))
    assert check(sub) == []
    # an answer edited after the attestation: verify names it
    plain = sub / "predictions.jsonl"
    rows = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()]
    key = saved.pairs[0].key
    rows = [{**r, "prediction": "edited"} if r["key"] == key else r for r in rows]
    plain.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    assert check(sub) == [
        f"{(sub / ATTEST_NAME).as_posix()}: pairs[{key}]: recorded text is not the answer on record"
    ]


def test_a_changed_answer_fails_the_attestation(sub: Path, data_root: Path) -> None:
    plain = sub / "predictions.jsonl"
    rows = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()]
    rows = [{**r, "prediction": r["prediction"] + " "} for r in rows]
    plain.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    found = attest(sub, data_root, n=2, seed=3, checkout=CLEAN)
    assert not found.passed and not any(p.identical for p in found.pairs)
    results = RunStore(sub).read_results()
    assert unattested(results, found)
    # only answers behind the ranked score block a rank: a run of probes alone does not
    records = RunStore(sub).read().records
    assert unattested(results, found, records)
    probes = [r.model_copy(update={"ability": "closedbook"}) for r in records]
    assert unattested(results, found, probes) == []


def test_attest_refuses_a_dirty_checkout(sub: Path, data_root: Path) -> None:
    with pytest.raises(ConfigError, match="attest runs from a clean checkout"):
        attest(sub, data_root, n=2, checkout=("c" * 40, True))


def test_run_into_submissions_from_a_dirty_tree_stops(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "submissions" / "m").mkdir(parents=True)
    (repo / "code.py").write_text("x = 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    target = repo / "submissions" / "m"
    assert dirty_refusal(target, False, where=repo) is None  # clean
    (repo / "code.py").write_text("x = 2\n")
    line = dirty_refusal(target, False, where=repo)
    assert line is not None and "\n" not in line and line.endswith("pass --allow-dirty")
    assert dirty_refusal(target, True, where=repo) is None
    assert dirty_refusal(tmp_path / "elsewhere", False, where=repo) is None

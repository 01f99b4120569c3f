"""Shards without a shared disk: `run SUB --shard K/N --out DIR` as independent jobs, then
`merge DIR... --into SUB`, through the real CLI on the in-package scripted backend (the real-model
case is in tests/backends/test_openai_compat.py). The merged entry must equal one process running
the same command, and every way the shards can fail to belong together is refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from leaderboard.run.merge import merge_shard_folders
from leaderboard.run.shard_job import SHARD_KEY
from leaderboard.run.store import RunStore
from tests.helpers import cli, error_line, read_predictions, read_results, write_scripted_submission

ARGS = ["--limit", "3", "--languages", "zh,en", "--abilities", "counterfactual,rejection"]
N_KEYS = 12  # 3 records x 4 splits


def make_sub(folder: Path, **fields: object) -> Path:
    return write_scripted_submission(
        folder, display_name="Shards", run={"allow_partial_data": True}, **fields
    )


def run(path: Path, root: Path, *extra: object, args: list[str] = ARGS):
    return cli("run", path, "--data-dir", root, *args, "--no-progress", *extra)


def shards(path: Path, root: Path, tmp: Path, n: int, args: list[str] = ARGS) -> list[Path]:
    """Every shard K/N run as its own job into a folder of its own; returns the folders."""
    folders = []
    for k in range(n):
        out = tmp / f"shard{k}"
        done = run(path, root, "--shard", f"{k}/{n}", "--out", out, args=args)
        assert done.code == 0, done.err
        folders.append(out)
    return folders


def by_key(folder: Path) -> dict[str, str]:
    return {r.key: r.prediction for r in read_predictions(folder)}


def assert_same_entry(merged: Path, single: Path) -> None:
    """What the board reads of an entry: the answers and every figure computed from them."""
    a, b = read_results(merged), read_results(single)
    assert by_key(merged) == by_key(single)
    assert a.cells == b.cells and a.scores == b.scores and a.bootstrap == b.bootstrap
    assert a.outcomes == b.outcomes and a.truthfulness == b.truthfulness
    assert a.partial_reasons == b.partial_reasons
    assert a.provenance.fingerprint == b.provenance.fingerprint
    assert a.provenance.data_blob_ids == b.provenance.data_blob_ids


def single_run(tmp: Path, root: Path, args: list[str] = ARGS) -> Path:
    path = make_sub(tmp / "single")
    done = run(path, root, args=args)
    assert done.code == 0, done.err
    return path.parent


def test_three_shards_merge_into_what_one_process_writes(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "entry")
    folders = shards(path, rgb_root, tmp_path, 3)
    held = [set(by_key(f)) for f in folders]
    assert all(held) and sum(map(len, held)) == N_KEYS  # disjoint, every key, none empty
    record = read_results(folders[1]).provenance.extra[SHARD_KEY]
    assert (record["shard"], record["shards"]) == (1, 3)
    assert not (path.parent / "predictions.jsonl").exists()  # a shard writes only into DIR
    done = cli("merge", *folders, "--into", path, "--data-dir", rgb_root)
    assert done.code == 0, done.err
    assert f"merged {N_KEYS} predictions" in done.out and f"{N_KEYS} new" in done.out
    assert_same_entry(path.parent, single_run(tmp_path, rgb_root))
    res = read_results(path.parent)
    assert res.provenance.extra[SHARD_KEY]["merged_shards"] == [0, 1, 2]
    history = res.provenance.extra["invocations"]
    assert sum(h["answers"] for h in history) == N_KEYS  # each shard's machine, once
    assert res.provenance.extra["backend"]["backend"] == "scripted"
    verified = cli("verify", path.parent, "--data-dir", rgb_root)
    assert verified.code == 0, verified.out + verified.err
    # merging again changes nothing
    again = cli("merge", *folders, "--into", path, "--data-dir", rgb_root)
    assert again.code == 0 and "0 new" in again.out
    assert len(read_predictions(path.parent)) == N_KEYS
    assert len(read_results(path.parent).provenance.extra["invocations"]) == len(history)


def test_shards_take_only_what_the_entry_is_missing(tmp_path: Path, rgb_root: Path) -> None:
    """The entry already holds a narrower run (--limit 1): the shards split only the rest, and
    the merged entry equals one process running --limit 3 over the same start."""
    path = make_sub(tmp_path / "entry")
    narrow = ["--limit", "1", *ARGS[2:]]
    assert run(path, rgb_root, args=narrow).code == 0
    before = by_key(path.parent)
    folders = shards(path, rgb_root, tmp_path, 2)
    generated = [set(by_key(f)) for f in folders]
    assert not (generated[0] | generated[1]) & set(before)
    assert len(generated[0] | generated[1]) == N_KEYS - len(before)
    assert cli("merge", *folders, "--into", path, "--data-dir", rgb_root).code == 0
    single = make_sub(tmp_path / "single")
    assert run(single, rgb_root, args=narrow).code == 0 and run(single, rgb_root).code == 0
    assert_same_entry(path.parent, single.parent)


def test_a_shard_resumes_and_a_late_shard_is_merged_later(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "entry")
    folders = shards(path, rgb_root, tmp_path, 2)
    again = run(path, rgb_root, "--shard", "0/2", "--out", folders[0])  # the same command
    assert again.code == 0, again.err
    extra = read_results(folders[0]).provenance.extra
    assert extra["this_invocation"]["generated_prompts"] == 0
    first = cli("merge", folders[0], "--into", path, "--data-dir", rgb_root)
    assert first.code == 0, first.err
    assert "shard(s) 1 of 2 not merged yet" in first.out and "partial results" in first.out
    late = cli("merge", folders[1], "--into", path, "--data-dir", rgb_root)
    assert late.code == 0, late.err
    assert_same_entry(path.parent, single_run(tmp_path, rgb_root))


def _rewrite(folder: Path, change) -> None:
    """Change the records of a shard folder's predictions file in place (another machine's
    answers, simulated)."""
    plain = folder / "predictions.jsonl"
    rows = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()]
    plain.write_text("".join(json.dumps(change(r)) + "\n" for r in rows), encoding="utf-8")


def _edit_results(folder: Path, change) -> None:
    p = folder / "results.json"
    data = json.loads(p.read_text(encoding="utf-8"))
    change(data["provenance"])
    p.write_text(json.dumps(data), encoding="utf-8")


def test_overlaps_that_disagree_are_refused_before_anything_is_written(
    tmp_path: Path, rgb_root: Path
) -> None:
    path = make_sub(tmp_path / "entry")
    (one,) = shards(path, rgb_root, tmp_path, 1)
    copy = tmp_path / "copy"
    shutil.copytree(one, copy)
    agree = cli("merge", one, copy, "--into", path, "--data-dir", rgb_root)
    assert agree.code == 0 and "12 new, 12 already there" in agree.out  # the same: kept once
    entry2 = make_sub(tmp_path / "entry2")
    _rewrite(copy, lambda r: {**r, "prediction": r["prediction"] + " (another build)"})
    line = error_line(cli("merge", one, copy, "--into", entry2, "--data-dir", rgb_root))
    assert "is also in" in line and "(another build)" in line and "nothing was merged" in line
    assert not (entry2.parent / "predictions.jsonl").exists()
    assert not (entry2.parent / "results.json").exists()


def test_shards_that_do_not_belong_together_are_refused(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "entry")
    folders = shards(path, rgb_root, tmp_path, 2)

    def refused(change) -> str:
        """Merge shard 0 with a copy of shard 1 changed by `change`: the one error line."""
        changed = tmp_path / f"changed-{change.__name__}"
        shutil.copytree(folders[1], changed)
        change(changed)
        return error_line(cli("merge", folders[0], changed, "--into", path, "--data-dir", rgb_root))

    def version(d: Path) -> None:
        _edit_results(d, lambda p: p.update(scoring_version="0000000000000000"))

    def blob(d: Path) -> None:
        _edit_results(d, lambda p: p["data_blob_ids"].update({"zh_fact.json": "f" * 40}))

    assert "scoring version" in refused(version)
    assert "zh_fact.json has blob id ffff" in refused(blob)
    # the model.yaml changed a setting that changes answers after the shards ran
    edited = make_sub(tmp_path / "edited", generation={"max_new_tokens": 7})
    line = error_line(cli("merge", *folders, "--into", edited, "--data-dir", rgb_root))
    assert "fingerprint" in line and "model.yaml gives" in line
    # a shard run with another selection, or another number of shards
    other = tmp_path / "other"
    assert run(path, rgb_root, "--shard", "1/3", "--out", other).code == 0
    assert "number of shards" in error_line(
        cli("merge", folders[0], other, "--into", path, "--data-dir", rgb_root)
    )
    narrow = tmp_path / "narrow"
    done = run(path, rgb_root, "--shard", "1/2", "--out", narrow, args=["--limit", "2", *ARGS[2:]])
    assert done.code == 0, done.err
    assert "selection" in error_line(
        cli("merge", folders[0], narrow, "--into", path, "--data-dir", rgb_root)
    )
    # not a shard folder at all
    assert "not a shard" in error_line(
        cli("merge", single_run(tmp_path, rgb_root), "--into", path, "--data-dir", rgb_root)
    )
    assert "did not finish" in error_line(
        cli("merge", tmp_path / "nowhere", "--into", path, "--data-dir", rgb_root)
    )
    assert not (path.parent / "predictions.jsonl").exists()


def test_shard_options_are_checked(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "entry")
    for bad in ("3/3", "1", "a/b", "-1/2", "0/0"):
        line = error_line(run(path, rgb_root, "--shard", bad, "--out", tmp_path / "s"))
        assert "give K/N with 0 <= K < N" in line
    assert "needs --out DIR" in error_line(run(path, rgb_root, "--shard", "0/2"))
    same = run(path, rgb_root, "--shard", "0/2", "--out", path.parent)
    assert "needs --out DIR" in error_line(same)


def test_merge_in_code_returns_the_entry_results(tmp_path: Path, rgb_root: Path) -> None:
    from leaderboard.core.submission import load_submission

    path = make_sub(tmp_path / "entry")
    folders = shards(path, rgb_root, tmp_path, 2)
    outcome = merge_shard_folders(load_submission(path), folders, root=rgb_root, progress=False)
    assert outcome.appended == N_KEYS and outcome.results == RunStore(path.parent).read_results()

"""Predictions (append-only JSONL, compaction into .gz) and results.json: reading,
writing, damage."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from leaderboard.core.errors import ResultsError
from leaderboard.core.files import PredictionWriter, read_results, write_results
from leaderboard.core.schema import Bootstrap, PredictionRecord, Provenance, Results
from leaderboard.run.store import RunStore


def rec(
    i: int, fp: str = "fp1", error: str | None = None, text: str | None = None
) -> PredictionRecord:
    return PredictionRecord(
        key=f"zh/noise/0.2/{i}",
        fingerprint=fp,
        lang="zh",
        ability="noise",
        noise_rate=0.2,
        id=i,
        prompt_sha256="a" * 64,
        passage_sha256=["b" * 64],
        prediction=text or f"答案 {i}",
        error=error,
        prompt_tokens=10,
        completion_tokens=3,
        latency_s=0.1,
        batch_size=2,
        created="2025-01-01T00:00:00Z",
    )


def write(folder: Path, records: list[PredictionRecord]) -> None:
    with PredictionWriter(folder / "predictions.jsonl") as w:
        w.append(records)


def test_roundtrip_keeps_order_and_unicode(tmp_path: Path) -> None:
    write(tmp_path, [rec(0), rec(1)])
    write(tmp_path, [rec(2)])  # a second writer appends, it never truncates
    assert RunStore(tmp_path).read().records == [rec(0), rec(1), rec(2)]
    assert "答案" in (tmp_path / "predictions.jsonl").read_text(encoding="utf-8")


def test_truncated_last_line_is_dropped_and_reported(tmp_path: Path) -> None:
    write(tmp_path, [rec(0), rec(1)])
    _, plain = (RunStore(tmp_path).gz_path, RunStore(tmp_path).plain_path)
    with open(plain, "ab") as fh:  # what kill -9 during a write leaves
        fh.write(rec(2).model_dump_json().encode()[:40])
    read = RunStore(tmp_path).read()
    assert [r.id for r in read.records] == [0, 1]
    assert read.truncated_tail == [f"{plain}:3"]
    # the next writer cuts the partial line and appends cleanly after the complete ones
    write(tmp_path, [rec(2)])
    assert [r.id for r in RunStore(tmp_path).read().records] == [0, 1, 2]
    assert RunStore(tmp_path).read().truncated_tail == []


def test_corrupt_middle_line_names_file_and_line(tmp_path: Path) -> None:
    write(tmp_path, [rec(0)])
    _, plain = (RunStore(tmp_path).gz_path, RunStore(tmp_path).plain_path)
    with open(plain, "ab") as fh:
        fh.write(b"{not json\n")
    write(tmp_path, [rec(1)])
    with pytest.raises(ResultsError, match=r"predictions\.jsonl:2: not valid JSON"):
        RunStore(tmp_path).read()


def test_invalid_record_names_the_field(tmp_path: Path) -> None:
    bad = rec(0).model_dump()
    bad["lang"] = "fr"
    bad["surprise"] = 1
    (tmp_path / "predictions.jsonl").write_text(json.dumps(bad) + "\n")
    with pytest.raises(ResultsError) as err:
        RunStore(tmp_path).read()
    msg = str(err.value)
    assert "predictions.jsonl:1" in msg and "field 'lang'" in msg and "field 'surprise'" in msg


def test_compaction_is_lossless_and_stays_appendable(tmp_path: Path) -> None:
    write(tmp_path, [rec(i) for i in range(5)])
    assert RunStore(tmp_path).compact(threshold_bytes=1)
    gz, plain = (RunStore(tmp_path).gz_path, RunStore(tmp_path).plain_path)
    assert gz.exists() and not plain.exists()
    write(tmp_path, [rec(5), rec(6)])
    assert RunStore(tmp_path).compact(threshold_bytes=1)  # a second gzip member is appended
    write(tmp_path, [rec(7)])
    assert [r.id for r in RunStore(tmp_path).read().records] == list(range(8))
    with gzip.open(gz, "rt", encoding="utf-8") as fh:
        assert len(fh.read().splitlines()) == 7
    assert not RunStore(tmp_path).compact()  # below the default threshold: nothing to do


def test_crash_between_rename_and_unlink_only_duplicates(tmp_path: Path) -> None:
    write(tmp_path, [rec(0), rec(1)])
    gz, plain = (RunStore(tmp_path).gz_path, RunStore(tmp_path).plain_path)
    with gzip.open(gz, "wb") as fh:  # the .gz already holds the lines, the .jsonl was not removed
        fh.write(plain.read_bytes())
    read = RunStore(tmp_path).read()
    assert [r.id for r in read.records] == [0, 1] and read.duplicates == 2


def test_other_fingerprints_are_kept_for_the_runner_to_refuse(tmp_path: Path) -> None:
    write(tmp_path, [rec(0, "fp1"), rec(0, "fp2")])
    assert {r.fingerprint for r in RunStore(tmp_path).read().records} == {"fp1", "fp2"}


def test_damaged_gzip_is_an_error(tmp_path: Path) -> None:
    gz, _ = (RunStore(tmp_path).gz_path, RunStore(tmp_path).plain_path)
    gz.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(ResultsError, match="cannot decompress"):
        RunStore(tmp_path).read()


def test_move_aside_never_overwrites(tmp_path: Path) -> None:
    a = tmp_path / "predictions.jsonl"
    a.write_text("1")
    first = RunStore(tmp_path).move_aside("T")
    a.write_text("2")
    second = RunStore(tmp_path).move_aside("T")
    assert [p.read_text() for p in first + second] == ["1", "2"] and not a.exists()


def _results() -> Results:
    prov = Provenance(
        package_version="0.1.0",
        git_commit=None,
        command="test",
        data_blob_ids={"zh_refine.json": "x"},
        model="m",
        model_revision=None,
        backend="scripted",
        dtype=None,
        quantization={"mode": "none"},
        chat_template_sha256=None,
        chat_template_source=None,
        generation={"max_new_tokens": 8},
        seeds={"bootstrap": 2333},
        batch_size=1,
        fingerprint="fp1",
        versions={"python": "3"},
        device="cpu",
        started="s",
        finished="f",
        wall_time_s=1.0,
        generation_time_s=0.5,
        prompt_tokens=1,
        completion_tokens=1,
        tokens_per_s=None,
    )
    return Results(
        submission_id="x",
        display_name="X",
        partial=True,
        partial_reasons=["--limit 1"],
        provenance=prov,
        bootstrap=Bootstrap(method="m", resamples=10, seed=1),
        cells=[],
        scores=[],
    )


def test_results_roundtrip_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    write_results(path, _results())
    assert read_results(path) == _results()
    obj = json.loads(path.read_text())
    obj["provenance"]["wall_time_s"] = "slow"
    del obj["display_name"]
    path.write_text(json.dumps(obj))
    with pytest.raises(ResultsError) as err:
        read_results(path)
    assert str(path) in str(err.value)
    assert "provenance.wall_time_s" in str(err.value) and "display_name" in str(err.value)
    path.write_text('{\n"a": ')
    with pytest.raises(ResultsError, match=r"results\.json:2: not valid JSON"):
        read_results(path)
    with pytest.raises(ResultsError, match="no results file"):
        read_results(tmp_path / "none.json")

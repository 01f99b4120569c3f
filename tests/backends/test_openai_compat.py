"""OpenAI-compatible backend against a real HTTP server on 127.0.0.1 started by the test.

The server's behaviour is chosen per request by the user message ("ok:3", "429:name", "500",
"slow:2", "401"), so one server covers retries, timeouts, ordering and key handling.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from leaderboard.backends.http import parse_retry_after, public_url
from leaderboard.backends.messages import apply_system_policy
from leaderboard.backends.openai_compat import OpenAIBackend
from leaderboard.backends.registry import load_backend
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig

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


def test_timeout_is_retried_then_reported(server: Server) -> None:
    b = backend(server, timeout_s=0.2, max_retries=1)
    (c,) = b.generate([req("slow:0.6")], GenerationConfig())
    assert c.error is not None and "timeout after 0.2s" in c.error
    assert server.hits["slow:0.6"] == 2


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

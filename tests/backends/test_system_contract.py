"""The system endpoint's contract against a real misbehaving server on 127.0.0.1: every way a
response can break it (bad JSON, missing fields, ids outside the corpus or of the other language,
oversize answers, timeouts, 5xx) becomes an error for that question, transient failures are
retried within `max_retries`, and a run over such a system finishes with the errors recorded."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
import yaml

from leaderboard.backends.system import SystemBackend
from leaderboard.backends.system_contract import API_HEADER, check_answer, limits, openapi_text
from leaderboard.core.submission import load_submission
from leaderboard.core.types import ChatRequest, GenerationConfig
from leaderboard.protocol.corpus import load_corpus
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import read_predictions

GEN = GenerationConfig(max_new_tokens=8)
GOOD_ID = "zh-0123456789abcdef"


class Misbehaving:
    """Answers by the question's text: each keyword triggers one way of breaking the contract."""

    def __init__(self, good_ids: list[str]) -> None:
        self.good_ids = good_ids
        self.calls: dict[str, int] = {}
        self.headers: list[str | None] = []

    def reply(self, question: str) -> tuple[int, bytes]:
        n = self.calls[question] = self.calls.get(question, 0) + 1
        ok = {"answer": "答案", "passage_ids": self.good_ids}
        cases: dict[str, tuple[int, object]] = {
            "badjson": (200, b"{not json"),
            "notobject": (200, [1, 2]),
            "missing": (200, {"answer": "x"}),
            "notstring": (200, {"answer": 3, "passage_ids": []}),
            "unknown": (200, {"answer": "x", "passage_ids": ["zh-ffffffffffffffff"]}),
            "otherlang": (200, {"answer": "x", "passage_ids": ["en-0123456789abcdef"]}),
            "malformed": (200, {"answer": "x", "passage_ids": ["passage 1"]}),
            "oversize": (200, {"answer": "x" * (limits().max_answer_chars + 1), "passage_ids": []}),
            "manyids": (200, {"answer": "x", "passage_ids": self.good_ids * 101}),
            "down": (500, {"error": "boom"}),
            "notimpl": (501, {"error": "no"}),
            "flaky": (503, {"error": "busy"}) if n == 1 else (200, ok),
            "bad request": (400, {"error": "no"}),
        }
        if "slow" in question:
            time.sleep(1.0)
        status, body = next((v for k, v in cases.items() if k in question), (200, ok))
        return status, body if isinstance(body, bytes) else json.dumps(body).encode()


@pytest.fixture()
def server():
    system = Misbehaving([GOOD_ID])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            system.headers.append(self.headers.get(API_HEADER))
            status, data = system.reply(body["question"])
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield system, f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()


def _ask(url: str, questions: list[str], **kw: object):
    backend = SystemBackend(url, **kw)  # type: ignore[arg-type]
    backend.known_ids = frozenset({GOOD_ID})
    reqs = [ChatRequest(messages=(), question=q, lang="zh") for q in questions]
    return backend, backend.generate(reqs, GEN)


def test_every_contract_breach_is_an_error_for_that_question(server) -> None:
    system, url = server
    expect = {
        "badjson": "not JSON",
        "notobject": "not a JSON object",
        "missing": "'passage_ids': missing",
        "notstring": "'answer': not a string",
        "unknown": "not in the exported corpus",
        "otherlang": "is not a zh corpus id",
        "malformed": "is not a zh corpus id",
        "oversize": f"(max {limits().max_answer_chars})",
        "manyids": f"(max {limits().max_ids})",
        "down": "HTTP 500",
        "notimpl": "HTTP 501",
        "bad request": "HTTP 400",
        "slow": "Timeout",
    }
    backend, outs = _ask(url, [*expect, "fine"], max_retries=1, timeout_s=0.3, concurrency=4)
    for (question, needle), out in zip(expect.items(), outs, strict=False):
        assert out.error is not None and needle in out.error, (question, out.error)
        assert out.text == "" and out.extra.get("passage_ids") is None
    assert outs[-1].error is None and outs[-1].extra["passage_ids"] == [GOOD_ID]
    # 500 and timeouts are retried (1 retry); 501, a 400 or a contract breach is not
    assert system.calls["down"] == 2 and system.calls["notimpl"] == 1
    assert system.calls["bad request"] == 1 and system.calls["badjson"] == 1
    assert set(system.headers) == {"1"}  # the contract version travels with every request
    assert backend.describe().as_dict()["contract"] == "system-api v1"


def test_a_transient_failure_is_retried_within_the_limit(server) -> None:
    system, url = server
    _, [ok] = _ask(url, ["flaky"], max_retries=1)
    assert ok.error is None and system.calls["flaky"] == 2
    system.calls.clear()
    _, [failed] = _ask(url, ["flaky"], max_retries=0)
    assert failed.error and "HTTP 503" in failed.error and system.calls["flaky"] == 1


def test_the_checker_reads_its_limits_from_the_shipped_document() -> None:
    doc = json.loads(openapi_text())
    assert doc["openapi"].startswith("3.") and doc["info"]["version"] == "1.0.0"
    answer = doc["components"]["schemas"]["Answer"]
    assert limits().max_answer_chars == answer["properties"]["answer"]["maxLength"]
    assert limits().max_ids == answer["properties"]["passage_ids"]["maxItems"]
    assert check_answer({"answer": " a ", "passage_ids": []}, "en") == ("a", [])
    assert check_answer({"answer": "a", "passage_ids": ["en-0123456789abcdef"]}, "en", set()) == (
        "response field 'passage_ids': 'en-0123456789abcdef' is not in the exported corpus"
    )
    question = doc["components"]["schemas"]["Question"]
    assert set(question["required"]) == {"question", "lang"}  # nothing else is ever sent


def test_a_run_over_a_failing_system_records_errors_and_finishes(
    rgb_root: Path, tmp_path: Path
) -> None:
    """The runner gives the backend the exported corpus: an id outside it is an error; a system
    down for some questions leaves errors in the predictions, never a crashed run."""
    _, records_zh = load_corpus(rgb_root, "zh", limit=3)
    ids = [p.id for p in records_zh[:5]]

    class ByPosition(Misbehaving):
        def reply(self, question: str) -> tuple[int, bytes]:
            n = len(self.calls)
            self.calls[question] = 1
            if n % 3 == 1:  # an id nobody exported
                return 200, json.dumps({"answer": "x", "passage_ids": [GOOD_ID]}).encode()
            if n % 3 == 2:
                return 500, b"{}"
            return 200, json.dumps({"answer": "x", "passage_ids": ids}).encode()

    system = ByPosition(ids)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            status, data = system.reply(body["question"])
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        folder = tmp_path / "failing"
        folder.mkdir()
        spec = {
            "id": "failing",
            "display_name": "Failing system",
            "model": "failing",
            "backend": "system",
            "system": {"url": f"http://127.0.0.1:{httpd.server_port}/", "max_retries": 0},
            "run": {"abilities": ["chain"], "allow_partial_data": True},
        }
        (folder / "model.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        res = run_submission(
            load_submission(folder / "model.yaml"),
            RunOptions(
                root=rgb_root, selection=Selection(limit=3, languages=("zh",)), progress=False
            ),
        )
    finally:
        httpd.shutdown()
    recs = read_predictions(folder)
    errors = [r.error for r in recs if r.error]
    assert len(recs) == 3 and len(errors) == 2
    assert any("not in the exported corpus" in e for e in errors)
    assert any("HTTP 500" in e for e in errors)
    assert sum(c.n_errors for c in res.cells if c.mode == "strict") == 2


def test_the_reference_system_serves_the_document_it_is_held_to(tmp_path: Path) -> None:
    from examples.systems.reference_system import RagSystem, refuse_generator, serve

    system = RagSystem({"zh": [(GOOD_ID, "北京是中国的首都。")]}, "none", refuse_generator())
    httpd = serve(system)
    try:
        base = f"http://127.0.0.1:{httpd.server_port}"
        assert httpd and httpx.get(f"{base}/openapi.json").text == openapi_text()
        assert httpx.get(f"{base}/health").json() == {"status": "ok"}
        assert httpx.post(f"{base}/", json={"question": "q", "lang": "xx"}).status_code == 400
        got = httpx.post(f"{base}/", json={"question": "首都?", "lang": "zh"}).json()
        assert check_answer(got, "zh", {GOOD_ID}) == (got["answer"], [])
        assert "信息不足" in got["answer"]
    finally:
        httpd.shutdown()

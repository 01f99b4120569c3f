"""A real OpenAI-compatible inference server for the tests (and benchmarks/bench_server.py):
llama.cpp's own, as llama-cpp-python's `[server]` extra ships it (`python -m llama_cpp.server`),
serving SmolLM2's GGUF on 127.0.0.1, and a tiny real HTTP proxy that can stand in front of it to
answer 500s or be slow.

The server is the engine users run; only the faults are injected (a proxy, or killing the server
process), never the answers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

ALIAS = "smollm2"  # the model name the server answers to (--model_alias)
# llama-cpp-python's server penalizes repeats by 1.1 unless a request says otherwise; the
# harness decodes greedily with no penalty (as its in-process engines do)
GREEDY_EXTRA = {"repeat_penalty": 1.0}


def server_available() -> str | None:
    """Why the server cannot run here (None: it can)."""
    for module in ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context"):
        if importlib.util.find_spec(module) is None:
            return f"{module} not installed: pip install 'llama-cpp-python[server]' (see .ci/run)"
    try:
        import pydantic_settings  # noqa: F401
    except ImportError:
        return "pydantic-settings not installed (llama-cpp-python[server])"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """`python -m llama_cpp.server` on 127.0.0.1:<port>, started, killed and restarted by a test."""

    def __init__(
        self,
        gguf: Path,
        log: Path,
        *,
        port: int | None = None,
        threads: int = 2,
        flash_attn: bool = False,
        gpu_layers: int = 0,
    ) -> None:
        self.gguf, self.log, self.threads, self.flash_attn = gguf, log, threads, flash_attn
        self.gpu_layers = gpu_layers
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout_s: float = 300.0) -> LlamaServer:
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.gguf),
            "--model_alias",
            ALIAS,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            "4096",
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
            "--flash_attn",
            str(self.flash_attn),
            "--n_gpu_layers",
            str(self.gpu_layers),
        ]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=log, env=os.environ.copy())
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/models", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not start in {timeout_s:.0f} s")

    def kill(self) -> None:
        """SIGKILL: the server dies as a crashed or preempted one does, mid-request."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # uvicorn waits for a request in flight
            self.kill()


class FaultProxy(ThreadingHTTPServer):
    """Forwards POST /v1/chat/completions to the real server, answering HTTP 500 itself to every
    `fail_every`-th request, or holding the first `slow_first` answers `delay_s` seconds."""

    daemon_threads = True

    def __init__(
        self, upstream: str, fail_every: int = 0, slow_first: int = 0, delay_s: float = 0.0
    ) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.upstream = upstream.rstrip("/")
        self.fail_every, self.slow_first, self.delay_s = fail_every, slow_first, delay_s
        self.lock = threading.Lock()
        self.seen = 0
        self.failed = 0
        self.forwarded = 0
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def close(self) -> None:
        self.shutdown()
        self.server_close()


class _ProxyHandler(BaseHTTPRequestHandler):
    server: FaultProxy

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        srv = self.server
        with srv.lock:
            srv.seen += 1
            n = srv.seen
        if srv.fail_every and n % srv.fail_every == 0:
            with srv.lock:
                srv.failed += 1
            return self._reply(500, b'{"error": "injected by the test proxy"}')
        resp = httpx.post(
            srv.upstream + self.path.removeprefix("/v1"),
            content=body,
            headers={"Content-Type": "application/json"},
            timeout=None,
        )
        with srv.lock:
            srv.forwarded += 1
        if n <= srv.slow_first:
            time.sleep(srv.delay_s)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self._reply(resp.status_code, resp.content)

    def _reply(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

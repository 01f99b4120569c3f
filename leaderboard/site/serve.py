"""Serve a built site on 127.0.0.1 (local viewing and the browser tests)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog is 5. A browser opens several connections per page
    # at once; when the backlog is full Linux drops the SYN and the client retries after 1, 2, 4 ...
    # seconds, so one page "load" could wait over a minute (a 90 s timeout in the browser tests).
    request_queue_size = 128


def make_server(directory: Path, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    return _Server((host, port), handler)


@contextmanager
def serve_in_thread(directory: Path, port: int = 0) -> Iterator[str]:
    """Serve `directory` from a daemon thread for the `with` block, yielding its base URL; the
    server is shut down and its socket closed on exit, so no caller repeats that."""
    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, real_port = server.server_address[:2]
    try:
        yield f"http://{host}:{real_port}/"
    finally:
        server.shutdown()
        server.server_close()

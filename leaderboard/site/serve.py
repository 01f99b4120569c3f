"""Serve a built site on 127.0.0.1 (local viewing and the browser tests)."""

from __future__ import annotations

import functools
import threading
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


def serve_in_thread(directory: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; returns it and its base URL (shut it down when done)."""
    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, real_port = server.server_address[:2]
    return server, f"http://{host}:{real_port}/"

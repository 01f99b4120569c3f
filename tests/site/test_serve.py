"""The local site server (leaderboard.site.serve) with real sockets."""

from __future__ import annotations

import socket
from pathlib import Path

from leaderboard.site.serve import make_server


def test_many_connections_at_once_are_queued_not_dropped(tmp_path: Path) -> None:
    """A browser opens several connections per page at once. With socketserver's backlog of 5 the
    kernel dropped the extra SYNs and each waited for a retransmission (1, 2, 4 ... s): a page
    load in the browser tests once took over 90 s. Here the server accepts nothing while 40
    clients connect; every connection must still be established at once."""
    server = make_server(tmp_path)
    host, port = server.server_address[:2]
    clients: list[socket.socket] = []
    try:
        for _ in range(40):
            clients.append(socket.create_connection((host, port), timeout=0.5))
    finally:
        for c in clients:
            c.close()
        server.server_close()
    assert len(clients) == 40

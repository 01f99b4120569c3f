"""The one HTTP transport of the backends: a JSON POST retried the same way for every server.

The OpenAI-compatible backend and the `system` backend both talk to servers that fail
transiently (429, 5xx, timeouts, dropped connections); one retry loop keeps them from drifting
apart. As in httpx's transports, retrying is a property of the transport, not of the caller:
exponential backoff with jitter (so clients that failed together do not retry together),
Retry-After honoured (capped), and a request counter that is safe to bump from many threads.
What an error says stays the caller's choice (`describe_error`), so each backend keeps the
wording its users and tests know.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 120.0


def transport_error(exc: httpx.TransportError) -> str:
    """The default wording of a failed attempt that got no response (timeouts included)."""
    return f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class Reply:
    """How a POST ended: the 200 response, or the last error after `attempts` attempts."""

    response: httpx.Response | None  # set only for HTTP 200
    error: str  # the last failure ("" when the POST succeeded)
    attempts: int
    # the last attempt got no HTTP response at all (refused, dropped, timed out): the server is
    # not answering, which says nothing about this request (an HTTP error status does)
    no_response: bool = False


class RequestCounter:
    """HTTP attempts and retries, counted under a lock (requests run on a thread pool), with what
    each retry answered (`HTTP 500`, `ReadTimeout`, `ConnectError`...), for the run's note."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = 0  # HTTP attempts, retries included
        self.retries = 0
        self.retried_after: dict[str, int] = {}

    def count(self, *, requests: int = 0, retries: int = 0) -> None:
        with self._lock:
            self.requests += requests
            self.retries += retries

    def failed(self, reason: str) -> None:
        """An attempt that will be retried failed with `reason`."""
        with self._lock:
            self.retried_after[reason] = self.retried_after.get(reason, 0) + 1

    def reasons(self) -> dict[str, int]:
        with self._lock:
            return dict(sorted(self.retried_after.items()))


class RetryingTransport:
    """POST JSON with retries of transient failures; shared by the threads of one backend."""

    def __init__(
        self,
        *,
        max_retries: int,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        describe_error: Callable[[httpx.TransportError], str] = transport_error,
    ) -> None:
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.describe_error = describe_error
        self.counter = RequestCounter()
        self._rng_lock = threading.Lock()
        self._rng = random.Random()

    def post(
        self,
        client: httpx.Client,
        url: str,
        body: Any,
        give_up: Callable[[], bool] | None = None,
    ) -> Reply:
        """POST `body` as JSON until a 200, a non-retryable status, or the retries run out
        (or `give_up()` says, between attempts, that another request found the server gone)."""
        error = "no attempt made"
        attempt = 0
        no_response = False
        for attempt in range(self.max_retries + 1):
            self.counter.count(requests=1, retries=1 if attempt else 0)
            retry_after: float | None = None
            try:
                resp = client.post(url, json=body)
            except httpx.TransportError as exc:  # timeouts included
                error, no_response, reason = self.describe_error(exc), True, type(exc).__name__
            else:
                if resp.status_code == 200:
                    return Reply(resp, "", attempt + 1)
                error, no_response = f"HTTP {resp.status_code}: {resp.text[:300]}", False
                reason = f"HTTP {resp.status_code}"
                if resp.status_code not in RETRY_STATUS:
                    break
                retry_after = parse_retry_after(resp.headers.get("retry-after"))
            if attempt < self.max_retries and not (give_up is not None and give_up()):
                self.counter.failed(reason)
                time.sleep(self.delay(attempt, retry_after))
            else:
                break
        return Reply(None, error, attempt + 1, no_response)

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before the next attempt: the server's Retry-After (capped), else
        exponential backoff with jitter (between half and all of the backoff)."""
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER_S)
        base = min(self.backoff_max_s, self.backoff_base_s * 2**attempt)
        with self._rng_lock:  # random.Random is not meant to be shared by threads unlocked
            return base * (0.5 + 0.5 * self._rng.random())


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def public_url(url: str) -> str:
    """The URL without any user:password part, safe to record."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))

"""A whole RAG system as a backend: POST the bare question, get an answer and passage ids back.

The system gets only {"question": ..., "lang": ...} (never RGB's passages, never the prompt) and
answers {"answer": "...", "passage_ids": ["zh-...", ...]}, the ids coming from `rgb-leaderboard
corpus export` (the contract: resources/system-api.v1.json, enforced per response by
system_contract.py). The ids travel on `Completion.extra["passage_ids"]` into the prediction record,
where the chain attribution finds them. Transient failures (timeouts, dropped connections, 429 and
5xx) are retried by the shared transport (`http.RetryingTransport`: backoff with jitter,
Retry-After honoured); anything else becomes an error Completion, never a missing item.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import httpx

from leaderboard.backends.base import TEMPLATE_ORDER, BackendDescription
from leaderboard.backends.http import RetryingTransport, public_url
from leaderboard.backends.system_contract import API_HEADER, API_VERSION, validate_response
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

# the order results.json has always recorded this backend's description in
_ORDER = (
    "backend",
    "model",
    "model_revision",
    "url",
    *TEMPLATE_ORDER,
    "batch_size",
    "concurrency",
    "device",
    "versions",
    "calls",
)


class SystemBackend:
    """One POST per question to the system's URL, order preserved."""

    def __init__(
        self, url: str, *, concurrency: int = 1, timeout_s: float = 300.0, max_retries: int = 3
    ) -> None:
        self.url = url
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.transport = RetryingTransport(max_retries=max_retries)
        self.known_ids: frozenset[str] | None = None  # the exported corpus, set by the runner

    @property
    def calls(self) -> int:
        """HTTP attempts so far, retries included (counted under the transport's lock)."""
        return self.transport.counter.requests

    def use_corpus(self, ids: frozenset[str]) -> None:
        """The exported corpus's ids: a passage id outside them is that question's error."""
        self.known_ids = ids

    @classmethod
    def from_submission(cls, sub: Submission) -> SystemBackend:
        s = sub.system
        if s is None:  # config validation guarantees it
            raise BackendUnavailable("backend 'system' needs a 'system:' block with url")
        return cls(
            s.url, concurrency=s.concurrency, timeout_s=s.timeout_s, max_retries=s.max_retries
        )

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]:
        if not requests:
            return []
        with (
            httpx.Client(timeout=self.timeout_s, headers={API_HEADER: API_VERSION}) as client,
            ThreadPoolExecutor(max_workers=min(self.concurrency, len(requests))) as pool,
        ):
            return list(pool.map(lambda r: self._one(client, r), requests))

    def _one(self, client: httpx.Client, request: ChatRequest) -> Completion:
        if request.question is None or request.lang is None:
            return Completion("", error="request without a bare question (not built by the runner)")
        body = {"question": request.question, "lang": request.lang}
        t0 = time.perf_counter()
        reply = self.transport.post(client, self.url, body)
        if reply.response is not None:
            latency = time.perf_counter() - t0
            return validate_response(reply.response, latency, request.lang, self.known_ids)
        return Completion(
            "",
            error=f"{reply.error} (system at {public_url(self.url)})",
            latency_s=time.perf_counter() - t0,
        )

    def describe(self) -> BackendDescription:
        return BackendDescription.weightless(
            "system",
            None,
            ("system-side", "system", "remote"),
            {"httpx": httpx.__version__},
            {
                "url": public_url(self.url),
                "concurrency": self.concurrency,
                "calls": self.calls,
                "contract": f"system-api v{API_VERSION}",
            },
            _ORDER,
        )

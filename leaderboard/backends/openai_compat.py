"""Chat completions against any OpenAI-compatible server (vLLM, llama.cpp, Ollama, TGI, an API).

Requests run on a bounded thread pool (servers batch concurrent requests themselves); transient
failures (429, 5xx, timeouts, dropped connections) are retried with exponential backoff and jitter,
honouring Retry-After. A request the server answers with an error status after the retries is
that request's error (recorded, `run --retry-errors` asks again); a request that gets no answer
at all (the server is down, or slower than `timeout_s` every time) stops the run with one line
instead: recording it as a wrong answer would score the server's outage, and a rerun of the same
command resumes after the last chunk written. The API key is read from the named environment
variable on every call and is never stored on the object, logged, recorded, or left in an error
message.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from leaderboard.backends.base import TEMPLATE_ORDER, BackendDescription
from leaderboard.backends.http import RetryingTransport, public_url
from leaderboard.backends.messages import SystemPolicy, apply_system_policy
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.text import TRIM_FIELD, drop_incomplete_tail
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

# the order results.json has always recorded this backend's description in
_ORDER = (
    "backend",
    "model",
    "model_revision",
    "server_models",
    "base_url",
    *TEMPLATE_ORDER,
    "system_prompt",
    "batch_size",
    "concurrency",
    "timeout_s",
    "max_retries",
    "extra_body",
    "device",
    "versions",
    "stats",
)


@dataclass(frozen=True)
class HTTPStats:
    """What the backend did so far (a snapshot; the counters move under a lock)."""

    requests: int = 0  # HTTP attempts, retries included
    retries: int = 0
    failures: int = 0  # requests that ended as error Completions
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_time_s: float = 0.0  # summed per-request wall time (overlaps under concurrency)
    retried_after: dict[str, int] = field(default_factory=dict)  # e.g. {"HTTP 500": 3}


class OpenAIBackend:
    """POST {base_url}/chat/completions, one request per conversation, order preserved."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = None,
        concurrency: int = 8,
        timeout_s: float = 120.0,
        max_retries: int = 6,
        system_prompt: SystemPolicy = "system",
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        extra_body: Mapping[str, object] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.extra_body = dict(extra_body or {})
        self.model = model
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.system_prompt = system_prompt
        self.transport = RetryingTransport(
            max_retries=max_retries,
            backoff_base_s=backoff_base_s,
            backoff_max_s=backoff_max_s,
            describe_error=self._describe_error,
        )
        self.server_models: set[str] = set()
        self._lock = threading.Lock()  # the usage counters below move from pool threads
        self._failures = 0
        self._prompt_tokens = 0
        self._completion_tokens = 0
        self._model_time_s = 0.0
        self._gone = threading.Event()  # a request got no answer: the others stop retrying
        self._gone_error = ""
        self._key()  # fail early when the variable is missing; the value is not kept

    @property
    def stats(self) -> HTTPStats:
        with self._lock:
            return HTTPStats(
                requests=self.transport.counter.requests,
                retries=self.transport.counter.retries,
                failures=self._failures,
                prompt_tokens=self._prompt_tokens,
                completion_tokens=self._completion_tokens,
                model_time_s=self._model_time_s,
                retried_after=self.transport.counter.reasons(),
            )

    def _describe_error(self, exc: httpx.TransportError) -> str:
        if isinstance(exc, httpx.TimeoutException):
            return f"timeout after {self.timeout_s}s ({type(exc).__name__})"
        return f"connection error: {type(exc).__name__}: {exc}"

    @classmethod
    def from_submission(cls, sub: Submission) -> OpenAIBackend:
        s = sub.openai
        if s is None:  # config validation guarantees it; keep the type checker honest
            raise BackendUnavailable("backend 'openai' needs an 'openai:' block with base_url")
        return cls(
            s.base_url,
            s.model or sub.model,
            api_key_env=s.api_key_env,
            concurrency=s.concurrency,
            timeout_s=s.timeout_s,
            max_retries=s.max_retries,
            system_prompt=sub.system_prompt,
            extra_body=s.extra_body,
        )

    def _key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise BackendUnavailable(
                f"the environment variable {self.api_key_env} (openai.api_key_env) is not set; "
                f"export {self.api_key_env}=... before running (never put the key in a file)"
            )
        return key

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]:
        if not requests:
            return []
        key = self._key()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        limits = httpx.Limits(max_connections=self.concurrency)
        with (
            httpx.Client(timeout=self.timeout_s, headers=headers, limits=limits) as client,
            ThreadPoolExecutor(max_workers=min(self.concurrency, len(requests))) as pool,
        ):
            results = list(pool.map(lambda r: self._one(client, r, config, key), requests))
        if self._gone.is_set():
            self._gone.clear()
            raise BackendUnavailable(
                f"{self._gone_error}; the {len(requests)} prompt(s) of this chunk were not "
                "recorded and every answer written before them is kept: start the server again "
                "(or raise openai.timeout_s for a slow one) and rerun the same command to resume"
            )
        return results

    def _body(self, request: ChatRequest, config: GenerationConfig) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": apply_system_policy(request.messages, self.system_prompt),
            "max_tokens": config.max_new_tokens,
            "temperature": config.temperature,
            "seed": config.seed,
        }
        if not config.greedy:
            body["top_p"] = config.top_p
        return {**self.extra_body, **body}

    def _one(
        self, client: httpx.Client, request: ChatRequest, config: GenerationConfig, key: str | None
    ) -> Completion:
        url = f"{self.base_url}/chat/completions"
        t0 = time.perf_counter()
        if self._gone.is_set():  # another request found the server gone: do not wait for it too
            return Completion("", error="not sent: the server gave no answer to another request")
        reply = self.transport.post(client, url, self._body(request, config), self._gone.is_set)
        if reply.response is not None:
            return self._parse(reply.response, time.perf_counter() - t0, reply.attempts, key)
        if reply.no_response and not self._gone.is_set():
            self._gone_error = redact(
                f"the server at {public_url(self.base_url)} gave no answer ({reply.error}, "
                f"after {reply.attempts} attempt(s))",
                key,
            )
            self._gone.set()
        self._count_failure()
        return Completion(
            "",
            error=redact(f"{reply.error} (after {reply.attempts} attempt(s) to {url})", key),
            latency_s=time.perf_counter() - t0,
        )

    def _parse(
        self, resp: httpx.Response, latency: float, attempts: int, key: str | None
    ) -> Completion:
        try:
            data = resp.json()
            choice = data["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            self._count_failure()
            return Completion(
                "",
                error=redact(f"malformed response ({type(exc).__name__}): {resp.text[:300]}", key),
                latency_s=latency,
            )
        usage = data.get("usage") or {}
        prompt_tokens, completion_tokens = (
            usage.get("prompt_tokens"),
            usage.get("completion_tokens"),
        )
        with self._lock:
            self._prompt_tokens += prompt_tokens or 0
            self._completion_tokens += completion_tokens or 0
            self._model_time_s += latency
            if isinstance(data.get("model"), str):
                self.server_models.add(data["model"])
        # a server that cut the answer inside a character sends its U+FFFD: drop it, say so
        text, trimmed = drop_incomplete_tail(text.strip())
        extra: dict[str, object] = {
            "attempts": attempts,
            "finish_reason": choice.get("finish_reason"),
        }
        if trimmed:
            extra[TRIM_FIELD] = True
        return Completion(
            text,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=latency,
            extra=extra,
        )

    def _count_failure(self) -> None:
        with self._lock:
            self._failures += 1

    def describe(self) -> BackendDescription:
        return BackendDescription.weightless(
            "openai",
            self.model,
            ("server-side", "server", "remote"),
            {"httpx": httpx.__version__},
            {
                "server_models": sorted(self.server_models),
                "base_url": public_url(self.base_url),
                "system_prompt": self.system_prompt,
                "concurrency": self.concurrency,
                "timeout_s": self.timeout_s,
                "max_retries": self.max_retries,
                "extra_body": dict(self.extra_body),
                "stats": asdict(self.stats),
            },
            _ORDER,
        )


def redact(text: str, key: str | None) -> str:
    """Servers sometimes echo a rejected key in their error body: never let it reach a file."""
    return text.replace(key, "***") if key else text

"""Chat completions against any OpenAI-compatible server (vLLM, llama.cpp, Ollama, TGI, an API).

Requests run on a bounded thread pool (servers batch concurrent requests themselves); transient
failures (429, 5xx, timeouts, dropped connections) are retried with exponential backoff and jitter,
honouring Retry-After. The API key is read from the named environment variable on every call and
is never stored on the object, logged, recorded, or left in an error message.
"""

from __future__ import annotations

import email.utils
import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx

from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.text import TRIM_FIELD, drop_incomplete_tail
from leaderboard.core.types import ChatMessage, ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 120.0

SystemPolicy = Literal["system", "merge", "none"]


def apply_system_policy(
    messages: Sequence[ChatMessage], policy: SystemPolicy
) -> list[dict[str, str]]:
    """Messages as chat dicts, with the system prompt kept, merged into the first user turn
    (for models whose template has no system role) or dropped."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
    if not system or policy == "none":
        return turns
    if policy == "merge" and turns:
        turns[0] = {**turns[0], "content": f"{system}\n\n{turns[0]['content']}"}
        return turns
    return [{"role": "system", "content": system}, *turns]


@dataclass
class HTTPStats:
    requests: int = 0  # HTTP attempts, retries included
    retries: int = 0
    failures: int = 0  # requests that ended as error Completions
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_time_s: float = 0.0  # summed per-request wall time (overlaps under concurrency)


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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.system_prompt = system_prompt
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.stats = HTTPStats()
        self.server_models: set[str] = set()
        self._lock = threading.Lock()
        self._rng = random.Random()
        self._key()  # fail early when the variable is missing; the value is not kept

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
        return body

    def _one(
        self, client: httpx.Client, request: ChatRequest, config: GenerationConfig, key: str | None
    ) -> Completion:
        url = f"{self.base_url}/chat/completions"
        body = self._body(request, config)
        t0 = time.perf_counter()
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            if attempt:
                self._count(retries=1)
            retry_after: float | None = None
            try:
                self._count(requests=1)
                resp = client.post(url, json=body)
            except httpx.TimeoutException as exc:
                error = f"timeout after {self.timeout_s}s ({type(exc).__name__})"
            except httpx.TransportError as exc:
                error = f"connection error: {type(exc).__name__}: {exc}"
            else:
                if resp.status_code == 200:
                    return self._parse(resp, time.perf_counter() - t0, attempt + 1, key)
                error = f"HTTP {resp.status_code}: {resp.text[:300]}"
                if resp.status_code not in RETRY_STATUS:
                    break
                retry_after = parse_retry_after(resp.headers.get("retry-after"))
            if attempt < self.max_retries:
                time.sleep(self._delay(attempt, retry_after))
        self._count(failures=1)
        return Completion(
            "",
            error=redact(f"{error} (after {attempt + 1} attempt(s) to {url})", key),
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
            self._count(failures=1)
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
            self.stats.prompt_tokens += prompt_tokens or 0
            self.stats.completion_tokens += completion_tokens or 0
            self.stats.model_time_s += latency
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

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER_S)
        base = min(self.backoff_max_s, self.backoff_base_s * 2**attempt)
        with self._lock:
            return base * (
                0.5 + 0.5 * self._rng.random()
            )  # jitter spreads out synchronized retries

    def _count(self, **kw: int) -> None:
        with self._lock:
            for name, n in kw.items():
                setattr(self.stats, name, getattr(self.stats, name) + n)

    def describe(self) -> dict[str, object]:
        return {
            "backend": "openai",
            "model": self.model,
            "model_revision": None,
            "server_models": sorted(self.server_models),
            "base_url": public_url(self.base_url),
            "dtype": None,
            "quantization": {"mode": "server-side"},
            "chat_template_sha256": None,
            "chat_template_source": "server",
            "system_prompt": self.system_prompt,
            "batch_size": None,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout_s,
            "max_retries": self.max_retries,
            "device": "remote",
            "versions": {"httpx": httpx.__version__},
            "stats": asdict(self.stats),
        }


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


def redact(text: str, key: str | None) -> str:
    """Servers sometimes echo a rejected key in their error body: never let it reach a file."""
    return text.replace(key, "***") if key else text


def public_url(url: str) -> str:
    """The URL without any user:password part, safe to record."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))

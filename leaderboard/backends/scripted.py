"""The scripted backend: deterministic answers without a model (like inspect_ai's mockllm).

It serves two purposes with one implementation:
- the trivial baselines of the board (`policy: refuse`, `copy_all`, ... from backends/policies.py),
  run by the real runner on every split like any model (submissions/baseline-*);
- dry runs and pipeline tests (`policy: cycle` over fixed responses, `echo` of the question, chosen
  requests made to fail), so the runner's error handling, resume and scoring run without a model.

It is a real Backend: it honours the contract (one Completion per request, in order, failures as
Completions with `error`), counts tokens and records every call. It never stands in for the real
backends in their own tests.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence

from leaderboard.backends.base import TEMPLATE_ORDER, BackendDescription
from leaderboard.backends.policies import POLICIES
from leaderboard.core.settings import ScriptedSettings
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

# the order results.json has always recorded this backend's description in
_ORDER = (
    "backend",
    "model",
    "model_revision",
    "policy",
    "rules",
    *TEMPLATE_ORDER,
    "batch_size",
    "device",
    "versions",
    "token_counting",
)


Responder = Callable[[ChatRequest], str]


def echo_question(request: ChatRequest) -> str:
    """The last non-empty line of the last user message (for RGB prompts: the question)."""
    users = [m.content for m in request.messages if m.role == "user"]
    lines = [ln.strip() for ln in (users[-1] if users else "").splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _words(text: str) -> int:
    """Token count proxy: whitespace words, plus one per CJK character (which has no spaces)."""
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return len(text.split()) + cjk


class ScriptedBackend:
    """Answers by a named policy: "cycle" (a list of responses, cycled over the request counter),
    "echo" (the question), one of backends.policies.POLICIES, or a callable.

    `fail_indices` are positions in the global request counter (0-based, across calls), so a test
    can say "the 3rd request this backend ever sees fails". A responder that raises also yields an
    error Completion, as a real backend would.
    """

    def __init__(
        self,
        responses: Sequence[str] | Responder = ("I can not answer the question.",),
        *,
        policy: str = "cycle",
        fail_indices: Sequence[int] = (),
        latency_s: float = 0.0,
        model: str = "scripted",
        rules: Sequence[tuple[str, str]] = (),
    ) -> None:
        if not callable(responses) and not responses:
            raise ValueError("ScriptedBackend needs at least one response")
        if policy not in ("cycle", "echo", *POLICIES):
            raise ValueError(f"unknown policy {policy!r}: use cycle, echo or {', '.join(POLICIES)}")
        self._responses = responses
        self._policy = policy
        self._fail = frozenset(fail_indices)
        self._latency = latency_s
        self._model = model
        self._rules = tuple((re.compile(pattern), response) for pattern, response in rules)
        self._lock = threading.Lock()
        self.calls: list[tuple[tuple[ChatRequest, ...], GenerationConfig]] = []
        self.requests_seen = 0

    @classmethod
    def from_submission(cls, sub: Submission) -> ScriptedBackend:
        s = sub.scripted or ScriptedSettings()
        return cls(
            s.responses,
            policy=s.policy,
            fail_indices=s.fail_indices,
            latency_s=s.latency_s,
            model=sub.model,
            rules=[(r.match, r.response) for r in s.rules],
        )

    def _answer(self, index: int, request: ChatRequest) -> str:
        if self._rules:
            users = [m.content for m in request.messages if m.role == "user"]
            last = users[-1] if users else ""
            for pattern, response in self._rules:
                if pattern.search(last):
                    return response
        if callable(self._responses):
            return self._responses(request)
        if self._policy == "echo":
            return echo_question(request)
        if self._policy in POLICIES:
            return POLICIES[self._policy](request)
        return self._responses[index % len(self._responses)]

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]:
        with self._lock:
            start = self.requests_seen
            self.requests_seen += len(requests)
            self.calls.append((tuple(requests), config))
        out: list[Completion] = []
        for offset, request in enumerate(requests):
            index = start + offset
            t0 = time.perf_counter()
            if self._latency:
                time.sleep(self._latency)
            prompt_tokens = sum(_words(m.content) for m in request.messages)
            if index in self._fail:
                out.append(
                    Completion(
                        "",
                        error=f"scripted failure for request #{index}",
                        prompt_tokens=prompt_tokens,
                    )
                )
                continue
            try:
                text = self._answer(index, request)
            except Exception as exc:  # a responder failing is a generation failure, not a crash
                out.append(
                    Completion(
                        "", error=f"{type(exc).__name__}: {exc}", prompt_tokens=prompt_tokens
                    )
                )
                continue
            words = text.split()
            if len(words) > config.max_new_tokens:  # honour the budget like a real model would
                text = " ".join(words[: config.max_new_tokens])
            out.append(
                Completion(
                    text,
                    prompt_tokens=prompt_tokens,
                    completion_tokens=_words(text),
                    latency_s=time.perf_counter() - t0,
                )
            )
        return out

    def describe(self) -> BackendDescription:
        return BackendDescription.weightless(
            "scripted",
            self._model,
            ("none", "none", "none"),
            {},
            {
                "policy": "callable" if callable(self._responses) else self._policy,
                "rules": len(self._rules),
                "token_counting": "whitespace words + CJK characters",
            },
            _ORDER,
        )

"""The one seam between the runner and a model.

A backend answers a batch of chat requests with exactly one Completion per request, in order.
Batching, padding, retries and concurrency all live inside the backend. Backends are imported lazily
so that `import leaderboard` never pulls in torch, vllm or an HTTP client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from leaderboard.types import ChatRequest, Completion, GenerationConfig


@runtime_checkable
class Backend(Protocol):
    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]: ...

    def describe(self) -> dict[str, object]:
        """Provenance of the loaded model: versions, device, resolved revision, template hash..."""
        ...

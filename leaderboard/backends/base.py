"""The one seam between the runner and a model.

A backend answers a batch of chat requests with exactly one Completion per request, in order.
Batching, padding, retries and concurrency all live inside the backend. Backends are imported lazily
so that `import leaderboard` never pulls in torch, vllm or an HTTP client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from leaderboard.backends.scripted import ScriptedBackend
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission


@runtime_checkable
class Backend(Protocol):
    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]: ...

    def describe(self) -> dict[str, object]:
        """Provenance of the loaded model: versions, device, resolved revision, template hash..."""
        ...


# Keys every backend's describe() returns (the runner copies them into results Provenance);
# backends may add more (counters, settings) which the runner can keep as extras.
DESCRIBE_KEYS: tuple[str, ...] = (
    "backend",
    "model",
    "model_revision",
    "dtype",
    "quantization",
    "chat_template_sha256",
    "chat_template_source",
    "batch_size",
    "device",
    "versions",
)

_EXTRA_HINT = {
    "hf": "pip install 'rgb-leaderboard[hf]'",
    "llamacpp": "pip install 'rgb-leaderboard[llamacpp]'  (llama-cpp-python builds from source: "
    "about 10 minutes on 2 cores)",
    "vllm": "pip install 'rgb-leaderboard[vllm]'  (needs Linux and a CUDA GPU)",
    "openai": "pip install httpx",
}


def missing_dependency(backend: str, exc: ImportError) -> BackendUnavailable:
    """The error for an optional dependency that is not installed: says exactly what to install."""
    name = getattr(exc, "name", None) or str(exc)
    return BackendUnavailable(
        f"backend {backend!r} needs the Python package {name!r}, which is not installed "
        f"({exc}); install it with: {_EXTRA_HINT[backend]}"
    )


def load_backend(sub: Submission) -> Backend:
    """Build the backend a submission asks for. Imports are lazy so that `import leaderboard` and
    the scripted and openai backends never pull in torch or vllm."""
    if sub.backend == "scripted":
        return ScriptedBackend.from_submission(sub)
    if sub.backend == "openai":
        try:  # deferred: httpx is only needed for this backend
            from leaderboard.backends.openai_compat import OpenAIBackend
        except ImportError as exc:
            raise missing_dependency("openai", exc) from None
        return OpenAIBackend.from_submission(sub)
    if sub.backend == "system":
        try:  # deferred: httpx is only needed for the HTTP backends
            from leaderboard.backends.system import SystemBackend
        except ImportError as exc:
            raise missing_dependency("openai", exc) from None
        return SystemBackend.from_submission(sub)
    if sub.backend == "llamacpp":
        # deferred: llama_cpp loads its native library only when this backend is asked for
        from leaderboard.backends.llamacpp import LlamaCppBackend

        return LlamaCppBackend.from_submission(sub)
    if sub.backend == "vllm":
        # deferred: vllm (and CUDA) load only when this backend is asked for
        from leaderboard.backends.vllm_backend import VLLMBackend

        return VLLMBackend.from_submission(sub)
    try:  # deferred: torch and transformers take seconds to import
        from leaderboard.backends.hf.backend import HFBackend
    except ImportError as exc:
        raise missing_dependency("hf", exc) from None
    return HFBackend.from_submission(sub)

"""Every backend by name, with its traits, and `load_backend`: adding a backend is one
registration here.

Each loader imports its module only when called (like inspect_ai's provider functions), so
`import leaderboard`, the scripted backend and the HTTP backends never import torch or vllm, and
a missing optional dependency becomes one line saying what to install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard.backends.base import (
    Backend,
    BackendTraits,
    backend_class,
    register_backend,
    registered_traits,
)

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission


@register_backend(
    "scripted",
    install="nothing (it is part of the package)",
    traits=BackendTraits(named_by_server=True, decodes_tokens=False, trivial=True),
)
def _scripted() -> type[Backend]:
    from leaderboard.backends.scripted import ScriptedBackend  # deferred: registry stays light

    return ScriptedBackend


@register_backend("openai", install="pip install httpx", traits=BackendTraits(named_by_server=True))
def _openai() -> type[Backend]:
    from leaderboard.backends.openai_compat import OpenAIBackend  # deferred: httpx

    return OpenAIBackend


@register_backend(
    "system",
    install="pip install httpx",
    traits=BackendTraits(
        retrieves_itself=True,
        named_by_server=True,
        # an endpoint's address is where it runs, not what it is: left out
        fingerprint={"system": "http endpoint: question + language in, answer + ids out"},
    ),
)
def _system() -> type[Backend]:
    from leaderboard.backends.system import SystemBackend  # deferred: httpx

    return SystemBackend


@register_backend(
    "vllm",
    install="pip install 'rgb-leaderboard[vllm]'  (needs Linux and a CUDA GPU)",
    traits=BackendTraits(hub_checkpoint=True),
)
def _vllm() -> type[Backend]:
    from leaderboard.backends.vllm_backend import VLLMBackend  # deferred: vllm and CUDA

    return VLLMBackend


@register_backend(
    "hf", install="pip install 'rgb-leaderboard[hf]'", traits=BackendTraits(hub_checkpoint=True)
)
def _hf() -> type[Backend]:
    from leaderboard.backends.hf.backend import HFBackend  # deferred: torch takes seconds

    return HFBackend


@register_backend(
    "llamacpp",
    install="pip install 'rgb-leaderboard[llamacpp]'  (llama-cpp-python builds from source: "
    "about 10-14 minutes on 2 cores)",
)
def _llamacpp() -> type[Backend]:
    from leaderboard.backends.llamacpp import LlamaCppBackend  # deferred: the native library

    return LlamaCppBackend


def load_backend(sub: Submission) -> Backend:
    """Build the backend a submission asks for (its model.yaml `backend:`)."""
    return backend_class(sub.backend).from_submission(sub)


def backend_traits(name: str) -> BackendTraits:
    """What a backend (by its model.yaml or recorded name) needs from the plan, how it names its
    model and what it adds to the provenance: the one place the rest of the package asks."""
    return registered_traits(name)

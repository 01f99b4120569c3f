"""The one seam between the runner and a model, and the registry that finds a backend by name.

A backend answers a batch of chat requests with exactly one Completion per request, in order.
Batching, padding, retries and concurrency all live inside the backend. Backends register
themselves by name (`registry.py`, one function each, as inspect_ai's `@modelapi` providers do)
and are imported only when a submission asks for them, so that `import leaderboard` never pulls
in torch, vllm or an HTTP client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission


@dataclass(frozen=True)
class BackendDescription:
    """Provenance of a loaded model: what results.json records about the backend.

    The named fields are what every backend must say (the runner copies them into results
    Provenance); `extra` holds a backend's own keys (settings, counters). `order` is the key
    order of `as_dict` (what results.json stores under provenance.extra.backend): each backend
    keeps the order it has always recorded, so a rerun writes byte-identical provenance.
    """

    backend: str
    model: str | None
    model_revision: str | None
    dtype: str | None
    quantization: Mapping[str, object]
    chat_template_sha256: str | None
    chat_template_source: str | None
    batch_size: int | str | None
    device: str
    versions: Mapping[str, str | None]
    extra: Mapping[str, object] = field(default_factory=dict)
    order: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        clash = sorted(set(self.extra) & set(DESCRIBE_KEYS))
        if clash:
            raise ValueError(f"extra repeats the named fields {clash}")

    def as_dict(self) -> dict[str, object]:
        """Named fields and extras as one dict, in `order` (keys it does not name come after,
        named fields first)."""
        merged = {**{k: getattr(self, k) for k in DESCRIBE_KEYS}, **self.extra}
        keys = [k for k in self.order if k in merged]
        keys += [k for k in merged if k not in keys]
        return {k: merged[k] for k in keys}


# The fields every backend's description has (the runner copies them into results Provenance).
DESCRIBE_KEYS: tuple[str, ...] = tuple(
    f.name for f in fields(BackendDescription) if f.name not in ("extra", "order")
)


def description_dict(described: BackendDescription | Mapping[str, object]) -> dict[str, object]:
    """A backend's description as the dict results.json stores. A plain mapping is taken as it
    is, so a backend written before BackendDescription still runs (convert it when touched)."""
    if isinstance(described, BackendDescription):
        return described.as_dict()
    return dict(described)


@runtime_checkable
class Backend(Protocol):
    @classmethod
    def from_submission(cls, sub: Submission) -> Backend:
        """The backend a submission's model.yaml describes (its settings block)."""
        ...

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]: ...

    def describe(self) -> BackendDescription:
        """Provenance of the loaded model: versions, device, resolved revision, template hash..."""
        ...


# name -> (install hint, loader importing and returning the backend class)
_REGISTRY: dict[str, tuple[str, Callable[[], type[Backend]]]] = {}


def register_backend(
    name: str, install: str
) -> Callable[[Callable[[], type[Backend]]], Callable[[], type[Backend]]]:
    """Register a loader under a backend name (the model.yaml `backend:` value). The loader
    imports its module itself, so a backend's dependencies load only when it is asked for;
    `install` is what to run when that import fails."""

    def add(loader: Callable[[], type[Backend]]) -> Callable[[], type[Backend]]:
        if name in _REGISTRY:
            raise ValueError(f"backend {name!r} is registered twice")
        _REGISTRY[name] = (install, loader)
        return loader

    return add


def registered_backends() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def missing_dependency(backend: str, exc: ImportError) -> BackendUnavailable:
    """The error for an optional dependency that is not installed: says exactly what to install."""
    name = getattr(exc, "name", None) or str(exc)
    return BackendUnavailable(
        f"backend {backend!r} needs the Python package {name!r}, which is not installed "
        f"({exc}); install it with: {_install_hint(backend)}"
    )


def _install_hint(backend: str) -> str:
    entry = _REGISTRY.get(backend)
    return entry[0] if entry else "pip install the missing package"


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`, imported now."""
    if name not in _REGISTRY:
        raise BackendUnavailable(
            f"no backend {name!r}; registered: {', '.join(registered_backends())}"
        )
    try:
        return _REGISTRY[name][1]()
    except ImportError as exc:
        raise missing_dependency(name, exc) from None

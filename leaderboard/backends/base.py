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

    @classmethod
    def weightless(
        cls,
        backend: str,
        model: str | None,
        where: tuple[str, str, str],
        versions: Mapping[str, str | None],
        extra: Mapping[str, object],
        order: tuple[str, ...],
    ) -> BackendDescription:
        """A backend that holds no weights (a server, a system, a script): no revision, dtype,
        template hash or batch size of its own to report. `where` is (quantization mode,
        chat-template source, device), e.g. ("server-side", "server", "remote")."""
        quant_mode, template_source, device = where
        return cls(
            backend=backend,
            model=model,
            model_revision=None,
            dtype=None,
            quantization={"mode": quant_mode},
            chat_template_sha256=None,
            chat_template_source=template_source,
            batch_size=None,
            device=device,
            versions=versions,
            extra=extra,
            order=order,
        )


# The fields every backend's description has (the runner copies them into results Provenance).
DESCRIBE_KEYS: tuple[str, ...] = tuple(
    f.name for f in fields(BackendDescription) if f.name not in ("extra", "order")
)

# The weights-and-template keys, in the order every backend's `order` has always listed them
# (each backend splices this run into its own order; written once so the five cannot drift).
TEMPLATE_ORDER: tuple[str, ...] = (
    "dtype",
    "quantization",
    "chat_template_sha256",
    "chat_template_source",
)


@dataclass(frozen=True)
class BackendTraits:
    """What the code outside backends/ needs to know about a backend, declared once on its
    registration, so that no module there branches on a backend's name.

    retrieves_itself: a whole RAG system: it gets the bare question (the chain probe's instances
    carry no passages), answers with passage ids of the exported corpus (the runner hands it
    the ids, scoring resolves them) and the probes' provenance says the retrieval was its own.
    named_by_server: the model is named by what serves it (an endpoint's model name, a scripted
    policy): its identity is that name and the revision, and no weights are read.
    decodes_tokens: answers are text decoded from model tokens, so one may stop inside a
    character (verify checks for a trailing U+FFFD); a scripted policy copies data instead.
    hub_checkpoint: loads a hub checkpoint by revision, so `validate` warns about an unpinned
    revision or remote code.
    trivial: a policy, not a model (the trivial baselines: never ranked).
    fingerprint: what this backend adds to the fingerprint inputs.
    """

    retrieves_itself: bool = False
    named_by_server: bool = False
    decodes_tokens: bool = True
    hub_checkpoint: bool = False
    trivial: bool = False
    fingerprint: Mapping[str, str] = field(default_factory=dict)


@runtime_checkable
class AnswersFromCorpus(Protocol):
    """A backend with `retrieves_itself`: the runner tells it the exported corpus's ids, so an
    id outside them is an error for that question."""

    def use_corpus(self, ids: frozenset[str]) -> None: ...


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


@dataclass(frozen=True)
class Registration:
    """One backend's entry: what to install, the loader importing its class, its traits."""

    install: str
    loader: Callable[[], type[Backend]]
    traits: BackendTraits


_REGISTRY: dict[str, Registration] = {}


def register_backend(
    name: str, install: str, traits: BackendTraits | None = None
) -> Callable[[Callable[[], type[Backend]]], Callable[[], type[Backend]]]:
    """Register a loader under a backend name (the model.yaml `backend:` value). The loader
    imports its module itself, so a backend's dependencies load only when it is asked for;
    `install` is what to run when that import fails; `traits` what the rest of the package
    needs to know about it (BackendTraits)."""

    def add(loader: Callable[[], type[Backend]]) -> Callable[[], type[Backend]]:
        if name in _REGISTRY:
            raise ValueError(f"backend {name!r} is registered twice")
        _REGISTRY[name] = Registration(install, loader, traits or BackendTraits())
        return loader

    return add


def registered_traits(name: str) -> BackendTraits:
    """The traits of a registered backend; an unknown name has the defaults: a model decoded
    from tokens."""
    entry = _REGISTRY.get(name)
    return entry.traits if entry else BackendTraits()


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
    return entry.install if entry else "pip install the missing package"


def backend_class(name: str) -> type[Backend]:
    """The class registered under `name`, imported now."""
    if name not in _REGISTRY:
        raise BackendUnavailable(
            f"no backend {name!r}; registered: {', '.join(registered_backends())}"
        )
    try:
        return _REGISTRY[name].loader()
    except ImportError as exc:
        raise missing_dependency(name, exc) from None

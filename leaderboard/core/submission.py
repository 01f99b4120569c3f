"""The submission file: `submissions/<id>/model.yaml`, validated at the edge.

Everything a model author controls lives here, so a results file can be reproduced from the YAML
alone.
Errors point at the YAML line of the offending field (found by walking the composed YAML node tree),
because a submission is usually checked in a pull request where "line 12, field 'quantization.mode'"
is what the author needs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from leaderboard.core.errors import ConfigError
from leaderboard.core.model_source import (
    PKG_PREFIX,  # noqa: F401  re-exported: callers import it from here
    ResolvedModel,
    model_source,
    package_file,  # noqa: F401  re-exported: callers import it from here
    resolve_model,
)
from leaderboard.core.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    Ability,
    GenerationConfig,
    Lang,
)
from leaderboard.core.yaml_lines import check_duplicate_keys, format_validation_errors, line_of

SUBMISSION_FILE = "model.yaml"
_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

Dtype = Literal["auto", "float32", "bfloat16", "float16"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Quantization(_Strict):
    """bitsandbytes settings, passed to transformers as a BitsAndBytesConfig (hf backend only)."""

    mode: Literal["none", "4bit", "8bit"] = "none"
    quant_type: Literal["nf4", "fp4"] = "nf4"  # 4bit only
    compute_dtype: Literal["float32", "bfloat16", "float16"] = "bfloat16"  # 4bit only
    double_quant: bool = True  # 4bit only

    def describe(self) -> dict[str, object]:
        if self.mode == "none":
            return {"mode": "none"}
        if self.mode == "8bit":
            return {"mode": "8bit", "method": "bitsandbytes"}
        return {"method": "bitsandbytes", **self.model_dump()}


class Generation(_Strict):
    """Decoding settings. Greedy by default, as in the RGB protocol, so scores are reproducible."""

    temperature: float = Field(0.0, ge=0.0, le=5.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    max_new_tokens: int = Field(256, ge=1, le=32768)
    seed: int = 2333

    def to_config(self) -> GenerationConfig:
        return GenerationConfig(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
        )


class OpenAISettings(_Strict):
    """An OpenAI-compatible chat completions server (vLLM, llama.cpp, Ollama, TGI, an API)."""

    base_url: str  # e.g. http://127.0.0.1:8000/v1 ; requests go to {base_url}/chat/completions
    model: str | None = (
        None  # name the server knows the model by; default: the submission's `model`
    )
    api_key_env: str | None = (
        None  # the NAME of an environment variable holding the key, never the key
    )
    concurrency: int = Field(8, ge=1, le=512)
    timeout_s: float = Field(120.0, gt=0)
    max_retries: int = Field(6, ge=0, le=50)

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str) -> str:
        if not re.match(r"^https?://", v):
            raise ValueError(f"must start with http:// or https:// (got {v!r})")
        return v.rstrip("/")

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, v: str | None) -> str | None:
        if v is not None and not _ENV_NAME.match(v):
            raise ValueError(
                "must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key "
                "itself; never put a key in a submission file"
            )
        return v


class VLLMSettings(_Strict):
    """Offline vLLM engine settings (tensor parallelism over the GPUs of one machine)."""

    tensor_parallel_size: int = Field(1, ge=1)
    gpu_memory_utilization: float = Field(0.9, gt=0.0, le=1.0)
    max_model_len: int | None = Field(None, ge=1)


class FakeSettings(_Strict):
    """The deterministic in-package provider, for dry runs and pipeline tests.

    strategy "cycle" answers with `responses` in turn; "echo" answers with the last line of the last
    user message (for RGB prompts: the question), which exercises scoring without a model.
    """

    strategy: Literal["cycle", "echo"] = "cycle"
    responses: list[str] = Field(default_factory=lambda: ["I can not answer the question."])
    fail_indices: list[int] = Field(default_factory=list)  # 0-based request counter -> error
    latency_s: float = Field(0.0, ge=0.0)

    @field_validator("responses")
    @classmethod
    def _non_empty(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("needs at least one response")
        return v


class RunPlan(_Strict):
    """Which part of the RGB protocol to run. Defaults: all of it."""

    languages: list[Lang] = Field(default_factory=lambda: list(LANGS))
    abilities: list[Ability] = Field(default_factory=lambda: list(ABILITIES))
    noise_rates: dict[Ability, list[float]] = Field(
        default_factory=lambda: {a: list(r) for a, r in DEFAULT_NOISE_RATES.items()},
        validate_default=True,
    )
    passage_num: int = Field(5, ge=1, le=20)
    variant: Literal["refine", "original"] = "refine"
    allow_partial_data: bool = False

    @field_validator("languages", "abilities")
    @classmethod
    def _unique(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("must list at least one value")
        if len(set(v)) != len(v):
            raise ValueError(f"lists a value twice: {v}")
        return v

    @field_validator("noise_rates")
    @classmethod
    def _rates(cls, v: dict[Ability, list[float]]) -> dict[Ability, list[float]]:
        """Abilities left out keep the protocol's rates, so a YAML can override one ability only."""
        merged = {a: list(r) for a, r in DEFAULT_NOISE_RATES.items()}
        for ability, rates in v.items():
            if not rates:
                raise ValueError(f"{ability}: must list at least one noise rate")
            bad = [r for r in rates if not 0.0 <= r <= 1.0]
            if bad:
                raise ValueError(f"{ability}: noise rates must be within [0, 1], got {bad}")
            merged[ability] = sorted(set(rates))
        return merged


class Submission(_Strict):
    """One leaderboard entry (or a local experiment). Field order matters: cross-field checks read
    fields declared before them."""

    id: str
    display_name: str = Field(min_length=1)
    link: str | None = None
    model: str = Field(min_length=1)
    hub_id: str | None = None
    gguf_file: str | None = None
    revision: str | None = None
    backend: Literal["hf", "openai", "vllm", "fake"] = "hf"
    params: str | None = None  # e.g. "7B"; shown on the site
    dtype: Dtype = "auto"
    quantization: Quantization = Field(default_factory=Quantization)
    trust_remote_code: bool = Field(False, validate_default=True)
    chat_template: str = "auto"  # "auto" (the tokenizer's), "none", or a path to a Jinja file
    system_prompt: Literal["system", "merge", "none"] = "system"
    generation: Generation = Field(default_factory=Generation)
    batch_size: int | Literal["auto"] = "auto"
    max_input_tokens: int | None = Field(None, ge=16)
    truncation: Literal["error", "left_docs"] = "error"
    device_map: str | dict[str, Any] | None = "auto"
    openai: OpenAISettings | None = Field(None, validate_default=True)
    vllm: VLLMSettings | None = Field(None, validate_default=True)
    fake: FakeSettings | None = Field(None, validate_default=True)
    run: RunPlan = Field(default_factory=RunPlan)

    _source_path: Path | None = PrivateAttr(default=None)

    @field_validator("id")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not _SLUG.match(v):
            raise ValueError(
                "must be a slug: lowercase letters, digits, '.', '_' or '-', starting "
                f"with a letter or digit (got {v!r})"
            )
        return v

    @field_validator("batch_size")
    @classmethod
    def _batch(cls, v: int | str) -> int | str:
        if isinstance(v, int) and v < 1:
            raise ValueError("must be a positive integer or 'auto'")
        return v

    @field_validator("quantization")
    @classmethod
    def _quant_backend(cls, v: Quantization, info: ValidationInfo) -> Quantization:
        if v.mode != "none" and info.data.get("backend") not in (None, "hf"):
            raise ValueError(
                f"bitsandbytes quantization needs backend 'hf' (backend is "
                f"{info.data.get('backend')!r}); quantize on the server side instead"
            )
        return v

    @field_validator("trust_remote_code")
    @classmethod
    def _remote_code(cls, v: bool, info: ValidationInfo) -> bool:
        rev = info.data.get("revision")
        model = info.data.get("model") or ""
        if v and model_source(model) == "hub" and not (rev and _COMMIT.match(rev)):
            raise ValueError(
                "trust_remote_code runs code downloaded from the hub, so it needs "
                "'revision' pinned to a 40-hex commit (run `rgb-leaderboard submissions pin PATH`)"
            )
        return v

    @field_validator("openai", "vllm", "fake")
    @classmethod
    def _settings_match_backend(cls, v: Any, info: ValidationInfo) -> Any:
        backend = info.data.get("backend")
        name = info.field_name
        if backend is None:
            return v
        if v is not None and backend != name:
            raise ValueError(f"is set but backend is {backend!r}; remove it or set backend: {name}")
        if v is None and backend == name:
            if name == "openai":
                raise ValueError("backend 'openai' needs an 'openai:' block with at least base_url")
            return VLLMSettings() if name == "vllm" else FakeSettings()
        return v

    @property
    def revision_pinned(self) -> bool:
        """True when `revision` is a full commit hash (what a leaderboard entry needs)."""
        return bool(self.revision and _COMMIT.match(self.revision))

    @property
    def source_path(self) -> Path | None:
        """The model.yaml this was loaded from (None when built in code)."""
        return self._source_path

    def resolve_model(self) -> ResolvedModel:
        """`model` (+ gguf_file) as from_pretrained arguments; ConfigError if it is missing."""
        return resolve_model(self.model, self.gguf_file, submission_dir(self))

    def resolve_chat_template(self) -> str | None:
        """The Jinja text of a chat template given as a path, None for "auto" and "none"."""
        if self.chat_template in ("auto", "none"):
            return None
        path = Path(self.chat_template).expanduser()
        base = submission_dir(self)
        if not path.is_absolute() and base is not None:
            path = base / path
        if not path.is_file():
            raise ConfigError(
                f"{self._where('chat_template')}: chat template file {path} not found; give a path "
                "relative to the submission folder, or 'auto' / 'none'"
            )
        return path.read_text(encoding="utf-8")

    def _where(self, field: str) -> str:
        return f"{self._source_path or '<submission>'}: field '{field}'"


def submission_dir(sub: Submission) -> Path | None:
    """The submission's folder (where predictions and results go), if it was loaded from one."""
    return sub.source_path.parent if sub.source_path is not None else None


# --------------------------------------------------------------------------- loading


def load_submission(path: Path | str) -> Submission:
    """Read and validate a submission (a folder holding model.yaml, or the YAML file itself)."""
    path = Path(path)
    file = path / SUBMISSION_FILE if path.is_dir() else path
    if not file.is_file():
        raise ConfigError(
            f"{file}: no such file; a submission is a folder submissions/<id>/ with a "
            f"{SUBMISSION_FILE}"
        )
    text = file.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f"{mark.line + 1}" if mark is not None else "1"
        raise ConfigError(f"{file}:{line}: not valid YAML ({exc}); fix the syntax") from None
    if not isinstance(data, dict) or root is None:
        raise ConfigError(f"{file}:1: expected a mapping of fields (id, display_name, model, ...)")
    check_duplicate_keys(root, file)
    try:
        sub = Submission.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_errors(exc, root, file, Submission)) from None
    sub._source_path = file.resolve()
    folder = file.parent.name
    if (
        file.name == SUBMISSION_FILE
        and folder != sub.id
        and file.parent.parent.name == "submissions"
    ):
        line = line_of(root, ("id",))
        raise ConfigError(
            f"{file}:{line}: field 'id': {sub.id!r} must equal the folder name {folder!r}; rename "
            "one of them"
        )
    return sub

"""The submission file: `submissions/<id>/model.yaml`, validated at the edge. A results file can
be reproduced from the YAML alone. Errors point at the YAML line of the offending field (walking
the composed YAML node tree): in a pull request, "line 12, field 'quantization.mode'" is what the
author needs. The field descriptions feed the site's submission reference and model.schema.json.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    PrivateAttr,
    StrictInt,
    ValidationInfo,
    field_validator,
)

from leaderboard.core.errors import ConfigError
from leaderboard.core.model_source import (
    PARTS_PREFIX,
    PKG_PREFIX,
    ResolvedModel,
    model_source,
    resolve_model,
)
from leaderboard.core.safe_io import read_text
from leaderboard.core.settings import (
    Dtype,
    Generation,
    LlamaCppSettings,
    OpenAISettings,
    Quantization,
    RunPlan,
    ScriptedSettings,
    StrictModel,
    SystemSettings,
    VLLMSettings,
)
from leaderboard.core.weights import WeightParts
from leaderboard.core.yaml_lines import line_of, validate_yaml_file

SUBMISSION_FILE = "model.yaml"
_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
MAX_BATCH_SIZE = 65536


class Submission(StrictModel):
    """One model.yaml: a leaderboard entry or a local experiment (validators read prior fields)."""

    id: str = Field(
        description="The entry's slug: its folder name under submissions/ and part of every "
        "site URL (lowercase letters, digits, '.', '_', '-').",
        examples=["qwen2.5-7b-instruct"],
    )
    display_name: str = Field(
        min_length=1,
        max_length=200,
        description="The name shown on the site.",
        examples=["Qwen2.5-7B-Instruct"],
    )
    link: str | None = Field(
        None,
        description="A model card or paper, linked from the model's page.",
        examples=["https://huggingface.co/Qwen/Qwen2.5-7B-Instruct"],
    )
    model: str = Field(
        min_length=1,
        description="What to load: a hub id, a local folder or .gguf file (relative to the "
        "submission folder), pkg:<package>/<path> for a file shipped in a Python package, "
        "parts:<file> for weights joined from the parts listed under `weights`, or "
        "(openai backend) the name the server knows the model by.",
        examples=["Qwen/Qwen2.5-7B-Instruct"],
    )
    hub_id: str | None = Field(
        None, description="The same model on the hub, when `model` is a local or packaged file."
    )
    gguf_file: str | None = Field(
        None, description="A .gguf file inside `model` to load (transformers dequantizes it)."
    )
    sha256: str | None = Field(
        None,
        pattern=r"^[0-9a-f]{64}$",
        description="sha256 of the weights when `model` is one .gguf file (local or pkg:): "
        "checked before loading, and the fingerprint uses it, so `verify` needs no weights.",
        examples=["1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"],
    )
    weights: WeightParts | None = Field(
        None,
        validate_default=True,
        description="Weights split into parts (with `model: parts:<file>`): the parts in order "
        "and the joined file's sha256; `rgb-leaderboard model fetch` joins them into a cache.",
    )
    revision: str | None = Field(
        None,
        description="The hub commit of the weights; a ranked entry needs the full 40-hex commit "
        "(`rgb-leaderboard submissions pin PATH` writes it).",
        examples=["a09a35458c702b33eeacc393d103063234e8bc28"],
    )
    backend: Literal["hf", "llamacpp", "openai", "vllm", "scripted", "system"] = Field(
        "hf",
        description="What generates the answers: transformers (hf), llama.cpp in-process "
        "(llamacpp, GGUF files), an OpenAI-compatible server, the vLLM engine, the scripted "
        "in-package backend (baselines; `fake` is its former name), or a whole RAG system "
        "behind an HTTP endpoint (system).",
    )
    params: str | None = Field(
        None, description="The parameter count shown on the site.", examples=["7B"]
    )
    licence: str | None = Field(
        None,
        max_length=100,
        description="The upstream licence of the weights (an SPDX id where there is one), "
        "shown on the site beside the scores.",
        examples=["Apache-2.0"],
    )
    open_weights: bool | None = Field(
        None,
        description="Whether the weights are published; unset, the site derives it (weights "
        "the run loaded itself are open).",
    )
    dtype: Dtype = Field(
        "auto",
        description="Weight and compute dtype (hf, vllm); part of the fingerprint. auto keeps the "
        "checkpoint's (a GGUF, which hf dequantizes: float32 on every machine). bfloat16 on a CPU "
        "is fast only with AVX512_BF16 or AMX; without them it runs, slower than float32, and "
        "says so in one line.",
        examples=["auto", "bfloat16"],
    )
    quantization: Quantization = Field(
        default_factory=Quantization,
        description="bitsandbytes 4-bit or 8-bit loading (hf backend only).",
    )
    trust_remote_code: bool = Field(
        False,
        validate_default=True,
        description="Run model code from the hub repository; needs `revision` pinned to a commit.",
    )
    chat_template: str = Field(
        "auto",
        description="auto (the tokenizer's template), none (plain concatenation), or the path of "
        "a Jinja file inside the submission folder.",
        examples=["auto", "templates/chat.jinja"],
    )
    system_prompt: Literal["system", "merge", "none"] = Field(
        "system",
        description="Where RGB's system instruction goes: a system turn, merged into the first "
        "user turn (templates without a system role), or dropped.",
    )
    generation: Generation = Field(
        default_factory=Generation, description="Decoding settings (greedy by default, as in RGB)."
    )
    batch_size: StrictInt | Literal["auto"] = Field(  # StrictInt: `true` is not a batch size
        "auto", description="Prompts per generate call: auto, or an integer from 1 to 65536."
    )
    max_input_tokens: StrictInt | None = Field(
        None,
        ge=16,
        le=10_000_000,
        description="The longest prompt in tokens; unset means no limit. A longer prompt is "
        "handled as `truncation` says.",
        examples=[8192],
    )
    truncation: Literal["error", "left_docs"] = Field(
        "error",
        description="A prompt over max_input_tokens: error stops the run; left_docs shortens "
        "the passages until it fits (recorded per prediction).",
    )
    device_map: str | dict[str, Any] | None = Field(
        "auto",
        description="accelerate device map (hf): auto, a device such as cpu or cuda:0, or a "
        "mapping of module names to devices.",
        examples=["auto", "cpu"],
    )
    openai: OpenAISettings | None = Field(
        None, validate_default=True, description="Server settings; required by backend openai."
    )
    vllm: VLLMSettings | None = Field(
        None, validate_default=True, description="Engine settings for backend vllm."
    )
    llamacpp: LlamaCppSettings | None = Field(
        None, validate_default=True, description="Engine settings for backend llamacpp."
    )
    scripted: ScriptedSettings | None = Field(
        None, validate_default=True, description="Policy settings for backend scripted."
    )
    system: SystemSettings | None = Field(
        None, validate_default=True, description="The RAG endpoint; required by backend system."
    )
    run: RunPlan = Field(
        default_factory=RunPlan,
        description="Which languages, abilities and noise rates to run (default: all of RGB).",
    )

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
        if isinstance(v, int) and not 1 <= v <= MAX_BATCH_SIZE:
            raise ValueError(f"must be 'auto' or an integer from 1 to {MAX_BATCH_SIZE}")
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

    @field_validator("sha256")
    @classmethod
    def _sha256_of_one_file(cls, v: str | None, info: ValidationInfo) -> str | None:
        model = info.data.get("model") or ""
        one_file = model.startswith(PKG_PREFIX) or (
            model.endswith(".gguf") and not model.startswith(PARTS_PREFIX)
        )
        if v is not None and not one_file:
            raise ValueError(
                "names the sha256 of one .gguf file: give 'model' as pkg:<package>/<file>.gguf "
                f"or a local .gguf path (got {model!r}); split weights use 'weights:'"
            )
        return v

    @field_validator("weights")
    @classmethod
    def _weights_with_parts_model(cls, v: WeightParts | None, info: ValidationInfo) -> Any:
        model = info.data.get("model") or ""
        if v is None and model.startswith(PARTS_PREFIX):
            raise ValueError(f"model {model!r} needs a 'weights:' block listing the parts")
        if v is not None and model != f"{PARTS_PREFIX}{v.file}":
            raise ValueError(
                f"is set, so 'model' must be '{PARTS_PREFIX}{v.file}' (the joined file) "
                f"(got {model!r})"
            )
        return v

    @field_validator("openai", "vllm", "llamacpp", "scripted", "system")
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
            if name == "system":
                raise ValueError("backend 'system' needs a 'system:' block with at least url")
            defaults = {"vllm": VLLMSettings, "llamacpp": LlamaCppSettings}
            return defaults.get(name, ScriptedSettings)()
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
        """`model` (+ gguf_file) as from_pretrained arguments; ConfigError if it is missing.
        Weights in parts are joined into the cache first (once) and checked by sha256."""
        return resolve_model(
            self.model, self.gguf_file, submission_dir(self), self.weights, self.sha256
        )

    def resolve_chat_template(self) -> str | None:
        """The Jinja text of a chat template given as a path, None for "auto" and "none"."""
        if self.chat_template in ("auto", "none"):
            return None
        path = Path(self.chat_template).expanduser()
        base = submission_dir(self)
        if base is not None:
            path = _inside(base, path, self._where("chat_template"))
        if not path.is_file():
            raise ConfigError(
                f"{self._where('chat_template')}: chat template file {path} not found; give a path "
                "relative to the submission folder, or 'auto' / 'none'"
            )
        return read_text(path, ConfigError)

    def _where(self, field: str) -> str:
        return f"{self._source_path or '<submission>'}: field '{field}'"


def _inside(base: Path, path: Path, where: str) -> Path:
    """`path` (relative to the submission folder) with symlinks resolved; a file outside the
    folder is refused, so a submission cannot make the runner read (and publish the hash of)
    /etc/passwd or another submission's files."""
    base = base.resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise ConfigError(
            f"{where}: {path} is outside the submission folder {base}; put the template file "
            "in the folder and give its relative path"
        )
    return target


def is_slug(text: str) -> bool:
    """True for a valid submission id (also a folder name and part of every site URL)."""
    return bool(_SLUG.fullmatch(text))


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
    sub, root = validate_yaml_file(file, Submission, "id, display_name, model, ...")
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

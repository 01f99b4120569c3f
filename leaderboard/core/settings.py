"""The settings blocks of a submission file (quantization, generation, backend settings, run plan).

Each is a frozen pydantic model with extra="forbid", so a misspelt key is an error naming the field;
`leaderboard.core.submission.Submission` composes them and adds the cross-field rules.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from leaderboard.core.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    Ability,
    GenerationConfig,
    Lang,
)

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def http_url(v: str) -> str:
    """An endpoint URL must be http(s): the one check for every setting that names a server."""
    if not re.match(r"^https?://", v):
        raise ValueError(f"must start with http:// or https:// (got {v!r})")
    return v


class StrictModel(BaseModel):
    """Frozen, and a key the schema does not know is an error (not silently dropped)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Dtype = Literal["auto", "float32", "bfloat16", "float16"]


class Quantization(StrictModel):
    """bitsandbytes settings, passed to transformers as a BitsAndBytesConfig (hf backend only)."""

    mode: Literal["none", "4bit", "8bit"] = Field("none", description="none loads full weights.")
    quant_type: Literal["nf4", "fp4"] = Field("nf4", description="4-bit data type (4bit only).")
    compute_dtype: Literal["float32", "bfloat16", "float16"] = Field(
        "bfloat16", description="dtype of the matrix products (4bit only)."
    )
    double_quant: bool = Field(True, description="Quantize the quantization constants (4bit only).")

    def describe(self) -> dict[str, object]:
        if self.mode == "none":
            return {"mode": "none"}
        if self.mode == "8bit":
            return {"mode": "8bit", "method": "bitsandbytes"}
        return {"method": "bitsandbytes", **self.model_dump()}


class Generation(StrictModel):
    """Decoding settings. Greedy by default, as in the RGB protocol, so scores are reproducible."""

    temperature: float = Field(0.0, ge=0.0, le=5.0, description="0 is greedy decoding.")
    top_p: float = Field(1.0, gt=0.0, le=1.0, description="Nucleus sampling mass (1: off).")
    max_new_tokens: StrictInt = Field(
        256, ge=1, le=32768, description="Answer budget in tokens; RGB answers are short."
    )
    seed: StrictInt = Field(2333, ge=0, le=2**32 - 1, description="Sampling seed.")

    def to_config(self) -> GenerationConfig:
        return GenerationConfig(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
        )


# The HTTP settings of the backends that call a server (openai, system): one declaration of each
# limit; the defaults differ by what a request is (one answer, or a whole RAG pipeline's).
def _in_flight(default: int, what: str) -> Any:
    return Field(default, ge=1, le=512, description=f"{what} in flight at once.")


def _timeout(default: float) -> Any:
    return Field(default, gt=0, description="Seconds to wait for one answer.")


def _retries(default: int) -> Any:
    return Field(default, ge=0, le=50, description="Retries of a failed request (with backoff).")


_HARNESS_FIELDS = frozenset(
    {"model", "messages", "max_tokens", "temperature", "top_p", "seed", "n", "stream"}
)


class OpenAISettings(StrictModel):
    """An OpenAI-compatible chat completions server (vLLM, llama.cpp, Ollama, TGI, an API)."""

    base_url: str = Field(
        description="http(s) URL; requests go to {base_url}/chat/completions.",
        examples=["http://127.0.0.1:8000/v1"],
    )
    model: str | None = Field(
        None, description="The server's name for the model; default: the submission's `model`."
    )
    api_key_env: str | None = Field(
        None,
        description="The NAME of an environment variable holding the key, never the key.",
        examples=["OPENAI_API_KEY"],
    )
    concurrency: StrictInt = _in_flight(8, "Requests")
    timeout_s: float = _timeout(120.0)
    max_retries: StrictInt = _retries(6)
    extra_body: dict[str, StrictBool | StrictInt | float | str] = Field(
        default_factory=dict,
        description="Fields sent with every request beyond the OpenAI ones, for a server whose "
        "own sampling defaults differ from greedy decoding (llama-cpp-python's server: "
        "{repeat_penalty: 1.0}); never the fields the harness sets (model, messages, "
        "max_tokens, temperature, top_p, seed, n, stream). Recorded in the provenance.",
        examples=[{"repeat_penalty": 1.0}],
    )

    @field_validator("extra_body")
    @classmethod
    def _extra(cls, v: dict[str, object]) -> dict[str, object]:
        taken = sorted(set(v) & _HARNESS_FIELDS)
        if taken:
            raise ValueError(
                f"{', '.join(taken)}: set by the harness from `generation:`; "
                "extra_body adds server-specific fields only"
            )
        return v

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str) -> str:
        return http_url(v).rstrip("/")

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, v: str | None) -> str | None:
        if v is not None and not _ENV_NAME.match(v):
            raise ValueError(
                "must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key "
                "itself; never put a key in a submission file"
            )
        return v


class SystemSettings(StrictModel):
    """A whole RAG system behind an HTTP endpoint (bring your own retriever and generator).

    The runner POSTs {"question": ..., "lang": "zh"|"en"} to `url` and expects
    {"answer": "...", "passage_ids": ["zh-...", ...]}: the ids (from `rgb-leaderboard corpus
    export`) of the passages the system used. It is never sent RGB's passages.
    """

    url: str = Field(
        description="http(s) URL the runner POSTs {question, lang} to.",
        examples=["http://127.0.0.1:8080/answer"],
    )
    concurrency: StrictInt = _in_flight(1, "Questions")
    timeout_s: float = _timeout(300.0)
    max_retries: StrictInt = _retries(3)
    trivial: bool = Field(
        False,
        description="A trivial strategy, not a RAG system (a baseline: the top passage pasted, "
        "a fixed refusal): shown in the systems table's floor band, never ranked. A system "
        "citing no passage on any question is in that band anyway.",
        examples=[True],
    )

    @field_validator("url")
    @classmethod
    def _url(cls, v: str) -> str:
        return http_url(v)


class LlamaCppSettings(StrictModel):
    """llama.cpp in-process (llama-cpp-python) settings: speed and memory, not outputs (the
    fingerprint leaves them out; provenance records them)."""

    n_ctx: StrictInt | Literal["auto"] = Field(
        "auto",
        description="Context window in tokens; auto: max_input_tokens + max_new_tokens (or the "
        "model's training context when max_input_tokens is unset).",
        examples=["auto", 4096],
    )
    n_threads: StrictInt | None = Field(
        None, ge=1, le=1024, description="CPU threads; default: the cores this process may use."
    )
    n_batch: StrictInt = Field(512, ge=1, le=65536, description="Prompt tokens per eval step.")
    n_gpu_layers: StrictInt = Field(
        0, ge=-1, description="Layers offloaded to the GPU (-1: all; needs a CUDA build)."
    )
    use_mmap: bool = Field(True, description="Map the weights instead of reading them.")
    flash_attn: bool | Literal["auto"] = Field(
        "auto",
        description="Attention through llama.cpp's flash-attention kernel. auto: off, unless the "
        "load-time check finds this build's batched prompt evaluation disagreeing with "
        "one-token-at-a-time evaluation for this model (seen: llamafile's matrix kernels on "
        "AVX2-only CPUs with SmolLM2's Q4_1 GGUF), then on, and said in one line.",
        examples=["auto", True],
    )
    prefix_cache: bool = Field(
        False,
        description="Keep the KV cache of the tokens a prompt shares with the one before it "
        "(a judge's prompts that repeat the same passages); off: every prompt from an empty "
        "cache. Speed only, like n_batch (outputs up to floating-point summation order).",
    )
    prefill_check: bool = Field(
        True,
        description="At load, greedy-decode a fixed prompt after a batched and after a "
        "one-token-at-a-time prompt evaluation and compare (a few seconds).",
    )

    def describe(self) -> dict[str, object]:
        return self.model_dump()


class VLLMSettings(StrictModel):
    """Offline vLLM engine settings (tensor parallelism over the GPUs of one machine)."""

    tensor_parallel_size: StrictInt = Field(1, ge=1, description="GPUs to shard the model over.")
    gpu_memory_utilization: float = Field(
        0.9, gt=0.0, le=1.0, description="Share of GPU memory vLLM may take."
    )
    max_model_len: StrictInt | None = Field(
        None, ge=1, description="Context length; default: the model's.", examples=[8192]
    )


class ScriptedRule(StrictModel):
    """A scripted answer: `response` when the regular expression `match` is found in the last user
    message (Python `re.search`)."""

    match: str = Field(
        min_length=1, description="A Python regular expression.", examples=["Who won"]
    )
    response: str = Field(description="The answer given on a match.", examples=["Paris"])

    @field_validator("match")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression ({exc})") from None
        return v


class ScriptedSettings(StrictModel):
    """The deterministic in-package backend (backends/scripted.py): trivial baselines, dry runs
    and pipeline tests.

    policy "cycle" answers with `responses` in turn; "echo" answers with the last line of the last
    user message (for RGB prompts: the question); the baseline policies (empty, refuse,
    refuse_error, copy_all, copy_first, candidates, top_candidate, hedge) are described in
    backends/policies.py.
    `rules` (first match wins) come before the policy, so a scripted judge or model answers by
    content, the same on every run and after a resume.
    """

    policy: Literal[
        "cycle",
        "echo",
        "empty",
        "refuse",
        "refuse_error",
        "copy_all",
        "copy_first",
        "candidates",
        "top_candidate",
        "hedge",
    ] = Field("cycle", description="How to answer when no rule matches (see above).")
    rules: list[ScriptedRule] = Field(
        default_factory=list, description="Answers by content; the first match wins."
    )
    responses: list[str] = Field(
        default_factory=lambda: ["I can not answer the question."],
        description="The answers of policy cycle, in turn.",
    )
    fail_indices: list[int] = Field(
        default_factory=list, description="0-based request numbers that fail (error tests)."
    )
    latency_s: float = Field(0.0, ge=0.0, description="Seconds to wait per answer (tests).")

    @field_validator("responses")
    @classmethod
    def _non_empty(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("needs at least one response")
        return v


class RunPlan(StrictModel):
    """Which part of the RGB protocol to run. Defaults: all of it."""

    languages: list[Lang] = Field(
        default_factory=lambda: list(LANGS), description="Languages to run."
    )
    abilities: list[Ability] = Field(
        default_factory=lambda: list(ABILITIES), description="Abilities to run."
    )
    noise_rates: dict[Ability, list[float]] = Field(
        default_factory=lambda: {a: list(r) for a, r in DEFAULT_NOISE_RATES.items()},
        validate_default=True,
        description="Noise rates per ability, each in [0, 1]; an ability left out keeps RGB's.",
        examples=[{"noise": [0.0, 0.4, 0.8]}],
    )
    passage_num: StrictInt = Field(5, ge=1, le=20, description="Passages per prompt (RGB: 5).")
    variant: Literal["refine", "original"] = Field(
        "refine", description="refine: the corrected RGB data files (the paper's)."
    )
    allow_partial_data: bool = Field(
        False, description="Run on a partial data file (the entry is then flagged partial)."
    )

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

"""Offline generation with vLLM (optional extra): continuous batching and tensor parallelism.

vLLM schedules the whole request list itself, so this backend hands it everything at once and only
falls back to one request at a time when the batch call fails (e.g. one prompt longer than the
context), so a single bad prompt costs one error Completion, not the batch.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from leaderboard.backends.base import TEMPLATE_ORDER, BackendDescription
from leaderboard.backends.batching import run_batches
from leaderboard.backends.environment import device_name
from leaderboard.backends.messages import apply_system_policy
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.text import TRIM_FIELD, drop_incomplete_tail
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

# the order results.json has always recorded this backend's description in
_ORDER = (
    "backend",
    "model",
    "model_revision",
    *TEMPLATE_ORDER,
    "system_prompt",
    "batch_size",
    "tensor_parallel_size",
    "device",
    "versions",
    "stats",
)


def import_vllm() -> Any:
    """Import vllm or say exactly why it cannot be used."""
    try:
        import vllm
    except ImportError as exc:
        raise BackendUnavailable(
            f"backend 'vllm' needs the vllm package, which cannot be imported ({exc}); install it "
            "with: pip install 'rgb-leaderboard[vllm]' (Linux with a CUDA GPU), or use backend: hf"
        ) from None
    return vllm


class VLLMBackend:
    def __init__(
        self,
        model: str,
        *,
        revision: str | None = None,
        dtype: str = "auto",
        trust_remote_code: bool = False,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.9,
        max_model_len: int | None = None,
        seed: int = 2333,
        chat_template_text: str | None = None,
        system_prompt: Literal["system", "merge", "none"] = "system",
        display_model: str | None = None,
    ) -> None:
        vllm = import_vllm()
        self._vllm = vllm
        self.model_id = display_model or model
        self.revision = revision
        self.system_prompt = system_prompt
        self.chat_template_text = chat_template_text
        self.tensor_parallel_size = tensor_parallel_size
        kwargs: dict[str, Any] = {
            "model": model,
            "dtype": dtype,
            "trust_remote_code": trust_remote_code,
            "tensor_parallel_size": tensor_parallel_size,
            "gpu_memory_utilization": gpu_memory_utilization,
            "seed": seed,
        }
        if revision:
            kwargs["revision"] = revision
        if max_model_len:
            kwargs["max_model_len"] = max_model_len
        self.llm = vllm.LLM(**kwargs)
        self.model_time_s = 0.0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    @classmethod
    def from_submission(cls, sub: Submission) -> VLLMBackend:
        import_vllm()  # before resolving anything, so the missing extra is the error users see
        resolved = sub.resolve_model()
        path = resolved.path_or_id
        if resolved.gguf_file:  # vLLM takes a GGUF checkpoint as the file path itself
            path = f"{path.rstrip('/')}/{resolved.gguf_file}"
        settings = sub.vllm
        return cls(
            path,
            revision=sub.revision if resolved.source == "hub" else None,
            dtype=sub.dtype,
            trust_remote_code=sub.trust_remote_code,
            tensor_parallel_size=settings.tensor_parallel_size if settings else 1,
            gpu_memory_utilization=settings.gpu_memory_utilization if settings else 0.9,
            max_model_len=settings.max_model_len if settings else None,
            seed=sub.generation.seed,
            chat_template_text=sub.resolve_chat_template(),
            system_prompt=sub.system_prompt,
            display_model=sub.model,
        )

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]:
        params = self._vllm.SamplingParams(
            temperature=config.temperature,
            top_p=config.top_p if not config.greedy else 1.0,
            max_tokens=config.max_new_tokens,
            seed=config.seed,
        )
        outcome = run_batches(
            list(requests),
            max(1, len(requests)),
            lambda batch: self._chat(batch, params),
            lambda _r, exc: Completion("", error=f"{type(exc).__name__}: {exc}"),
        )
        return outcome.results

    def _chat(self, batch: list[ChatRequest], params: Any) -> list[Completion]:
        conversations = [apply_system_policy(r.messages, self.system_prompt) for r in batch]
        t0 = time.perf_counter()
        outputs = self.llm.chat(
            conversations,
            sampling_params=params,
            chat_template=self.chat_template_text,
            use_tqdm=False,
        )
        elapsed = time.perf_counter() - t0
        self.model_time_s += elapsed
        completions = []
        for out in outputs:
            gen = out.outputs[0]
            n_prompt = len(out.prompt_token_ids or [])
            self.prompt_tokens += n_prompt
            self.completion_tokens += len(gen.token_ids)
            text, trimmed = drop_incomplete_tail(gen.text.strip())
            completions.append(
                Completion(
                    text,
                    prompt_tokens=n_prompt,
                    completion_tokens=len(gen.token_ids),
                    latency_s=elapsed / len(batch),
                    extra={"finish_reason": gen.finish_reason}
                    | ({TRIM_FIELD: True} if trimmed else {}),
                )
            )
        return completions

    def describe(self) -> BackendDescription:
        template = self.chat_template_text or _tokenizer_template(self.llm)
        versions: dict[str, str | None] = {}
        for name in ("vllm", "torch", "transformers"):
            try:
                versions[name] = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                versions[name] = None
        return BackendDescription(
            backend="vllm",
            model=self.model_id,
            model_revision=self.revision,
            dtype=str(getattr(self.llm.llm_engine.model_config, "dtype", None)),
            quantization={"mode": "none"},
            chat_template_sha256=hashlib.sha256(template.encode()).hexdigest()
            if template
            else None,
            chat_template_source="path" if self.chat_template_text else "tokenizer",
            batch_size="vllm-continuous",
            device=device_name(),
            versions=versions,
            extra={
                "system_prompt": self.system_prompt,
                "tensor_parallel_size": self.tensor_parallel_size,
                "stats": {
                    "prompt_tokens": self.prompt_tokens,
                    "completion_tokens": self.completion_tokens,
                    "model_time_s": self.model_time_s,
                },
            },
            order=_ORDER,
        )


def _tokenizer_template(llm: Any) -> str | None:
    try:
        template = llm.get_tokenizer().chat_template
    except Exception:  # the template is provenance only; a missing one is recorded as None
        return None
    return template if isinstance(template, str) else None

"""Local generation with transformers (+ accelerate device maps, bitsandbytes, GGUF checkpoints).

Throughput comes from batching; correctness from left padding (decoder-only models continue from
the last position, so pads must be on the left) and from restoring the caller's order after the
length sort. Decoding is defined by the submission alone: model-specific generation defaults
(repetition penalties, sampling) shipped in generation_config.json are not applied, so a result
means the same thing for every model.

Loading lives in hf_loading, prompt rendering and truncation in hf_prompts; their public names
are re-exported here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

import torch
from transformers import GenerationConfig as HFGenerationConfig
from transformers import set_seed

from leaderboard.backends.base import TEMPLATE_ORDER, BackendDescription
from leaderboard.backends.batching import length_sorted, run_batches
from leaderboard.backends.environment import device_map_summary, device_name, library_versions
from leaderboard.backends.hf.loading import check_quantization, eos_ids, load
from leaderboard.backends.hf.prompts import (
    PromptEncoder,
    PromptOptions,
    Template,
    pick_template,
)
from leaderboard.core.settings import Quantization
from leaderboard.core.text import TRIM_FIELD, drop_incomplete_tail
from leaderboard.core.types import ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

# the order results.json has always recorded this backend's description in
_ORDER = (
    "backend",
    "model",
    "hub_id",
    "gguf_file",
    "model_revision",
    *TEMPLATE_ORDER,
    "system_prompt",
    "pad_token_added",
    "batch_size",
    "batch_size_setting",
    "max_input_tokens",
    "truncation",
    "device",
    "device_map",
    "versions",
    "stats",
)


AUTO_BATCH_START = 64


@dataclass
class HFCounters:
    """Counters for the benchmark: where tokens and time went."""

    prompt_tokens: int = 0  # real prompt tokens fed to the model
    prompt_padding_tokens: int = 0  # left pads added to make batches rectangular
    completion_tokens: int = 0  # generated up to and including the end-of-turn token
    completion_padding_tokens: int = 0  # steps a finished sequence idled while others went on
    model_time_s: float = 0.0  # wall time inside model.generate
    batches: int = 0
    oom_halvings: int = 0
    batch_fallbacks: int = 0
    truncated_prompts: int = 0


@dataclass(frozen=True)
class _Prompt:
    index: int
    ids: tuple[int, ...]
    truncated_tokens: int = 0


class HFBackend:
    """transformers AutoModelForCausalLM behind the Backend protocol."""

    def __init__(
        self,
        model: str,
        *,
        gguf_file: str | None = None,
        revision: str | None = None,
        dtype: str = "auto",
        quantization: Quantization | None = None,
        trust_remote_code: bool = False,
        prompt: PromptOptions | None = None,
        batch_size: int | Literal["auto"] = "auto",
        device_map: str | dict[str, Any] | None = "auto",
        display_model: str | None = None,
        hub_id: str | None = None,
    ) -> None:
        self.model_id = display_model or model
        self.hub_id = hub_id
        self.gguf_file = gguf_file
        self.quantization = quantization or Quantization()
        self.batch_setting = batch_size
        self.batch_size_used: int | None = batch_size if isinstance(batch_size, int) else None
        self.stats = HFCounters()
        self._auto_cap = AUTO_BATCH_START
        self.cuda = torch.cuda.is_available()
        check_quantization(self.quantization, self.cuda)
        common: dict[str, Any] = {"trust_remote_code": trust_remote_code}
        if revision:
            common["revision"] = revision
        if gguf_file:
            common["gguf_file"] = gguf_file
        loaded = load(
            model,
            common=common,
            dtype=dtype,
            device_map=device_map,
            quantization=self.quantization,
            cuda=self.cuda,
        )
        self.tokenizer, self.model, self.pad_added = (
            loaded.tokenizer,
            loaded.model,
            loaded.pad_added,
        )
        prompt = prompt or PromptOptions()
        self.prompts = PromptEncoder(
            self.tokenizer,
            pick_template(self.tokenizer, prompt.chat_template, prompt.chat_template_text),
            prompt.system_prompt,
            prompt.max_input_tokens,
            prompt.truncation,
        )
        self.eos_ids = eos_ids(self.model, self.tokenizer)

    @classmethod
    def from_submission(cls, sub: Submission) -> HFBackend:
        resolved = sub.resolve_model()
        return cls(
            resolved.path_or_id,
            gguf_file=resolved.gguf_file,
            revision=sub.revision if resolved.source == "hub" else None,
            dtype=sub.dtype,
            quantization=sub.quantization,
            trust_remote_code=sub.trust_remote_code,
            prompt=PromptOptions.from_submission(sub),
            batch_size=sub.batch_size,
            device_map=sub.device_map,
            display_model=sub.model,
            hub_id=sub.hub_id,
        )

    # ------------------------------------------------------------------ prompts

    @property
    def template(self) -> Template:
        return self.prompts.template

    @property
    def system_prompt(self) -> str:
        return self.prompts.system_prompt

    @property
    def max_input_tokens(self) -> int | None:
        return self.prompts.max_input_tokens

    @property
    def truncation(self) -> str:
        return self.prompts.truncation

    def render(self, request: ChatRequest) -> tuple[str, bool]:
        """The prompt text and whether the tokenizer must add its special tokens (see
        PromptEncoder.render for how the system prompt is passed)."""
        return self.prompts.render(request)

    def encode(self, request: ChatRequest) -> tuple[list[int], int]:
        """Token ids of the rendered prompt and how many tokens truncation removed."""
        return self.prompts.encode(request)

    # ------------------------------------------------------------------ generation

    def generate(
        self, requests: Sequence[ChatRequest], config: GenerationConfig
    ) -> list[Completion]:
        results: list[Completion | None] = [None] * len(requests)
        prompts: list[_Prompt] = []
        for i, request in enumerate(requests):
            try:
                ids, cut = self.encode(request)
            except Exception as exc:
                results[i] = Completion("", error=f"{type(exc).__name__}: {exc}")
                continue
            prompts.append(_Prompt(i, tuple(ids), cut))
            self.stats.truncated_prompts += bool(cut)
        order = length_sorted([len(p.ids) for p in prompts])
        items = [prompts[j] for j in order]
        auto = self.batch_setting == "auto"
        # auto: the cap only shrinks (on OOM); a small call does not limit later large ones
        start = min(self._auto_cap, max(1, len(items))) if auto else int(self.batch_setting)
        if not config.greedy:
            set_seed(config.seed)
        outcome = run_batches(
            items,
            start,
            lambda batch: self._generate_batch(batch, config),
            lambda p, exc: Completion(
                "", error=f"{type(exc).__name__}: {exc}", prompt_tokens=len(p.ids)
            ),
            auto=auto,
            empty_cache=torch.cuda.empty_cache if self.cuda else None,
        )
        if items and auto:
            if outcome.halvings:
                self._auto_cap = self.batch_size_used = outcome.batch_size
            else:
                self.batch_size_used = max(self.batch_size_used or 0, outcome.batch_size)
        self.stats.oom_halvings += outcome.halvings
        self.stats.batch_fallbacks += outcome.fallbacks
        for prompt, completion in zip(items, outcome.results, strict=True):
            results[prompt.index] = completion
        return [c for c in results if c is not None]

    def _hf_config(self, config: GenerationConfig) -> HFGenerationConfig:
        kw: dict[str, Any] = {
            "max_new_tokens": config.max_new_tokens,
            "do_sample": not config.greedy,
            "eos_token_id": sorted(self.eos_ids),
            "pad_token_id": self.tokenizer.pad_token_id,
            # the raw logits of each generated token, for the answer's mean log-probability
            "output_logits": True,
            "return_dict_in_generate": True,
        }
        if not config.greedy:
            kw |= {"temperature": config.temperature, "top_p": config.top_p, "top_k": None}
        return HFGenerationConfig(**kw)

    @torch.inference_mode()
    def _generate_batch(self, batch: list[_Prompt], config: GenerationConfig) -> list[Completion]:
        width = max(len(p.ids) for p in batch)
        pad = self.tokenizer.pad_token_id
        input_ids = torch.tensor([[pad] * (width - len(p.ids)) + list(p.ids) for p in batch])
        mask = torch.tensor([[0] * (width - len(p.ids)) + [1] * len(p.ids) for p in batch])
        device = self.model.device
        t0 = time.perf_counter()
        out = self.model.generate(
            input_ids=input_ids.to(device),
            attention_mask=mask.to(device),
            generation_config=self._hf_config(config),
        )
        elapsed = time.perf_counter() - t0
        generated = out.sequences[:, width:].tolist()
        completions = []
        for i, (prompt, row) in enumerate(zip(batch, generated, strict=True)):
            n = next((k + 1 for k, tok in enumerate(row) if tok in self.eos_ids), len(row))
            decoded = self.tokenizer.decode(row[:n], skip_special_tokens=True).strip()
            text, trimmed = drop_incomplete_tail(decoded)
            extra: dict[str, object] = {TRIM_FIELD: True} if trimmed else {}
            if prompt.truncated_tokens:
                extra["truncated_tokens"] = prompt.truncated_tokens
            completions.append(
                Completion(
                    text,
                    prompt_tokens=len(prompt.ids),
                    completion_tokens=n,
                    latency_s=elapsed / len(batch),
                    mean_logprob=_mean_logprob(out.logits, i, row[:n]),
                    extra=extra | {"batch_size": len(batch)},
                )
            )
            self.stats.completion_padding_tokens += len(row) - n
            self.stats.completion_tokens += n
        self.stats.prompt_tokens += sum(len(p.ids) for p in batch)
        self.stats.prompt_padding_tokens += sum(width - len(p.ids) for p in batch)
        self.stats.model_time_s += elapsed
        self.stats.batches += 1
        return completions

    # ------------------------------------------------------------------ provenance

    def describe(self) -> BackendDescription:
        cfg = self.model.config
        return BackendDescription(
            backend="hf",
            model=self.model_id,
            model_revision=getattr(cfg, "_commit_hash", None),
            dtype=str(self.model.dtype).removeprefix("torch."),
            quantization=self.quantization.describe(),
            chat_template_sha256=self.template.sha256,
            chat_template_source=self.template.source,
            batch_size=self.batch_size_used,
            device=device_name(),
            versions=library_versions(),
            extra={
                "hub_id": self.hub_id,
                "gguf_file": self.gguf_file,
                "system_prompt": self.template.system_used or self.system_prompt,
                "pad_token_added": self.pad_added,
                "batch_size_setting": self.batch_setting,
                "max_input_tokens": self.max_input_tokens,
                "truncation": self.truncation,
                "device_map": device_map_summary(self.model),
                "stats": asdict(self.stats),
            },
            order=_ORDER,
        )


def _mean_logprob(logits: Sequence[torch.Tensor], row: int, tokens: Sequence[int]) -> float | None:
    """Mean log-probability of one row's generated tokens under the model's raw (unprocessed)
    next-token distribution at each step: `logits[k][row]` scored `tokens[k]`. Padding steps
    after the row finished are not counted; the prompt never is."""
    if not tokens:
        return None
    total = 0.0
    for k, tok in enumerate(tokens):
        step = logits[k][row].float()
        total += float(step[tok] - torch.logsumexp(step, dim=-1))
    return total / len(tokens)

"""Local generation with transformers (+ accelerate device maps, bitsandbytes, GGUF checkpoints).

Throughput comes from batching; correctness from left padding (decoder-only models continue from
the last position, so pads must be on the left) and from restoring the caller's order after the
length sort. Decoding is defined by the submission alone: model-specific generation defaults
(repetition penalties, sampling) shipped in generation_config.json are not applied, so a result
means the same thing for every model.
"""

from __future__ import annotations

import hashlib
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig, set_seed
from transformers import GenerationConfig as HFGenerationConfig

from leaderboard.backends.batching import length_sorted, run_batches
from leaderboard.backends.environment import (
    data_parallel_rank,
    device_map_summary,
    device_name,
    library_versions,
    log_once,
)
from leaderboard.config import Quantization
from leaderboard.types import ChatMessage, ChatRequest, Completion, GenerationConfig

if TYPE_CHECKING:
    from leaderboard.config import Submission

AUTO_BATCH_START = 64
_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
FALLBACK_FORMAT = "{system}\n\n{user}"  # used when a tokenizer has no chat template


@dataclass
class GenStats:
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


@dataclass
class _Template:
    source: Literal["tokenizer", "path", "fallback", "none"]
    text: str | None
    system_used: str = field(default="")

    @property
    def sha256(self) -> str:
        return hashlib.sha256((self.text or FALLBACK_FORMAT).encode()).hexdigest()


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
        chat_template: str = "auto",
        chat_template_text: str | None = None,
        system_prompt: Literal["system", "merge", "none"] = "system",
        batch_size: int | Literal["auto"] = "auto",
        max_input_tokens: int | None = None,
        truncation: Literal["error", "left_docs"] = "error",
        device_map: str | dict[str, Any] | None = "auto",
        display_model: str | None = None,
        hub_id: str | None = None,
    ) -> None:
        self.model_id = display_model or model
        self.hub_id = hub_id
        self.gguf_file = gguf_file
        self.quantization = quantization or Quantization()
        self.system_prompt = system_prompt
        self.batch_setting = batch_size
        self.batch_size_used: int | None = batch_size if isinstance(batch_size, int) else None
        self.max_input_tokens = max_input_tokens
        self.truncation = truncation
        self.stats = GenStats()
        self._auto_cap = AUTO_BATCH_START
        self.cuda = torch.cuda.is_available()
        if self.quantization.mode != "none" and not self.cuda:
            warnings.warn(
                f"{self.quantization.mode} bitsandbytes quantization without CUDA runs on the CPU "
                "backend of bitsandbytes: it works but is slow; use a CUDA GPU for real runs",
                stacklevel=2,
            )
        if self.quantization.mode == "8bit":
            log_once("bitsandbytes.autograd._functions")
        common: dict[str, Any] = {"trust_remote_code": trust_remote_code}
        if revision:
            common["revision"] = revision
        if gguf_file:
            common["gguf_file"] = gguf_file
        self.tokenizer = AutoTokenizer.from_pretrained(model, padding_side="left", **common)
        self.tokenizer.padding_side = "left"  # some remote-code tokenizers ignore the argument
        self.pad_added = self.tokenizer.pad_token_id is None
        if self.pad_added:  # pads are masked out, so reusing EOS is safe
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = AutoModelForCausalLM.from_pretrained(
            model, **common, **self._load_kwargs(dtype, device_map)
        )
        self.model.eval()
        self.template = self._pick_template(chat_template, chat_template_text)
        self.eos_ids = self._eos_ids()

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
            chat_template=sub.chat_template,
            chat_template_text=sub.resolve_chat_template(),
            system_prompt=sub.system_prompt,
            batch_size=sub.batch_size,
            max_input_tokens=sub.max_input_tokens,
            truncation=sub.truncation,
            device_map=sub.device_map,
            display_model=sub.model,
            hub_id=sub.hub_id,
        )

    # ------------------------------------------------------------------ loading

    def _load_kwargs(self, dtype: str, device_map: str | dict[str, Any] | None) -> dict[str, Any]:
        kw: dict[str, Any] = {}
        if dtype in _DTYPES:
            kw["dtype"] = _DTYPES[dtype]
        elif self.gguf_file:  # GGUF weights are dequantized on load; float32 is fastest on CPU
            kw["dtype"] = torch.bfloat16 if self.cuda else torch.float32
        else:
            kw["dtype"] = "auto"
        q = self.quantization
        if q.mode == "4bit":
            kw["quantization_config"] = BitsAndBytesConfig(
                load_in_4bit=True,
                bnb_4bit_quant_type=q.quant_type,
                bnb_4bit_compute_dtype=_DTYPES[q.compute_dtype],
                bnb_4bit_use_double_quant=q.double_quant,
            )
        elif q.mode == "8bit":
            kw["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
        _rank, world, local = data_parallel_rank()
        if self.cuda and world > 1:  # data parallel: one full copy per process, on its own GPU
            kw["device_map"] = {"": f"cuda:{local}"}
        elif self.cuda and device_map is not None:
            kw["device_map"] = device_map
        elif q.mode != "none":
            kw["device_map"] = {"": "cpu"}
        return kw

    def _pick_template(self, setting: str, text: str | None) -> _Template:
        if setting == "none":
            return _Template("none", None)
        if text is not None:
            self.tokenizer.chat_template = text
            return _Template("path", text)
        existing = getattr(self.tokenizer, "chat_template", None)
        if isinstance(existing, dict):  # several named templates: the default one is used
            existing = existing.get("default")
        if existing:
            return _Template("tokenizer", existing)
        return _Template("fallback", None)

    def _eos_ids(self) -> set[int]:
        ids = self.model.generation_config.eos_token_id
        ids = [ids] if isinstance(ids, int) else list(ids or [])
        if self.tokenizer.eos_token_id is not None:
            ids.append(self.tokenizer.eos_token_id)
        return set(ids)

    # ------------------------------------------------------------------ prompts

    def render(self, request: ChatRequest) -> tuple[str, bool]:
        """The prompt text and whether the tokenizer must add its special tokens (fallback only).

        How the system prompt was passed is recorded in describe(): "system", "merge" (prepended
        to the first user turn), "merge (template has no system role)" when a template rejected a
        system turn, "none" (dropped) or "absent" (the request had none).
        """
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        turns = [m for m in request.messages if m.role != "system"]
        mode = self.system_prompt if system else "absent"
        if self.template.text is None:  # "none" or "fallback": plain concatenation
            keep = [system] if mode in ("system", "merge") else []
            self.template.system_used = mode
            return "\n\n".join([*keep, *(m.content for m in turns)]), True
        text = None
        if mode == "system":
            try:
                text = self._apply([ChatMessage("system", system), *turns])
            except Exception as exc:  # templates without a system role raise: merge instead
                if "system" not in str(exc).lower():
                    raise
                mode = "merge (template has no system role)"
        if text is None:
            if mode.startswith("merge") and turns:
                first = turns[0]
                turns = [ChatMessage(first.role, f"{system}\n\n{first.content}"), *turns[1:]]
            text = self._apply(turns)
        self.template.system_used = mode
        return text, False

    def _apply(self, messages: list[ChatMessage]) -> str:
        return self.tokenizer.apply_chat_template(
            [{"role": m.role, "content": m.content} for m in messages],
            tokenize=False,
            add_generation_prompt=True,
        )

    def encode(self, request: ChatRequest) -> tuple[list[int], int]:
        """Token ids of the rendered prompt and how many tokens truncation removed."""
        text, special = self.render(request)
        ids = self.tokenizer(text, add_special_tokens=special)["input_ids"]
        limit = self.max_input_tokens
        if limit is None or len(ids) <= limit:
            return ids, 0
        if self.truncation == "error":
            raise PromptTooLong(
                f"prompt has {len(ids)} tokens, more than max_input_tokens={limit}; raise "
                "max_input_tokens or set truncation: left_docs"
            )
        return self._truncate_docs(request, len(ids), limit)

    def _truncate_docs(self, request: ChatRequest, n: int, limit: int) -> tuple[list[int], int]:
        """Keep the start of the documents and all of the question: the last user message is
        "<documents>\\n\\n<question>", so tokens are cut from the end of the documents part."""
        msgs = list(request.messages)
        last = max(i for i, m in enumerate(msgs) if m.role == "user")
        head, sep, question = msgs[last].content.rpartition("\n\n")
        if not sep:
            raise PromptTooLong(
                f"prompt has {n} tokens > max_input_tokens={limit} and no documents"
            )
        head_ids = self.tokenizer(head, add_special_tokens=False)["input_ids"]
        excess = n - limit
        for _ in range(4):  # re-tokenizing at the cut can differ by a few tokens: retry tighter
            keep = len(head_ids) - excess
            if keep <= 0:
                break
            cut = self.tokenizer.decode(head_ids[:keep], skip_special_tokens=True)
            msgs[last] = ChatMessage("user", f"{cut}{sep}{question}")
            text, special = self.render(ChatRequest(tuple(msgs)))
            ids = self.tokenizer(text, add_special_tokens=special)["input_ids"]
            if len(ids) <= limit:
                return ids, n - len(ids)
            excess += len(ids) - limit + 2
        raise PromptTooLong(
            f"prompt has {n} tokens and stays over max_input_tokens={limit} even without documents"
        )

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
        generated = out[:, width:].tolist()
        completions = []
        for prompt, row in zip(batch, generated, strict=True):
            n = next((k + 1 for k, tok in enumerate(row) if tok in self.eos_ids), len(row))
            text = self.tokenizer.decode(row[:n], skip_special_tokens=True).strip()
            extra = {"truncated_tokens": prompt.truncated_tokens} if prompt.truncated_tokens else {}
            completions.append(
                Completion(
                    text,
                    prompt_tokens=len(prompt.ids),
                    completion_tokens=n,
                    latency_s=elapsed / len(batch),
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

    def describe(self) -> dict[str, object]:
        cfg = self.model.config
        return {
            "backend": "hf",
            "model": self.model_id,
            "hub_id": self.hub_id,
            "gguf_file": self.gguf_file,
            "model_revision": getattr(cfg, "_commit_hash", None),
            "dtype": str(self.model.dtype).removeprefix("torch."),
            "quantization": self.quantization.describe(),
            "chat_template_sha256": self.template.sha256,
            "chat_template_source": self.template.source,
            "system_prompt": self.template.system_used or self.system_prompt,
            "pad_token_added": self.pad_added,
            "batch_size": self.batch_size_used,
            "batch_size_setting": self.batch_setting,
            "max_input_tokens": self.max_input_tokens,
            "truncation": self.truncation,
            "device": device_name(),
            "device_map": device_map_summary(self.model),
            "versions": library_versions(),
            "stats": asdict(self.stats),
        }


class PromptTooLong(ValueError):
    """A prompt exceeds max_input_tokens under the 'error' truncation policy."""

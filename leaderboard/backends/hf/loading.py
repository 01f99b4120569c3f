"""Loading for the hf backend: from_pretrained arguments (dtype, bitsandbytes, device placement,
GGUF), the tokenizer set up for left padding, and the ids that end a turn.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass
from typing import Any

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig

from leaderboard.backends.environment import cpu_info, data_parallel_rank, log_once, native_bf16
from leaderboard.core.settings import Quantization

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass
class Loaded:
    tokenizer: Any
    model: Any
    pad_added: bool  # the tokenizer had no pad token: EOS stands in (pads are masked out)


def _dtype(dtype: str, gguf_file: str | None) -> object:
    """The compute dtype. GGUF weights are dequantized on load, to float32 on every machine unless
    the submission says otherwise: a default that followed the hardware (bfloat16 on a GPU) would
    make an entry's answers depend on the machine that regenerates them, which its fingerprint
    (`dtype: auto`) could not tell."""
    if dtype in DTYPES:
        return DTYPES[dtype]
    if gguf_file:
        return torch.float32
    return "auto"


def slow_bf16_note(
    dtype: object, device_type: str, flags: frozenset[str] | None = None
) -> str | None:
    """The one line a bfloat16 model on a CPU without native bf16 (no AVX512_BF16, no AMX) prints:
    it runs, with torch emulating bf16 through float32, slower than float32 itself. None
    elsewhere. `flags` default: this machine's."""
    if dtype != torch.bfloat16 or device_type != "cpu":
        return None
    name, found = cpu_info()
    found = found if flags is None else flags
    if native_bf16(found):
        return None
    return (
        f"note: dtype bfloat16 on {name or 'a CPU'}, which has no native bf16 (avx512_bf16 or "
        "amx_bf16): it runs emulated, slower than float32"
    )


def load_kwargs(
    dtype: str,
    device_map: str | dict[str, Any] | None,
    quantization: Quantization,
    *,
    gguf_file: str | None,
    cuda: bool,
) -> dict[str, Any]:
    """from_pretrained keyword arguments for the model (not the tokenizer)."""
    kw: dict[str, Any] = {"dtype": _dtype(dtype, gguf_file)}
    q = quantization
    if q.mode == "4bit":
        kw["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type=q.quant_type,
            bnb_4bit_compute_dtype=DTYPES[q.compute_dtype],
            bnb_4bit_use_double_quant=q.double_quant,
        )
    elif q.mode == "8bit":
        kw["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
    _rank, world, local = data_parallel_rank()
    if cuda and world > 1:  # data parallel: one full copy per process, on its own GPU
        kw["device_map"] = {"": f"cuda:{local}"}
    elif cuda and device_map is not None:
        kw["device_map"] = device_map
    elif q.mode != "none":
        kw["device_map"] = {"": "cpu"}
    return kw


def check_quantization(quantization: Quantization, cuda: bool) -> None:
    """Warn about bitsandbytes on the CPU (slow) and silence its 8-bit notice once."""
    if quantization.mode != "none" and not cuda:
        warnings.warn(
            f"{quantization.mode} bitsandbytes quantization without CUDA runs on the CPU "
            "backend of bitsandbytes: it works but is slow; use a CUDA GPU for real runs",
            stacklevel=3,
        )
    if quantization.mode == "8bit":
        log_once("bitsandbytes.autograd._functions")


def load(
    model: str,
    *,
    common: dict[str, Any],
    dtype: str,
    device_map: str | dict[str, Any] | None,
    quantization: Quantization,
    cuda: bool,
) -> Loaded:
    """Tokenizer (left padding, a pad token) and the model in eval mode."""
    tokenizer = AutoTokenizer.from_pretrained(model, padding_side="left", **common)
    tokenizer.padding_side = "left"  # some remote-code tokenizers ignore the argument
    pad_added = tokenizer.pad_token_id is None
    if pad_added:  # pads are masked out, so reusing EOS is safe
        tokenizer.pad_token = tokenizer.eos_token
    kw = load_kwargs(dtype, device_map, quantization, gguf_file=common.get("gguf_file"), cuda=cuda)
    loaded = AutoModelForCausalLM.from_pretrained(model, **common, **kw)
    loaded.eval()
    note = slow_bf16_note(loaded.dtype, loaded.device.type)
    if note:
        print(note, file=sys.stderr, flush=True)
    return Loaded(tokenizer, loaded, pad_added)


def eos_ids(model: Any, tokenizer: Any) -> set[int]:
    """Every id that ends a turn: the generation config's and the tokenizer's."""
    ids = model.generation_config.eos_token_id
    ids = [ids] if isinstance(ids, int) else list(ids or [])
    if tokenizer.eos_token_id is not None:
        ids.append(tokenizer.eos_token_id)
    return set(ids)

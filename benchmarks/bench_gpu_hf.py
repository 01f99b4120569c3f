"""Throughput of the transformers backend (HFBackend) on one GPU, for a 7B-shaped model.

Why: docs/serving.md estimates a run's time from tokens per instance (`t = P / R_p + A / R_d`);
this measures R_p and R_d for the engine most 7B submissions use (transformers + bitsandbytes,
`batch_size: auto`) at RGB's prompt and answer lengths, so the formula gets measured figures.

No hub is reachable where this runs, so the weights are random with the shape of Qwen2-7B
(hidden 3584, 28 layers, 28 heads / 4 KV heads, MLP 18944) and the tokenizer is the tests' small
BPE one: the vocabulary (600 instead of 152,064) drops the output layer's ~0.5B of 7.6B
parameters, so the figures are an upper bound by a few percent. Random weights also make answers
stop at an end token at random: the answer rate is measured from the tokens actually generated.

Per quantization mode: load, then the same N prompts of P tokens with max_new_tokens 1 (prefill,
R_p = prompt tokens / wall) and A (R_d = extra tokens / extra wall), twice: the first pair is a
warm-up and only the second is reported.

    python benchmarks/bench_gpu_hf.py --modes none,4bit,8bit --n 64 \
        --prompt-tokens 728 --answer-tokens 20
    python benchmarks/bench_gpu_hf.py --shape tiny --allow-cpu   # checks the script on a CPU
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from leaderboard.backends.environment import device_name, library_versions
from leaderboard.backends.hf.backend import HFBackend
from leaderboard.core.settings import Quantization
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig
from tests.tiny_model import build_tokenizer

SHAPES = {  # Qwen2-7B's published config; "tiny" only checks the script
    "7b": dict(
        hidden_size=3584,
        intermediate_size=18944,
        num_hidden_layers=28,
        num_attention_heads=28,
        num_key_value_heads=4,
    ),
    "tiny": dict(
        hidden_size=128,
        intermediate_size=256,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
    ),
}
ZH_PROTOCOL_PROMPTS = 2188  # unique prompts of the complete zh protocol (docs/serving.md)


def build_model(folder: Path, shape: str, dtype: torch.dtype, device: str) -> tuple[Path, int]:
    """Random weights of `shape`, saved with the tests' tokenizer; returns (folder, parameters)."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tok = build_tokenizer()
    eos = [tok.convert_tokens_to_ids(t) for t in ("<|eos|>", "<|im_end|>")]
    config = Qwen2Config(
        vocab_size=len(tok),
        max_position_embeddings=32768,
        tie_word_embeddings=False,
        bos_token_id=tok.bos_token_id,
        eos_token_id=eos,
        pad_token_id=tok.pad_token_id,
        **SHAPES[shape],
    )
    torch.manual_seed(0)
    with torch.device(device):
        model = Qwen2ForCausalLM(config).to(dtype)
    params = sum(p.numel() for p in model.parameters())
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = tok.pad_token_id
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    del model
    return folder, params


def requests(folder: Path, n: int, prompt_tokens: int) -> list[ChatRequest]:
    """N distinct RGB-shaped conversations of about `prompt_tokens` tokens each."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder)
    words = [
        "the",
        "prize",
        "went",
        "to",
        "a",
        "team",
        "in",
        "the",
        "city",
        "after",
        "the",
        "final",
        "match",
        "of",
        "the",
        "year",
    ]
    out = []
    for i in range(n):
        body, k = [], i
        while len(tok(" ".join(body))["input_ids"]) < prompt_tokens - 40:
            body.extend(words[k % len(words)] for _ in range(16))
            k += 7
        out.append(
            ChatRequest(
                (
                    ChatMessage("system", "You are an accurate and reliable AI assistant."),
                    ChatMessage(
                        "user",
                        "Document:\n" + " ".join(body) + f"\n\nQuestion:\nWho won prize {i}?",
                    ),
                )
            )
        )
    return out


def measure(backend: HFBackend, reqs: list[ChatRequest], new: int, sync) -> tuple[float, int, int]:
    """(wall seconds, prompt tokens, completion tokens) of one pass over `reqs`."""
    before = dict(vars(backend.stats))
    sync()
    t0 = time.perf_counter()
    out = backend.generate(reqs, GenerationConfig(max_new_tokens=new))
    sync()
    wall = time.perf_counter() - t0
    errors = [c.error for c in out if c.error]
    if errors:
        raise SystemExit(f"bench_gpu_hf: {len(errors)} failed answers, first: {errors[0]}")
    s = vars(backend.stats)
    return (
        wall,
        s["prompt_tokens"] - before["prompt_tokens"],
        s["completion_tokens"] - before["completion_tokens"],
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", choices=sorted(SHAPES), default="7b")
    ap.add_argument("--modes", default="none,4bit,8bit")
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--prompt-tokens", type=int, default=728)
    ap.add_argument("--answer-tokens", type=int, default=20)
    ap.add_argument(
        "--work", default=None, help="folder for the saved weights (default: a temp dir)"
    )
    ap.add_argument("--json", default=None, help="also write the rows here")
    ap.add_argument("--allow-cpu", action="store_true")
    a = ap.parse_args()
    cuda = torch.cuda.is_available()
    if not cuda and not a.allow_cpu:
        raise SystemExit(
            "bench_gpu_hf: no CUDA device visible to torch (--allow-cpu checks the script)"
        )
    warnings.filterwarnings("ignore")
    dtype_name = "bfloat16" if cuda else "float32"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    work = Path(a.work or tempfile.mkdtemp(prefix="bench_gpu_hf_"))
    t0 = time.perf_counter()
    folder, params = build_model(
        work / a.shape, a.shape, getattr(torch, dtype_name), "cuda" if cuda else "cpu"
    )
    print(f"device: {device_name()}  versions: {library_versions()}")
    print(
        f"model: random {a.shape} shape, {params / 1e9:.2f}B parameters, built and saved in "
        f"{time.perf_counter() - t0:.0f}s; N={a.n} P~{a.prompt_tokens} A<={a.answer_tokens}",
        flush=True,
    )
    reqs = requests(folder, a.n, a.prompt_tokens)
    rows = []
    for mode in a.modes.split(","):
        t1 = time.perf_counter()
        b = HFBackend(
            str(folder),
            quantization=Quantization(mode=mode, compute_dtype=dtype_name),
            batch_size="auto",
            dtype=dtype_name,
        )
        load = time.perf_counter() - t1
        if cuda:
            torch.cuda.reset_peak_memory_stats()
        # The two passes run twice and the first pair is dropped: on an H200 the first mode
        # measured in a process decoded 2-3x slower than the same mode measured again later,
        # even after a 2-token warm-up at the measured batch shape (benchmarks/README.md).
        for _ in range(2):
            w1, p1, _ = measure(b, reqs, 1, sync)
            wa, pa, ca = measure(b, reqs, a.answer_tokens, sync)
        r_p = p1 / w1
        r_d = (ca - a.n) / max(wa - w1, 1e-9)
        row = {
            "mode": mode,
            "batch_size": b.batch_size_used,
            "load_s": round(load, 1),
            "prompt_tokens_per_answer": round(pa / a.n),
            "answer_tokens_per_answer": round(ca / a.n, 1),
            "R_p_tok_s": round(r_p),
            "R_d_tok_s": round(r_d),
            "answers_per_s": round(a.n / wa, 2),
            "zh_protocol_min": round(ZH_PROTOCOL_PROMPTS * wa / a.n / 60, 1),
            "peak_mem_gib": round(torch.cuda.max_memory_allocated() / 2**30, 1) if cuda else None,
        }
        rows.append(row)
        print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        del b
        if cuda:
            torch.cuda.empty_cache()
    if a.json:
        Path(a.json).write_text(
            json.dumps(
                {
                    "device": device_name(),
                    "shape": a.shape,
                    "params": params,
                    "n": a.n,
                    "rows": rows,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()

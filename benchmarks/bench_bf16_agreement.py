"""Label agreement of bfloat16 with float32 on the same RGB prompts: what a new entry
with `dtype: bfloat16` reports before it may use it.

The hf backend generates the same N zh + N en RGB instances twice, each in its own process: the
GGUF dequantized to float32 (`hf32`) and to bfloat16 (`hf16`), greedy, the entry's
max_new_tokens, one prompt at a time (the instance mix of bench_backends.py: noise 0.0 / 0.4,
rejection, integration, counterfactual of the first records). It prints the share of identical
answers and, per scoring mode (strict, rgb), the share with the same labels (correct, rejected,
error detected: all three, then each), plus each engine's seconds per instance. bfloat16 runs on
any CPU: without native bf16 (AVX512_BF16, AMX) it is emulated and slow, but its answers are
bfloat16's, so the agreement measured there holds (the speed does not).

    nice -n 10 python benchmarks/bench_bf16_agreement.py --model 0.5b --n 50
    python benchmarks/bench_bf16_agreement.py --model smollm2 --n 1     # smoke

Prints a markdown table to paste into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path
from typing import Any

from bench_backends import (
    MODELS,
    NAMES,
    REPO,
    instances,
    labels,
    machine,
    machine_header,
    run_engine,
)

MODES = ("rgb", "strict")
LABELS = ("correct", "rejected", "error detected")


def _share(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.1f} %)" if n else "-"


def agreement(a: dict[str, Any], b: dict[str, Any], items: dict[str, Any]) -> list[str]:
    """Markdown rows: identical text, then per mode all labels and each label, over the
    instances both engines answered without error."""
    pairs = [
        (x, y)
        for x, y in zip(a["rows"], b["rows"], strict=True)
        if not x["error"] and not y["error"]
    ]
    n = len(pairs)
    rows = [f"| identical text | {_share(sum(x['text'] == y['text'] for x, y in pairs), n)} |"]
    both = [
        (labels(items, x["key"], x["text"]), labels(items, y["key"], y["text"])) for x, y in pairs
    ]
    rows.append(f"| same labels in both modes | {_share(sum(p == q for p, q in both), n)} |")
    for m, mode in enumerate(MODES):
        rows.append(f"| {mode}: same labels | {_share(sum(p[m] == q[m] for p, q in both), n)} |")
        for k, name in enumerate(LABELS):
            same = sum(p[m][k] == q[m][k] for p, q in both)
            rows.append(f"| {mode}: same {name} | {_share(same, n)} |")
    errors = len(a["rows"]) - n
    if errors:
        rows.append(f"| left out (an engine failed) | {errors} |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="0.5b", choices=sorted(MODELS))
    ap.add_argument("--n", type=int, default=8, help="instances per language (default 8)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--data-dir", type=Path, default=REPO, help="folder holding data_zh/, data_en/")
    args = ap.parse_args()
    m = machine()
    print(machine_header(m))
    print(f"load average at start: {m['load']:.1f}", flush=True)
    sub_path = MODELS[args.model]
    items = {it.instance.key: it for it in instances(sub_path, args.n, args.data_dir)}
    results = {}
    for engine in ("hf32", "hf16"):
        print(f"running {args.model} {engine} ...", flush=True)
        result = run_engine(sub_path, engine, args.n, args.threads, args.data_dir)
        if isinstance(result, str):
            raise SystemExit(f"{engine}: {result}")
        results[engine] = result
    print(f"load average at end: {os.getloadavg()[0]:.1f}\n")
    print(machine_header(m) + (" (bf16 native)" if m["native_bf16"] else " (bf16 emulated)"))
    print(
        f"\n{NAMES[args.model]}, hf backend, bfloat16 against float32: {args.n} zh + {args.n} en "
        f"RGB instances, greedy, {args.threads} threads\n"
    )
    print("| | bfloat16 vs float32 |")
    print("|---|---:|")
    print("\n".join(agreement(results["hf32"], results["hf16"], items)))
    for engine, r in results.items():
        s = [row["s"] for row in r["rows"]]
        print(
            f"| {engine} s/instance (median), load s, peak RSS MB | "
            f"{statistics.median(s):.2f}, {r['load_s']:.1f}, {r['rss_mb']:.0f} |"
        )


if __name__ == "__main__":
    main()

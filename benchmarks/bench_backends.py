"""hf versus llamacpp on the same GGUF, side by side: seconds per instance, peak RSS, and whether
the two engines' answers get the same labels (issue 21).

The same N zh and N en RGB instances (counterfactual and noise 0.0/0.4 of the first records, the
prompts the runner builds) go through each backend in its own subprocess, so the peak RSS of one
does not hide in the other's. Greedy decoding and the submission's max_new_tokens; each backend
loads once (load time reported apart). Agreement: the two answers' strict and rgb labels
(correct, rejection, error detection) per instance, and identical text.

    nice -n 10 python benchmarks/bench_backends.py --models 0.5b,1.5b --n 8

Prints one table per model; the README of this folder keeps the measured output.
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
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODELS = {
    "0.5b": "submissions/qwen2.5-coder-0.5b-instruct",
    "1.5b": "submissions/qwen2.5-coder-1.5b-instruct",
}


def _instances(sub_path: str, n: int) -> list[object]:
    from leaderboard.core.submission import load_submission
    from leaderboard.run.plan import build_plan
    from leaderboard.run.selection import Selection

    sub = load_submission(REPO / sub_path)
    items = []
    for lang in ("zh", "en"):
        selection = Selection(
            limit=max(1, n // 3 + 1),
            languages=(lang,),  # type: ignore[arg-type]
            abilities=("noise", "counterfactual"),
            noise_rates={"noise": (0.0, 0.4)},
            allow_partial_data=True,
        )
        plan = build_plan(sub, REPO, selection)
        by_split: dict[str, list[object]] = {}
        for it in plan.items:
            by_split.setdefault(f"{it.instance.ability}/{it.instance.noise_rate}", []).append(it)
        picked: list[object] = []
        while len(picked) < n and any(by_split.values()):  # round-robin over the splits
            for split in list(by_split):
                if by_split[split] and len(picked) < n:
                    picked.append(by_split[split].pop(0))
        items += picked
    return items


def worker(sub_path: str, backend_name: str, n: int, out: Path) -> None:
    """One backend in this process: load, generate, write answers and timings as JSON."""
    from leaderboard.backends.registry import load_backend
    from leaderboard.core.submission import load_submission

    sub = load_submission(REPO / sub_path)
    if backend_name == "hf":
        sub = sub.model_copy(update={"backend": "hf", "llamacpp": None, "dtype": "float32"})
        sub._source_path = (REPO / sub_path / "model.yaml").resolve()
    items = _instances(sub_path, n)
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
                "key": it.instance.key,  # type: ignore[attr-defined]
                "text": c.text,
                "error": c.error,
                "s": time.perf_counter() - t,
                "prompt_tokens": c.prompt_tokens,
                "completion_tokens": c.completion_tokens,
            }
        )
    # The same prompts again with one new token: the prompt's share of the time (prefill), so
    # the table can say whether the prompt or the answer costs what (RGB prompts are long and the
    # answers short, so prefill dominates, where float32 GEMM and quantized kernels differ most).
    one = dataclasses.replace(config, max_new_tokens=1)
    for it, row in zip(items, rows, strict=True):
        t = time.perf_counter()
        backend.generate([it.request], one)  # type: ignore[attr-defined]
        row["s_prefill"] = time.perf_counter() - t
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.write_text(json.dumps({"load_s": load_s, "rss_mb": rss_mb, "rows": rows}), "utf-8")


def _labels(sub_path: str, n: int, rows: list[dict]) -> list[tuple]:
    from leaderboard.scoring.score import score

    items = {it.instance.key: it.instance for it in _instances(sub_path, n)}  # type: ignore[attr-defined]
    out = []
    for r in rows:
        inst = items[r["key"]]
        labels = []
        for mode in ("rgb", "strict"):
            s = score(r["text"], inst, mode)  # type: ignore[arg-type]
            labels.append((s.correct, s.rejected, s.error_detected))
        out.append(tuple(labels))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="0.5b,1.5b")
    ap.add_argument("--n", type=int, default=8, help="instances per language")
    ap.add_argument("--worker", nargs=4, metavar=("SUB", "BACKEND", "N", "OUT"))
    args = ap.parse_args()
    if args.worker:
        sub_path, backend_name, n, out = args.worker
        worker(sub_path, backend_name, int(n), Path(out))
        return
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    for name in args.models.split(","):
        sub_path = MODELS[name]
        results = {}
        for backend_name in ("llamacpp", "hf"):
            out = Path(f"/tmp/bench_backends_{name}_{backend_name}.json")
            cmd = [
                sys.executable,
                __file__,
                "--worker",
                sub_path,
                backend_name,
                str(args.n),
                str(out),
            ]
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, cwd=REPO)
            results[backend_name] = json.loads(out.read_text("utf-8"))
            results[backend_name]["wall_s"] = time.perf_counter() - t0
        lab = {b: _labels(sub_path, args.n, results[b]["rows"]) for b in results}
        same_text = sum(
            a["text"] == b["text"]
            for a, b in zip(results["llamacpp"]["rows"], results["hf"]["rows"], strict=True)
        )
        same_labels = sum(a == b for a, b in zip(lab["llamacpp"], lab["hf"], strict=True))
        total = len(lab["hf"])
        print(f"\n{name}: {args.n} zh + {args.n} en instances, greedy, one process per backend")
        print(
            "| backend | load s | s/instance zh (median) | s/instance en (median) | "
            "prefill tok/s (median) | decode tok/s (median) | peak RSS MB |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        med = {}
        for b in ("hf", "llamacpp"):
            rows = results[b]["rows"]
            zh = [r["s"] for r in rows if r["key"].startswith("zh/")]
            en = [r["s"] for r in rows if r["key"].startswith("en/")]
            med[b] = statistics.median([r["s"] for r in rows])
            prefill = statistics.median(r["prompt_tokens"] / r["s_prefill"] for r in rows)
            decode = statistics.median(
                (r["completion_tokens"] - 1) / (r["s"] - r["s_prefill"])
                for r in rows
                if (r["completion_tokens"] or 0) > 1 and r["s"] > r["s_prefill"]
            )
            print(
                f"| {b} | {results[b]['load_s']:.1f} | {statistics.median(zh):.2f} | "
                f"{statistics.median(en):.2f} | {prefill:.0f} | {decode:.1f} | "
                f"{results[b]['rss_mb']:.0f} |"
            )
        print(f"speed-up llamacpp vs hf (median s/instance): {med['hf'] / med['llamacpp']:.2f}x")
        print(
            f"identical text: {same_text}/{total}; same labels in both modes: {same_labels}/{total}"
        )
        print(f"load average at end: {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()

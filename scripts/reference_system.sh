#!/usr/bin/env bash
# Evaluate a reference system of the systems track (examples/systems/reference_system.py) as a
# `system` submission, through the runner (fingerprinted, resumable: rerun the same command after a
# stop; only the questions without a prediction are asked again).
#
# Usage: scripts/reference_system.sh SYSTEM_SUBMISSION_DIR RETRIEVER GENERATOR [run options...]
#   RETRIEVER: bm25 | dense | dense-lead | hybrid | hybrid-lead | none; GENERATOR: llamacpp:FILE.gguf | yaml:model.yaml | extractive | paste | refuse
#   e.g. scripts/reference_system.sh submissions/system-bm25-qwen2.5-coder-0.5b bm25 \
#          llamacpp:qwen2.5-coder-0.5b-instruct-q4_k_m.gguf --limit 100 --no-progress
#
# 1. exports the zh and en corpora (`corpus export`, with their licence notice) into .cache/corpus/
#    (RGB_CORPUS_DIR moves it; RGB_CORPUS_LIMIT=N exports the passages of the first N records only);
# 2. starts the system on 127.0.0.1 at the port of the submission's `system.url`;
# 3. runs `python -m leaderboard run SYSTEM_SUBMISSION_DIR [run options...]`;
# 4. stops the system (also on Ctrl-C or error).
set -euo pipefail
cd "$(dirname "$0")/.."
USAGE="usage: scripts/reference_system.sh SYSTEM_SUBMISSION_DIR RETRIEVER GENERATOR [run options]"
SUB="${1:?$USAGE}"
RETRIEVER="${2:?$USAGE}"
GENERATOR="${3:?$USAGE}"
shift 3
PY="${PYTHON:-python}"
CORPUS="${RGB_CORPUS_DIR:-.cache/corpus}"
LIMIT=()  # RGB_CORPUS_LIMIT=N: the corpus of the first N records only (match run --limit N)
[ -n "${RGB_CORPUS_LIMIT:-}" ] && LIMIT=(--limit "$RGB_CORPUS_LIMIT")

PORT="$("$PY" - "$SUB" <<'PYEOF'
import sys
from pathlib import Path
from urllib.parse import urlparse

from leaderboard.core.submission import load_submission

sub = load_submission(Path(sys.argv[1]))
if sub.backend != "system" or sub.system is None:
    sys.exit(f"{sys.argv[1]}: backend is {sub.backend!r}, not 'system'")
url = urlparse(sub.system.url)
if url.hostname not in ("127.0.0.1", "localhost"):
    sys.exit(f"{sys.argv[1]}: system.url {sub.system.url} is not on 127.0.0.1")
print(url.port or 80)
PYEOF
)"

mkdir -p "$CORPUS"
for lang in zh en; do
  "$PY" -m leaderboard corpus export --lang "$lang" --out "$CORPUS/corpus-$lang.jsonl" "${LIMIT[@]}" >/dev/null
done

LOG="$(mktemp)"
PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m examples.systems.reference_system \
  --corpus-dir "$CORPUS" --retriever "$RETRIEVER" --generator "$GENERATOR" --port "$PORT" \
  >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 900); do  # embedding the corpus (dense) or loading the generator takes a while
  grep -q "listening on" "$LOG" && break
  if ! kill -0 "$SERVER" 2>/dev/null; then
    cat "$LOG" >&2
    echo "reference_system.sh: the system did not start" >&2
    exit 1
  fi
  sleep 1
done
grep -q "listening on" "$LOG" || { cat "$LOG" >&2; echo "reference_system.sh: no system after 900 s" >&2; exit 1; }
echo "system: $(grep "listening on" "$LOG")"
"$PY" -m leaderboard run "$SUB" "$@"

#!/usr/bin/env bash
# Evaluate the reference RAG system (tests/rag_system.py: BM25 over the exported passage corpus,
# then a generator from any model.yaml, given the top 5 passages in RGB's prompt) as a `system`
# submission, through the runner (fingerprinted, resumable: rerun the same command after a stop).
#
# Usage: scripts/rag_system.sh SYSTEM_SUBMISSION_DIR GENERATOR_MODEL_YAML [run options...]
#   e.g. scripts/rag_system.sh submissions/example-system-bm25-smollm2 \
#          submissions/smollm2-135m-instruct/model.yaml --limit 30
#
# 1. exports the zh and en corpora (`corpus export`) into .cache/corpus/ (git-ignored);
# 2. starts the system on 127.0.0.1 at the port of the submission's `system.url`;
# 3. runs `python -m leaderboard run SYSTEM_SUBMISSION_DIR [run options...]`;
# 4. stops the system (also on Ctrl-C or error).
# On a shared CPU: OMP_NUM_THREADS=1 nice -n 5 scripts/rag_system.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
SUB="${1:?usage: scripts/rag_system.sh SYSTEM_SUBMISSION_DIR GENERATOR_MODEL_YAML [run options]}"
GEN="${2:?usage: scripts/rag_system.sh SYSTEM_SUBMISSION_DIR GENERATOR_MODEL_YAML [run options]}"
shift 2
PY="${PYTHON:-python}"
CORPUS="${RGB_CORPUS_DIR:-.cache/corpus}"

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
  "$PY" -m leaderboard corpus export --lang "$lang" --out "$CORPUS/corpus-$lang.jsonl" >/dev/null
done

LOG="$(mktemp)"
"$PY" -m tests.rag_system --corpus-dir "$CORPUS" --submission "$GEN" --port "$PORT" >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 600); do  # loading the generator takes a while on a CPU
  grep -q "listening on" "$LOG" && break
  if ! kill -0 "$SERVER" 2>/dev/null; then
    cat "$LOG" >&2
    echo "rag_system.sh: the system did not start" >&2
    exit 1
  fi
  sleep 1
done
grep -q "listening on" "$LOG" || { cat "$LOG" >&2; echo "rag_system.sh: no system after 600 s" >&2; exit 1; }
echo "system: $(grep "listening on" "$LOG")"
"$PY" -m leaderboard run "$SUB" "$@"

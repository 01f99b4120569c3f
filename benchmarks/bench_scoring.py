"""Scoring throughput: 100k predictions judged in both modes (target: under 10 s on one core).

Predictions are built from the real RGB records when the data is fetched (else from a few built-in
questions), each instance carrying five of its record's passages (strict mode's copy check reads
them): half Chinese, half English, mixing short answers, answers inside passage text (20-160
characters cut from the record's own passages, so nearly every prediction is distinct and caches do
not help), the instructed refusal, paraphrased refusals and error-detection sentences. jieba's
dictionary is loaded and 20,000 predictions are scored before timing starts (warm-up); then each
mode alone and both together are timed. Both wall and process CPU time are reported: on a shared
machine wall time includes waiting for a core.

Run: python benchmarks/bench_scoring.py [--n 100000] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

from leaderboard.core.types import TestInstance

try:
    from leaderboard.scoring.tokens import load_jieba
except ImportError:  # a checkout whose jieba loader is in normalize, for side-by-side runs
    from leaderboard.scoring.normalize import load_jieba
from leaderboard.scoring.score import score, score_both

_FALLBACK = {
    "zh": [("香港第六届立法会选举有多少个议席？", ("70",), ("170",), "第六届立法会共有70个议席。")],
    "en": [("Who won the 2022 final?", ("Argentina",), (), "Argentina won the final in Qatar.")],
}
_TEMPLATES = {
    "zh": [
        "{a}",
        "答案是{a}。",
        "{p}",
        "根据文档，{p}所以答案是{a}。",
        "文档信息不足，因此我无法基于提供的文档回答该问题。{p}",
        "根据提供的文档，我不能确定{p}",
        "提供文档的文档存在事实性错误。正确答案是{a}。{p}",
    ],
    "en": [
        "{a}",
        "The answer is {a}.",
        "{p}",
        "According to the documents, {p} So the answer is {a}.",
        "I can not answer the question because of the insufficient information in documents. {p}",
        "The documents do not mention it. {p}",
        "There are factual errors in the provided documents. The correct answer is {a}. {p}",
    ],
}


def _records(data_dir: Path | None) -> dict[str, list[tuple[str, tuple, tuple, str, tuple]]]:
    """(query, answer, fakeanswer, passage text, passages) per language from the fetched data."""
    out: dict[str, list[tuple[str, tuple, tuple, str, tuple]]] = {"zh": [], "en": []}
    try:
        from leaderboard.data.manifest import data_root
        from leaderboard.data.splits import load_split
    except ImportError:
        return {k: [(*f, (f[3],)) for f in v] for k, v in _FALLBACK.items()}
    root = data_root(data_dir)
    for lang in out:
        for ability in ("noise", "integration", "counterfactual"):
            try:
                _, recs = load_split(root, lang, ability, allow_partial=True)  # type: ignore[arg-type]
            except Exception:
                continue
            for r in recs:
                flat = [p for g in r.positive for p in ((g,) if isinstance(g, str) else g)]
                text = " ".join(flat[:2] + list(r.negative[:1]))
                docs = tuple(flat[:3] + list(r.negative[:2]))
                out[lang].append((r.query, r.answer, r.fakeanswer, text, docs))
        if not out[lang]:
            out[lang] = [(*f, (f[3],)) for f in _FALLBACK[lang]]
    return out


def build(n: int, data_dir: Path | None, seed: int = 0) -> list[tuple[str, TestInstance]]:
    rng = random.Random(seed)
    records = _records(data_dir)
    if seed == 0:
        print(f"records: zh {len(records['zh'])}, en {len(records['en'])}")
    pairs = []
    for k in range(n):
        lang = "zh" if k % 2 == 0 else "en"
        query, answer, fake, text, docs = rng.choice(records[lang])
        el = answer[0]
        a = el if isinstance(el, str) else el[0]
        start = rng.randrange(max(1, len(text) - 20))
        p = text[start : start + rng.randint(20, 160)]
        pred = rng.choice(_TEMPLATES[lang]).format(a=a, p=p)
        rate = rng.choice((0.0, 0.2, 0.4, 0.6, 0.8, 1.0))
        inst = TestInstance(lang, "noise", rate, k, query, answer, docs, fake)  # type: ignore[arg-type]
        pairs.append((pred, inst))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()

    t0 = time.perf_counter()
    load_jieba()
    t_jieba = time.perf_counter() - t0
    pairs = build(args.n, args.data_dir)
    chars = sum(len(p) for p, _ in pairs) / len(pairs)
    distinct = len({p for p, _ in pairs})

    # Warm-up on other predictions (seed 1), so the timed ones are not already in the caches.
    for pred, inst in build(min(args.n, 20_000), args.data_dir, seed=1):
        score_both(pred, inst)

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    correct = 0
    for pred, inst in pairs:
        scores = score_both(pred, inst)
        correct += scores["strict"].correct
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    per_mode = {}
    for seed, mode in ((2, "rgb"), (3, "strict")):  # each mode alone, on fresh predictions
        fresh = build(args.n, args.data_dir, seed=seed)
        c0 = time.process_time()
        for pred, inst in fresh:
            score(pred, inst, mode)  # type: ignore[arg-type]
        per_mode[mode] = time.process_time() - c0

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} | "
        f"{os.cpu_count()} logical CPUs | load average {load}"
    )
    print(f"python {sys.version.split()[0]} on {platform.platform()}")
    print(f"jieba dictionary load: {t_jieba:.2f} s (not timed below)")
    print(
        f"predictions: {len(pairs)} (half zh, half en), {distinct} distinct, mean {chars:.0f} chars"
    )
    print(f"scored in both modes: {wall:.2f} s wall, {cpu:.2f} s CPU (one thread)")
    print(f"throughput: {len(pairs) / wall:,.0f} predictions/s (strict-correct: {correct})")
    for mode, t in per_mode.items():
        print(f"  {mode} mode alone (other predictions): {t:.2f} s CPU, {args.n / t:,.0f} /s")
    scale = 100_000 / len(pairs)
    print(
        f"target 100k in < 10 s: {'met' if cpu * scale < 10 else 'NOT met'} on CPU time, "
        f"{'met' if wall * scale < 10 else 'NOT met'} on wall time "
        "(CPU time is the fairer figure on a shared machine)"
    )


if __name__ == "__main__":
    main()

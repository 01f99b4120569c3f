"""Paired comparison of two saved retrieval results on the questions both evaluated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from leaderboard.core.errors import ConfigError
from leaderboard.retrieval.metrics import METRICS, paired
from leaderboard.retrieval.results import PairedFile, RetrievalResult, read_json


def compare_results(a: RetrievalResult, b: RetrievalResult, metrics: Sequence[str]) -> PairedFile:
    if (a.split, a.setting) != (b.split, b.setting):
        raise ConfigError(
            f"cannot pair {a.split}/{a.setting} with {b.split}/{b.setting}: compare two "
            "retrievers on the same split and setting"
        )
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ConfigError(f"--metrics: unknown {', '.join(unknown)}; use {', '.join(METRICS)}")
    va = {q.qid: q.values for q in a.per_question if q.values}
    vb = {q.qid: q.values for q in b.per_question if q.values}
    rows = []
    for m in metrics:
        res = paired({q: v[m] for q, v in va.items()}, {q: v[m] for q, v in vb.items()}, m)
        rows.append(asdict(res))
    return PairedFile(
        lang=a.lang,
        split=a.split,
        setting=a.setting,
        a=a.retriever,
        b=b.retriever,
        comparisons=rows,
    )


def compare_files(a: Path, b: Path, metrics: Sequence[str]) -> PairedFile:
    return compare_results(read_json(a, RetrievalResult), read_json(b, RetrievalResult), metrics)

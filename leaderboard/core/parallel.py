"""Spread independent, CPU-bound work over processes: the site's pages (chart drawing, per-instance
scoring) and `verify`'s run folders (each results.json recomputed from its predictions).

Forked workers inherit what the parent loaded (submissions, jieba's dictionary), so nothing large
is pickled on the way in; results come back in input order, so the output stays deterministic.
Serial when one CPU, few items, or no fork (slower, never different). RGB_WORKERS=N caps the
processes (1: serial).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

_STATE: dict[str, object] = {}


def workers() -> int:
    env = os.environ.get("RGB_WORKERS")
    if env:
        return max(1, int(env))
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def pmap(
    fn: Callable[[T], R],
    items: Sequence[T],
    state: dict[str, object] | None = None,
    min_items: int = 4,
) -> list[R]:
    """[fn(x) for x in items], in worker processes when worthwhile. `state` is visible to fn through
    `shared()` in the workers (set before forking)."""
    _STATE.clear()
    _STATE.update(state or {})
    n = min(workers(), len(items))
    if n <= 1 or len(items) < min_items or "fork" not in multiprocessing.get_all_start_methods():
        return [fn(x) for x in items]
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
        return list(pool.map(fn, items, chunksize=max(1, len(items) // (4 * n))))


def shared() -> dict[str, object]:
    return _STATE

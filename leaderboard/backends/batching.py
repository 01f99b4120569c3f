"""Batch scheduling for local backends: length-sorted batches, OOM back-off, per-item fallback.

Kept apart from the transformers code because the policy (what happens on out-of-memory, on a
crash in one batch) is what must never lose a request, and it is easiest to test on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def is_oom(exc: BaseException) -> bool:
    """CUDA OOM (its own class since torch 2.x), or an allocator RuntimeError on other devices."""
    if type(exc).__name__ == "OutOfMemoryError":
        return True
    text = str(exc).lower()
    return isinstance(exc, (RuntimeError, MemoryError)) and (
        "out of memory" in text or "can't allocate memory" in text or isinstance(exc, MemoryError)
    )


def length_sorted(lengths: Sequence[int]) -> list[int]:
    """Indices longest first: similar lengths share a batch (little padding) and the largest batch
    runs first, so `auto` batch size finds its limit before most of the work is done."""
    return sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))


@dataclass
class BatchOutcome(Generic[R]):
    results: list[R]  # one per item, in the order the items were given
    batch_size: int  # the size in use at the end (after any halving)
    halvings: int
    fallbacks: int  # batches that failed and were retried item by item


def run_batches(
    items: Sequence[T],
    batch_size: int,
    run: Callable[[list[T]], list[R]],
    on_error: Callable[[T, BaseException], R],
    *,
    auto: bool = False,
    empty_cache: Callable[[], None] | None = None,
) -> BatchOutcome[R]:
    """Run `items` through `run` in consecutive batches, never dropping one.

    With `auto`, an out-of-memory error halves the batch size (down to 1) and retries the same
    items; the smaller size is kept for the rest. Any other failure of a batch (or OOM at size 1 or
    with a fixed size) retries its items one at a time; an item that still fails becomes
    `on_error(item, exc)`.
    """
    results: list[R] = []
    size, halvings, fallbacks, pos = max(1, batch_size), 0, 0, 0
    while pos < len(items):
        batch = list(items[pos : pos + size])
        try:
            out = run(batch)
            if len(out) != len(batch):
                raise RuntimeError(f"backend returned {len(out)} results for {len(batch)} items")
        except Exception as exc:
            if empty_cache is not None:
                empty_cache()
            if auto and size > 1 and is_oom(exc):
                size //= 2
                halvings += 1
                continue
            fallbacks += 1
            out = [_one(item, run, on_error) for item in batch]
        results.extend(out)
        pos += len(batch)
    return BatchOutcome(results, size, halvings, fallbacks)


def _one(
    item: T, run: Callable[[list[T]], list[R]], on_error: Callable[[T, BaseException], R]
) -> R:
    try:
        out = run([item])
        if len(out) != 1:
            raise RuntimeError(f"backend returned {len(out)} results for 1 item")
        return out[0]
    except Exception as exc:
        return on_error(item, exc)

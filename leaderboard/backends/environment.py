"""What a local backend records about its machine, and logging hygiene for noisy libraries.

Torch is imported lazily, so any backend (and the tests) can use this without the hf extra.
"""

from __future__ import annotations

import logging
import os
import platform
from typing import Any

from leaderboard.core.versions import versions


class _OnceFilter(logging.Filter):
    """bitsandbytes logs its 8-bit dtype-cast notice on every matmul: keep the first of each."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        if msg in self.seen:
            return False
        self.seen.add(msg)
        return True


def log_once(name: str) -> None:
    logger = logging.getLogger(name)
    if not any(isinstance(f, _OnceFilter) for f in logger.filters):
        logger.addFilter(_OnceFilter())


CPUINFO = "/proc/cpuinfo"
# the CPU features that make bfloat16 matrix products fast (oneDNN uses them): without one, torch
# emulates bf16 through float32 and a bf16 run is slower than float32, not faster
BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def cpu_info(path: str = CPUINFO) -> tuple[str, frozenset[str]]:
    """(model name, feature flags) of the first CPU in /proc/cpuinfo; ("", empty) where it cannot
    be read (not Linux): the benchmark's table header and the bf16 check both read it."""
    name, flags = "", frozenset[str]()
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and not name:
                    name = value.strip()
                elif key == "flags" and not flags:
                    flags = frozenset(value.split())
                if name and flags:
                    break
    except OSError:
        pass
    return name, flags


def native_bf16(flags: frozenset[str] | None = None) -> bool:
    """Whether this CPU computes bfloat16 natively (AVX512_BF16 or AMX); `flags` default: this
    machine's."""
    flags = cpu_info()[1] if flags is None else flags
    return any(f in flags for f in BF16_FLAGS)


def device_name() -> str:
    """GPU names (with count) when CUDA is used, else the CPU brand: speed depends on it."""
    try:
        import torch
    except ImportError:
        torch = None  # type: ignore[assignment]
    if torch is not None and torch.cuda.is_available():
        names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        return f"{len(names)}x {names[0]}" if len(set(names)) == 1 else ", ".join(names)
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return f"cpu: {line.split(':', 1)[1].strip()}"
    except OSError:
        pass
    return f"cpu: {platform.processor() or platform.machine()}"


def library_versions() -> dict[str, str | None]:
    """The provenance versions plus the CUDA runtime torch was built with."""
    out = versions()
    try:
        import torch

        out["cuda"] = torch.version.cuda
    except ImportError:
        out["cuda"] = None
    return out


def device_map_summary(model: Any) -> dict[str, int] | str:
    hf_map = getattr(model, "hf_device_map", None)
    if not hf_map:
        return str(model.device)
    counts: dict[str, int] = {}
    for dev in hf_map.values():
        counts[str(dev)] = counts.get(str(dev), 0) + 1
    return counts


def data_parallel_rank() -> tuple[int, int, int]:
    """(rank, world size, local rank) under `accelerate launch` / torchrun, else (0, 1, 0).

    With several processes each one holds a full model copy on its own GPU (data parallel) and
    takes every world-th unique prompt; rank 0 merges the per-process shards
    (leaderboard.run.distributed).
    """
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local = int(os.environ.get("LOCAL_RANK", str(rank)))
    return rank, max(1, world), local

"""Where an entry's answers were generated: one record per invocation that wrote answers (its
machine, llama.cpp build, answer count and peak memory), kept in results.json's provenance under
`extra.invocations`, so a run resumed on another machine or build says so and a submitter can plan
a run from what each machine cost.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

HISTORY_KEY = "invocations"


def llama_build(info: dict[str, object]) -> str | None:
    """The CPU features llama.cpp was built with (its system info), from a backend description;
    None for other backends. Two builds of one library can round a float differently and so change
    a greedy answer: a run resumed on another build must say so."""
    lc = info.get("llamacpp")
    build = lc.get("system_info") if isinstance(lc, dict) else None
    return str(build).strip() if build else None


def peak_memory() -> dict[str, float]:
    """This process's peak memory so far, in MiB, for the invocation's record (what a submitter
    plans a machine by): `peak_rss_mib` (resident set, from getrusage: weights, KV cache and
    buffers of an in-process engine) and, when torch used a GPU, `peak_gpu_mib` (torch's peak
    allocation). Empty where the platform has no getrusage."""
    out: dict[str, float] = {}
    try:
        import resource
    except ImportError:  # not on Windows
        return out
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    out["peak_rss_mib"] = round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
    torch = sys.modules.get("torch")  # only when a backend loaded it: no import for a server run
    cuda = getattr(torch, "cuda", None)
    if cuda is not None and cuda.is_available() and cuda.is_initialized():
        out["peak_gpu_mib"] = round(
            sum(cuda.max_memory_allocated(i) for i in range(cuda.device_count())) / 2**20, 1
        )
    return out


PEAK_KEYS = ("peak_gpu_mib", "peak_rss_mib")  # what `peak_memory` records, GPU first


def recorded_peak(history: Iterable[object], key: str) -> float | None:
    """The largest `key` (one of PEAK_KEYS, MiB) among the invocations that recorded it; None
    when none did (runs before memory was recorded). A lower bound when only some recorded it."""
    values = [
        float(v)
        for h in history
        if isinstance(h, dict) and isinstance(v := h.get(key), int | float)
    ]
    return max(values) if values else None


def invocation_history(
    previous: dict[str, object] | None,
    current: dict[str, object] | None,
    created: list[str],
) -> list[dict[str, object]]:
    """Every invocation that wrote answers of this entry, oldest first, each with its machine and
    how many answers it wrote (`answers`, counted when it ran: exact, unlike timestamps to the
    second).

    `previous` is the earlier results.json's provenance (as a dict); its own history is kept as
    recorded. A results.json written before histories were recorded seeds one entry from its last
    invocation, covering every answer created up to its end (`created`: the predictions' ISO
    timestamps) and marked `seeded`: earlier invocations did not record their machine, so the
    entry says which machine the last one ran on and no more. `current` is this invocation (None
    when it wrote nothing: a rescore, a verify, a run with every answer already there).
    """
    history: list[dict[str, object]] = []
    # answers that existed before this invocation (timestamps are to the second: one written in
    # the second the previous run finished is this invocation's, not the seeded entry's)
    written = current.get("answers") if current else 0
    earlier = len(created) - (written if isinstance(written, int) else 0)
    if previous is not None:
        extra = previous.get("extra")
        extra = extra if isinstance(extra, dict) else {}
        recorded = extra.get(HISTORY_KEY)
        finished = str(previous.get("finished") or "")
        if isinstance(recorded, list):
            history = [dict(h) for h in recorded if isinstance(h, dict)]
        elif earlier > 0 and any(c <= finished for c in created):
            backend = extra.get("backend")
            backend = backend if isinstance(backend, dict) else {}
            history = [
                {
                    "started": min(created),
                    "finished": finished,
                    "git_commit": previous.get("git_commit"),
                    "device": str(backend.get("device") or previous.get("device") or ""),
                    "build": llama_build(backend),
                    "answers": min(sum(c <= finished for c in created), earlier),
                    "seeded": True,
                }
            ]
    if current is not None:
        history.append(dict(current))
    return history


def machines(history: list[dict[str, object]]) -> list[tuple[str, str | None, int]]:
    """(device, build, answers) per distinct machine of a history, in order of first use."""
    out: dict[tuple[str, str | None], int] = {}
    for h in history:
        key = (str(h.get("device") or ""), h.get("build") if h.get("build") else None)
        out[key] = out.get(key, 0) + int(h.get("answers") or 0)  # type: ignore[call-overload]
    return [(d, b, n) for (d, b), n in out.items()]

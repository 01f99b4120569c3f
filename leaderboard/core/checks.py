"""The verdict on one checked file (a retrieval result, a judge result), shared by the rooms that
recompute what the site shows (trust/retrieval_check.py, judge/results_check.py) and printed by
`verify`."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

TOLERANCE = 1e-9  # a recomputed number equals the recorded one within this


def same(a: object, b: object, tolerance: float = TOLERANCE) -> bool:
    """A recorded value against its recomputation: numbers within `tolerance` (a float written
    to JSON and read back may differ in its last bit), lists and dicts element by element,
    anything else exactly."""
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return math.isclose(float(a), float(b), rel_tol=0.0, abs_tol=tolerance)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y, tolerance) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tolerance) for k in a)
    return a == b


@dataclass
class FileCheck:
    """One file's verification: what differs (empty: ok) and what was not recomputed."""

    path: Path
    mismatches: list[str] = field(default_factory=list)
    skipped: str | None = None  # one line: what was not recomputed, and why
    fix: str = ""  # the command that regenerates the file, printed under a failure

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def render(self) -> str:
        name = self.path.as_posix()
        if self.ok:
            tail = f" ({self.skipped})" if self.skipped else ""
            return f"ok: {name}{tail}"
        lines = [f"FAIL: {name}", *(f"  {m}" for m in self.mismatches)]
        if self.skipped:
            lines.append(f"  note: {self.skipped}")
        if self.fix:
            lines.append(f"  {self.fix}")
        return "\n".join(lines)


def rendered(checks: Iterable[FileCheck | None]) -> tuple[list[str], int]:
    """What `verify` prints for these file checks (None: nothing to check) and how many failed."""
    done = [c for c in checks if c is not None]
    return [c.render() for c in done], sum(not c.ok for c in done)

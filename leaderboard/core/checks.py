"""The verdict on one checked file (a retrieval result, a judge result), shared by the rooms that
recompute what the site shows (trust/retrieval_check.py, judge/check.py) and printed by `verify`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


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

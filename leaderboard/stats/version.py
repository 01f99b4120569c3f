"""The scoring version: one hash of everything that turns predictions into results.json numbers.

It covers the scoring code and its phrase tables (leaderboard/scoring/, every .py and resource
file) and the statistics code (leaderboard/stats/*.py). results.json records it
(provenance.scoring_version), so `rgb-leaderboard verify` can say "scored by other code" before
it lists which numbers moved. Prompts and data are covered elsewhere (the fingerprint, the prompt
hash of every prediction and the data blob ids).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_SUFFIXES = {".py", ".yaml", ".yml", ".json", ".txt"}


def scoring_files(package_root: Path = PACKAGE_ROOT) -> list[Path]:
    """The files the version hashes, in a stable order."""
    files = [
        p
        for p in (package_root / "scoring").rglob("*")
        if p.is_file() and p.suffix in _SUFFIXES and "__pycache__" not in p.parts
    ]
    files += sorted((package_root / "stats").glob("*.py"))
    return sorted(set(files), key=lambda p: p.relative_to(package_root).as_posix())


@lru_cache(maxsize=4)
def scoring_version(package_root: Path = PACKAGE_ROOT) -> str:
    """sha256 (first 16 hex) over the relative path and bytes of every scoring file."""
    h = hashlib.sha256()
    for p in scoring_files(package_root):
        h.update(p.relative_to(package_root).as_posix().encode("utf-8") + b"\0")
        h.update(p.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:16]

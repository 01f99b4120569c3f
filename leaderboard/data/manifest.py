"""The manifest of official RGB files, verification by git blob id, where data lives, file status.

A file is accepted only if its git blob SHA-1 equals the id recorded in the manifest (the same check
as `git hash-object FILE`). The manifest shipped inside the package is authoritative; the committed
data_<lang>/MANIFEST.json files are identical copies for people browsing the repository. Both the
loader (leaderboard.data.splits) and the fetcher (leaderboard.data.fetch) build on this module.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from leaderboard.core.errors import DataError
from leaderboard.core.types import LANGS, Lang

MANIFEST_NAME = "MANIFEST.json"
DATA_DIR_ENV = "RGB_DATA_DIR"
BASE_URL_ENV = "RGB_DATA_BASE_URL"
FETCH_COMMAND = "rgb-leaderboard data fetch"


@dataclass(frozen=True)
class ManifestEntry:
    """One file the leaderboard knows about, with the id its bytes must hash to."""

    lang: Lang
    name: str  # path relative to data_<lang>/, e.g. "zh_refine.json" or "partial/en_head50.json"
    blob_id: str
    url: str | None  # official raw URL; None for files obtainable only from a local folder
    role: str  # "noise_rejection", "integration", "counterfactual" or "partial"
    variant: str | None
    official: bool
    complete: bool
    optional: bool
    records: int
    sha256: str | None = None
    stands_in_for: str | None = None  # for a partial file: the official file it replaces


@dataclass(frozen=True)
class FileStatus:
    """Where one manifest file stands on disk (and, after `fetch`, what was done about it)."""

    lang: Lang
    name: str
    present: bool
    verified: bool
    blob_id: str | None  # git blob id of the bytes on disk (None when absent)
    expected_blob_id: str
    records: int | None  # records counted in the file when present and verified
    official: bool
    optional: bool
    complete: bool = True
    expected_records: int | None = None
    action: str = ""  # fetch only: "copied", "downloaded", "already present", "missing", "skipped"
    detail: str = ""  # why a file is missing or unverified, in words


# ---------------------------------------------------------------------------------------- manifest


@cache
def manifest(lang: Lang) -> tuple[ManifestEntry, ...]:
    """The packaged manifest of one language (same as the committed data_<lang>/MANIFEST.json)."""
    if lang not in LANGS:
        raise DataError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    raw = json.loads(manifest_text(lang))
    return tuple(
        ManifestEntry(
            lang=lang,
            name=f["name"],
            blob_id=f["blob_id"],
            url=f.get("url"),
            role=f["role"],
            variant=f.get("variant"),
            official=bool(f["official"]),
            complete=bool(f["complete"]),
            optional=bool(f["optional"]),
            records=int(f["records"]),
            sha256=f.get("sha256"),
            stands_in_for=(f.get("stands_in_for") or {}).get("name"),
        )
        for f in raw["files"]
    )


def manifest_text(lang: Lang) -> str:
    """The manifest file's exact text, as shipped in the package."""
    ref = resources.files("leaderboard.data") / "manifests" / f"data_{lang}.json"
    return ref.read_text(encoding="utf-8")


def entry(lang: Lang, name: str) -> ManifestEntry:
    for e in manifest(lang):
        if e.name == name:
            return e
    raise DataError(f"{name} is not a file of the RGB {lang} manifest")


# ----------------------------------------------------------------------------------------- hashing


def git_blob_sha1(data: bytes) -> str:
    """SHA-1 of a git blob object: what `git hash-object` prints and what GitHub trees list."""
    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def file_blob_sha1(path: Path) -> str:
    """git_blob_sha1 of a file, streamed, and cached while the file is unchanged (files are MBs)."""
    st = Path(path).stat()
    return _file_blob_sha1(str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


@cache
def _file_blob_sha1(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha1(b"blob %d\0" % size)
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _count_records(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(1 for line in fh if line.strip())


# -------------------------------------------------------------------------------------- locations


def _has_manifest(d: Path) -> bool:
    return (d / "data_zh" / MANIFEST_NAME).is_file()


def data_root(explicit: Path | None = None) -> Path:
    """The folder holding data_en/ and data_zh/.

    Order: the explicit argument (--data-dir), $RGB_DATA_DIR, the current directory when it holds
    data_zh/MANIFEST.json, the repository root next to the package, finally the current directory.
    """
    if explicit is not None:
        return Path(explicit).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    cwd = Path.cwd()
    if _has_manifest(cwd):
        return cwd
    repo = Path(__file__).resolve().parents[2]
    if _has_manifest(repo):
        return repo
    return cwd


def lang_dir(root: Path, lang: Lang) -> Path:
    return Path(root) / f"data_{lang}"


# ----------------------------------------------------------------------------------------- status


def status_of(root: Path, e: ManifestEntry) -> FileStatus:
    path = lang_dir(root, e.lang) / e.name
    present = path.is_file()
    blob = file_blob_sha1(path) if present else None
    verified = blob == e.blob_id
    if not present:
        detail = "not fetched"
    elif not verified:
        detail = f"git blob {blob} does not match the manifest; run `{FETCH_COMMAND}` again"
    else:
        detail = "" if e.official else "third-party partial copy (not the official file)"
    return FileStatus(
        lang=e.lang,
        name=e.name,
        present=present,
        verified=verified,
        blob_id=blob,
        expected_blob_id=e.blob_id,
        records=_count_records(path) if verified else None,
        official=e.official,
        optional=e.optional,
        complete=e.complete,
        expected_records=e.records,
        detail=detail,
    )


def status(root: Path, langs: Iterable[Lang] = LANGS) -> list[FileStatus]:
    """Which manifest files are present and verified under `root`, language by language."""
    return [status_of(root, e) for lang in langs for e in manifest(lang)]

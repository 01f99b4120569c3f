"""RGB data files: the manifest of official files, verification by git blob id, validated loading.

Results are only comparable with the paper when the model sees exactly the official data, so a file
is accepted only if its git blob SHA-1 equals the id recorded in the manifest (the same check as
`git hash-object FILE`). The manifest shipped inside the package is authoritative; the committed
data_<lang>/MANIFEST.json files are identical copies for people browsing the repository.
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
from typing import TYPE_CHECKING, Any, Literal

from leaderboard.errors import DataError
from leaderboard.records import RecordKind, kind_for_ability, kind_for_name, load_records
from leaderboard.types import LANGS, Ability, Lang, Record

if TYPE_CHECKING:  # the real name for type checkers; at run time see __getattr__ below
    from leaderboard.fetch import fetch_files as fetch

__all__ = [
    "BASE_URL_ENV",
    "DATA_DIR_ENV",
    "FETCH_COMMAND",
    "MANIFEST_NAME",
    "FileStatus",
    "ManifestEntry",
    "RecordKind",
    "SplitSource",
    "data_root",
    "fetch",
    "file_blob_sha1",
    "git_blob_sha1",
    "kind_for_ability",
    "kind_for_name",
    "load_records",
    "load_split",
    "manifest",
    "resolve_split",
    "split_file_name",
    "status",
]

MANIFEST_NAME = "MANIFEST.json"
DATA_DIR_ENV = "RGB_DATA_DIR"
BASE_URL_ENV = "RGB_DATA_BASE_URL"
FETCH_COMMAND = "rgb-leaderboard data fetch"
Variant = Literal["refine", "original"]

_ROLE_OF_ABILITY: dict[str, str] = {
    "noise": "noise_rejection",
    "rejection": "noise_rejection",
    "integration": "integration",
    "counterfactual": "counterfactual",
}


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


@dataclass(frozen=True)
class SplitSource:
    """The file an (language, ability) split is read from, and how trustworthy it is."""

    lang: Lang
    ability: Ability
    variant: Variant
    path: Path
    name: str  # e.g. "zh_refine.json" or "partial/en_head50.json"
    complete: bool  # False for a partial stand-in
    blob_id: str | None  # verified official git blob id, None when not an official file
    expected_n: int  # records in the official split (for a stand-in: in the file it replaces)
    file_blob_id: str | None = (
        None  # git blob id of the bytes actually read (also for partial files)
    )
    n_records: int | None = None  # records in the file read (= expected_n for official files)


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
    ref = resources.files("leaderboard") / "resources" / "manifests" / f"data_{lang}.json"
    return ref.read_text(encoding="utf-8")


def _entry(lang: Lang, name: str) -> ManifestEntry:
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
    repo = Path(__file__).resolve().parent.parent
    if _has_manifest(repo):
        return repo
    return cwd


def lang_dir(root: Path, lang: Lang) -> Path:
    return Path(root) / f"data_{lang}"


# ----------------------------------------------------------------------------------------- status


def _status_of(root: Path, e: ManifestEntry) -> FileStatus:
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
    return [_status_of(root, e) for lang in langs for e in manifest(lang)]


def __getattr__(name: str) -> Any:
    """`fetch` is leaderboard.fetch.fetch_files, looked up on first use: that module builds on
    this one (manifest, status), so importing it while this module loads would be circular."""
    if name == "fetch":
        from leaderboard.fetch import fetch_files

        return fetch_files
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ------------------------------------------------------------------------------------------ splits


def split_file_name(lang: Lang, ability: Ability, variant: Variant = "refine") -> str:
    """The official file an ability is evaluated on (`variant` only matters for noise/rejection)."""
    if ability not in _ROLE_OF_ABILITY:
        raise DataError(f"unknown ability {ability!r}: use one of {', '.join(_ROLE_OF_ABILITY)}")
    if variant not in ("refine", "original"):
        raise DataError(f"unknown variant {variant!r}: use 'refine' or 'original'")
    if ability == "integration":
        return f"{lang}_int.json"
    if ability == "counterfactual":
        return f"{lang}_fact.json"
    return f"{lang}_refine.json" if variant == "refine" else f"{lang}.json"


def _partial_for(lang: Lang, ability: Ability) -> ManifestEntry | None:
    if ability not in ("noise", "rejection"):
        return None
    return next((e for e in manifest(lang) if e.role == "partial"), None)


def _verified_path(root: Path, e: ManifestEntry) -> tuple[Path, str] | None:
    """The file's path and blob id if present; DataError if present but not the expected bytes."""
    path = lang_dir(root, e.lang) / e.name
    if not path.is_file():
        return None
    blob = file_blob_sha1(path)
    if blob != e.blob_id:
        raise DataError(
            f"{path}: git blob {blob} does not match the manifest ({e.blob_id}); the file is "
            f"corrupted or not the official one. Delete it and run `{FETCH_COMMAND}` "
            f"(or `{FETCH_COMMAND} --from DIR`)."
        )
    return path, blob


def _missing_message(root: Path, lang: Lang, name: str, ability: Ability, partial: bool) -> str:
    path = lang_dir(root, lang) / name
    msg = (
        f"{path} is missing (needed for {lang} {ability}). Run `{FETCH_COMMAND}` to download it "
        f"(or `{FETCH_COMMAND} --from DIR` to copy it from a local folder), or pass --data-dir."
    )
    if lang == "en" and name in ("en_refine.json", "en_int.json", "en.json"):
        msg += (
            f" {name} is not in the offline copy (../shared/rgb); it needs internet access."
            " Restrict the run to the available splits"
        )
        msg += (
            ", or pass --allow-partial to use partial/en_head50.json (first 50 records of en.json)."
            if partial
            else "."
        )
    return msg


def resolve_split(
    root: Path,
    lang: Lang,
    ability: Ability,
    variant: Variant = "refine",
    allow_partial: bool = False,
) -> SplitSource:
    """Which verified file a split is read from; with allow_partial, en noise/rejection may use the
    50-record stand-in (marked complete=False) when the official file is missing."""
    name = split_file_name(lang, ability, variant)
    e = _entry(lang, name)
    found = _verified_path(root, e)
    if found is not None:
        path, blob = found
        return SplitSource(
            lang, ability, variant, path, name, True, blob, e.records, blob, e.records
        )
    partial = _partial_for(lang, ability)
    if allow_partial and partial is not None:
        pfound = _verified_path(root, partial)
        if pfound is not None:
            path, blob = pfound
            return SplitSource(
                lang,
                ability,
                variant,
                path,
                partial.name,
                False,
                None,
                e.records,
                blob,
                partial.records,
            )
    raise DataError(_missing_message(root, lang, name, ability, partial is not None))


def load_split(
    root: Path,
    lang: Lang,
    ability: Ability,
    variant: Variant = "refine",
    allow_partial: bool = False,
) -> tuple[SplitSource, tuple[Record, ...]]:
    """resolve_split + load_records with the record shape the ability needs."""
    src = resolve_split(root, lang, ability, variant, allow_partial)
    return src, load_records(src.path, kind=kind_for_ability(ability))

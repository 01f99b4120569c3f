"""Obtain the RGB data files: download from the official raw URLs or copy from a local folder.

Every file goes to a temporary file in its destination folder, is verified against the manifest's
git blob id, and only then renamed into place (os.replace is atomic on one filesystem). So an
interrupted download or a corrupted copy never leaves a half or wrong file where the loader would
find it, and an existing good file is never replaced by a bad one.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from leaderboard.core.errors import DataError
from leaderboard.core.safe_io import ensure_dir
from leaderboard.core.types import LANGS, Lang
from leaderboard.data.manifest import (
    BASE_URL_ENV,
    MANIFEST_NAME,
    FileStatus,
    ManifestEntry,
    file_blob_sha1,
    lang_dir,
    manifest,
    manifest_text,
    status_of,
)

_CHUNK = 1 << 16


class _Missing(Exception):
    """The source simply does not have this file (404, or absent from the folder)."""


class _Failed(Exception):
    """Obtaining the file went wrong (network, interrupted transfer, wrong bytes)."""


def _candidates(source: Path, e: ManifestEntry) -> list[Path]:
    base = Path(e.name).name
    return [source / e.name, source / base, source / "data" / base, source / "partial" / base]


def _temp_for(dest: Path) -> tuple[int, Path]:
    ensure_dir(dest.parent, DataError, "data folder")
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    return fd, Path(tmp)


def _copy(src: Path, fd: int) -> None:
    with open(src, "rb") as fin, os.fdopen(fd, "wb") as fout:
        shutil.copyfileobj(fin, fout, _CHUNK)


def _download(client: object, url: str, fd: int, name: str, progress: bool) -> None:
    import httpx
    from tqdm import tqdm

    assert isinstance(client, httpx.Client)
    with os.fdopen(fd, "wb") as fout:
        try:
            with client.stream("GET", url) as r:
                if r.status_code == 404:
                    raise _Missing(f"{url} answered 404 Not Found")
                if r.status_code != 200:
                    raise _Failed(f"{url} answered HTTP {r.status_code}")
                total = int(r.headers.get("content-length", 0)) or None
                with tqdm(
                    total=total,
                    unit="B",
                    unit_scale=True,
                    desc=name,
                    disable=not progress,
                    file=sys.stderr,
                    leave=False,
                ) as bar:
                    for chunk in r.iter_bytes(_CHUNK):
                        fout.write(chunk)
                        bar.update(len(chunk))
        except httpx.HTTPError as exc:
            raise _Failed(
                f"download of {url} failed or was interrupted ({type(exc).__name__}: {exc})"
            ) from None


def _obtain(
    e: ManifestEntry,
    dest: Path,
    source: Path | None,
    client: object,
    base_url: str | None,
    progress: bool,
) -> str:
    """Put the verified file at dest; returns the action. Raises _Missing or _Failed."""
    if source is not None:
        src = next((p for p in _candidates(source, e) if p.is_file()), None)
        if src is None:
            raise _Missing(f"not in {source}")
        origin, action = str(src), "copied"
    else:
        url = f"{base_url.rstrip('/')}/{e.name}" if base_url else e.url
        if url is None:
            raise _Missing("only available from a local folder (data fetch --from DIR)")
        origin, action = url, "downloaded"
    fd, tmp = _temp_for(dest)
    try:
        if source is not None:
            _copy(Path(origin), fd)
        else:
            _download(client, origin, fd, e.name, progress)
        got = file_blob_sha1(tmp)
        if got != e.blob_id:
            kept = (
                "the existing file was left untouched" if dest.exists() else "nothing was written"
            )
            raise _Failed(
                f"{origin} has git blob {got} but the manifest requires {e.blob_id} for "
                f"data_{e.lang}/{e.name}: refused ({kept}). The copy is corrupted or not the "
                "official file; obtain the official file and fetch again."
            )
        tmp.chmod(0o644)  # mkstemp creates 0600; data files are ordinary readable files
        os.replace(tmp, dest)
        return action
    finally:
        tmp.unlink(missing_ok=True)


def _write_manifest_copy(d: Path, lang: Lang) -> None:
    """Make a data folder outside the repository self-describing; never touch an existing copy."""
    target = d / MANIFEST_NAME
    if not target.exists():
        target.write_text(manifest_text(lang), encoding="utf-8")


def fetch_files(
    root: Path,
    source: Path | None = None,
    langs: Sequence[Lang] = LANGS,
    include_optional: bool = True,
    progress: bool = True,
    base_url: str | None = None,
    timeout: float = 60.0,
) -> list[FileStatus]:
    """Fetch every manifest file of `langs` into root/data_<lang>/; returns one status per file.

    Files already present and verified are kept. Files the source lacks are reported as missing
    (not an error) unless nothing at all is available afterwards. A refused or failed file raises
    DataError after all other files were processed, so good files obtained meanwhile are kept.
    """
    root = Path(root)
    if source is not None:
        source = Path(source).expanduser()
        if not source.is_dir():
            raise DataError(f"--from {source}: not a folder; pass the folder holding the RGB files")
    base_url = base_url or os.environ.get(BASE_URL_ENV) or None
    client = None
    if source is None:
        import httpx

        client = httpx.Client(follow_redirects=True, timeout=timeout)
    results: list[FileStatus] = []
    problems: list[str] = []
    try:
        for lang in langs:
            d = lang_dir(root, lang)
            ensure_dir(d, DataError, "data folder")
            _write_manifest_copy(d, lang)
            for e in manifest(lang):
                results.append(
                    _fetch_one(
                        root, e, source, client, base_url, progress, include_optional, problems
                    )
                )
    finally:
        if client is not None:
            client.close()
    if problems:
        got = [f"data_{s.lang}/{s.name}" for s in results if s.verified]
        joined = "; ".join(p.rstrip(".") for p in problems)
        raise DataError(
            f"data fetch: {joined}." + (f" Verified and in place: {', '.join(got)}." if got else "")
        )
    if not any(s.verified for s in results):
        where = f"in {source}" if source else "at the official URLs"
        raise DataError(
            f"data fetch: none of the RGB data files were obtained {where}; check the folder or "
            "the network, or pass --from DIR with a local copy of the official files."
        )
    return results


def _fetch_one(
    root: Path,
    e: ManifestEntry,
    source: Path | None,
    client: object,
    base_url: str | None,
    progress: bool,
    include_optional: bool,
    problems: list[str],
) -> FileStatus:
    before = status_of(root, e)
    if before.verified:
        return replace(before, action="already present")
    if e.optional and not include_optional:
        return replace(before, action="skipped", detail="optional file not requested")
    dest = lang_dir(root, e.lang) / e.name
    try:
        action = _obtain(e, dest, source, client, base_url, progress)
    except _Missing as exc:
        return replace(before, action="missing", detail=str(exc))
    except _Failed as exc:
        problems.append(str(exc))
        return replace(before, action="refused", detail=str(exc))
    return replace(status_of(root, e), action=action)

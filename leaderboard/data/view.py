"""A view of the data folder holding only the files a run recorded (its `data_blob_ids`).

A results.json records which file each split was read from, e.g. `partial/en_head50.json` where
the official `en_refine.json` was not available. Rebuilding its instances later on a machine that
has the official file would read that one instead (the partial file is only a stand-in for a
missing official file) and every prompt hash would differ. `verify` and `rescore` therefore
rebuild from a view with exactly the recorded files: the same resolution as the original run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from leaderboard.core.types import Lang
from leaderboard.data.manifest import lang_dir, manifest

_LANGS: tuple[Lang, ...] = ("zh", "en")


def _lang_of(name: str) -> Lang | None:
    for lang in _LANGS:
        if any(e.name == name for e in manifest(lang)):
            return lang
    return None


@contextmanager
def recorded_view(root: Path, names: Iterable[str]) -> Iterator[Path]:
    """A temporary data root with links to `names` (manifest file names) under data_<lang>/.

    Names the manifests do not know, and files absent from `root`, are left out: the rebuild
    then fails or falls back exactly as the run would have, and says why.
    """
    with tempfile.TemporaryDirectory(prefix="rgb-view-") as tmp:
        view = Path(tmp)
        for name in sorted(set(names)):
            lang = _lang_of(name)
            if lang is None:
                continue
            src = lang_dir(root, lang) / name
            if not src.is_file():
                continue
            dest = lang_dir(view, lang) / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.symlink(src.resolve(), dest)
            except OSError:  # no symlinks here (some Windows setups): copy the bytes
                shutil.copyfile(src, dest)
        yield view

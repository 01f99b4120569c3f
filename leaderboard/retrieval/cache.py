"""On-disk embedding cache: a text is embedded once per model, whatever run asks for it.

Keyed by the model key (model name plus the sha256 of its weight file, or the endpoint's model
name) and by sha256(role + NUL + text), role being "query" or "passage" (e5 embeds them with
different prefixes). Each batch of new vectors is one .npz file written atomically (temporary file,
then rename), so a killed run loses at most the batch in flight and a rerun embeds only what is
missing; several processes may share the folder. Default location `.cache/embeddings/` under the
repository (git-ignored); `RGB_EMBED_CACHE` or --cache-dir moves it.

A cache opened `read_only` never embeds: `get` raises `NotCached` (how many vectors are missing)
instead, so a check (`verify`) costs what the cache holds, never minutes of embedding.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from leaderboard.core.errors import LeaderboardError

CACHE_ENV = "RGB_EMBED_CACHE"
DEFAULT_CACHE = Path(".cache") / "embeddings"

Embed = Callable[[list[str]], np.ndarray]  # texts -> (n, dim) float32


class NotCached(LeaderboardError):
    """Vectors a read-only cache does not hold: `missing` of the `needed` distinct texts."""

    def __init__(self, role: str, missing: int, needed: int) -> None:
        self.role, self.missing, self.needed = role, missing, needed
        super().__init__(f"{missing:,} of {needed:,} {role} vectors are not in the cache")


def default_cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_CACHE)


def text_key(role: str, text: str) -> str:
    return hashlib.sha256(f"{role}\0{text}".encode()).hexdigest()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:60] or "model"


class EmbeddingCache:
    """Vectors of one model, loaded from and appended to `root/<model slug>-<hash>/`."""

    def __init__(self, root: Path, model_key: str, read_only: bool = False) -> None:
        digest = hashlib.sha256(model_key.encode()).hexdigest()[:16]
        self.dir = Path(root) / f"{_slug(model_key)}-{digest}"
        self.model_key = model_key
        self.vectors: dict[str, np.ndarray] = {}
        self.embedded = 0  # texts embedded (not found in the cache) by this process
        self.read_only = read_only  # never embed: a missing vector raises NotCached
        self._seq = 0
        self.refresh()

    def refresh(self) -> None:
        """Read batch files written since the last look (by this or another process)."""
        if not self.dir.is_dir():
            return
        for path in sorted(self.dir.glob("*.npz")):
            with np.load(path) as batch:
                for key, vec in zip(batch["keys"], batch["vectors"], strict=True):
                    self.vectors.setdefault(str(key), vec)

    def _write(self, keys: list[str], vectors: np.ndarray) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        meta = self.dir / "model.json"
        if not meta.is_file():
            meta.write_text(json.dumps({"model_key": self.model_key}) + "\n", encoding="utf-8")
        self._seq += 1
        digest = hashlib.sha256("".join(keys).encode()).hexdigest()[:12]
        name = f"{os.getpid()}-{self._seq:06d}-{digest}"
        fd, tmp = tempfile.mkstemp(dir=self.dir, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, keys=np.array(keys), vectors=vectors.astype(np.float32))
        os.replace(tmp, self.dir / f"{name}.npz")

    def get(
        self,
        role: str,
        texts: Sequence[str],
        embed: Embed,
        batch_size: int = 16,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        """(len(texts), dim) vectors; missing ones are embedded in batches, each saved at once."""
        keys = [text_key(role, t) for t in texts]
        missing: dict[str, str] = {}
        for k, t in zip(keys, texts, strict=True):
            if k not in self.vectors and k not in missing:
                missing[k] = t
        todo = list(missing.items())
        if todo and self.read_only:
            raise NotCached(role, len(todo), len(set(keys)))
        if progress is not None:  # the cached ones count as done at once
            progress(len(set(keys)) - len(todo))
        for i in range(0, len(todo), batch_size):
            part = todo[i : i + batch_size]
            vecs = np.asarray(embed([t for _, t in part]), dtype=np.float32)
            self._write([k for k, _ in part], vecs)
            for (k, _), v in zip(part, vecs, strict=True):
                self.vectors[k] = v
            self.embedded += len(part)
            if progress is not None:
                progress(len(part))
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self.vectors[k] for k in keys])

"""Versions of the libraries that can change a model's outputs or a score, for provenance.

Backends record them when they describe a loaded model and the runner records them in results.json;
both ask here so the list of libraries is written once.
"""

from __future__ import annotations

import platform
from importlib import metadata

_VERSIONED = (
    "rgb-leaderboard",
    "torch",
    "transformers",
    "accelerate",
    "bitsandbytes",
    "jieba",
    "cn2an",
    "opencc",
    "gguf",
    "tokenizers",
    "numpy",
    "pydantic",
    "httpx",
    "vllm",
)


def versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in _VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out

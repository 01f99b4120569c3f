"""The site of this repository itself, built once per test session for the slow tests that read
the real board's pages (the zh pages' scans, the phone-width check of the home page): its
releases, devices, docs and every page the published site has. RGB_ZH_SCAN_BUILD=site/build
reuses that build of this repository instead (`python -m leaderboard site build` first)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repository_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from leaderboard.site.build import build_site

    given = os.environ.get("RGB_ZH_SCAN_BUILD")
    if given:
        return Path(given)
    return build_site(REPO, tmp_path_factory.mktemp("repository-site") / "build")

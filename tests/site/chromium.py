"""Debian's headless Chromium driven by playwright, shared by the site's browser tests: where the
browser is, how it is launched, and the skip (with the reason) when it or playwright is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def require_browser() -> None:
    """Skip the calling test or fixture when Chromium or playwright is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"no browser at {CHROMIUM}: install Debian's chromium and fonts-noto-cjk "
            "(apt-get install chromium fonts-noto-cjk) to run the browser tests"
        )
    pytest.importorskip(
        "playwright.sync_api", reason="playwright not installed (pip install playwright)"
    )


@contextmanager
def launched() -> Iterator[Any]:
    """A launched Chromium (playwright's Browser), closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()

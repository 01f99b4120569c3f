"""The instruction track's page in real headless Chromium: its two tables (seven figure columns,
each with an interval and a paired difference) fit the content column at 1400 px, and at phone
width they scroll inside their wrapper while the page itself does not. Built by the real
`build_site` from real panel runs of the always-refusing baseline. Skips with the reason when no
browser is installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection, panel_selection
from leaderboard.site.build import build_site
from leaderboard.site.serve import serve_in_thread
from tests.site.chromium import launched, require_browser
from tests.site_factory import make_repo

pytestmark = pytest.mark.slow


OVERFLOW = """() => {
    const right = document.querySelector('.md-content__inner').getBoundingClientRect().right;
    return Array.from(document.querySelectorAll('table'))
        .filter(t => t.getBoundingClientRect().right > right + 1)
        .map(t => t.id || t.className);
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, data_root: Path):
    require_browser()
    root = make_repo(tmp_path_factory.mktemp("instr-browser"), n_models=1, n=4)
    entry = root / "submissions" / "baseline-refuse"
    shutil.copytree(repo_root / "submissions" / "baseline-refuse", entry)
    sub = load_submission(entry)
    for instruction in ("abstain_user", "no_refusal", "typo_fixed"):
        selection = panel_selection(Selection(instruction=instruction, limit=6))
        run_submission(sub, RunOptions(root=data_root, selection=selection, progress=False))
    with serve_in_thread(build_site(root)) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base):
    with launched() as b:
        yield b


@pytest.mark.parametrize("path", ["instructions.html", "zh/instructions.html"])
def test_the_panel_tables_fit_at_1400_px(base: str, browser, path: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = context.new_page()
        page.goto(base + path, wait_until="networkidle")
        assert page.locator("table[id^='instructions-']").count() >= 1, "no panel table built"
        assert page.evaluate(OVERFLOW) == [], path
    finally:
        context.close()


@pytest.mark.parametrize("path", ["instructions.html", "zh/instructions.html"])
def test_at_phone_width_the_tables_scroll_not_the_page(base: str, browser, path: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(base + path, wait_until="networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 392, path
    finally:
        context.close()

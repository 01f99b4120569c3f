"""The compare page and the folded ranking in real headless Chromium (Debian's
/usr/bin/chromium, driven by playwright, as tests/site/test_browser.py): the two entries from the
URL, every paired difference exactly the build's (downloads/paired-differences.json, board.paired),
the sign flipped when B sorts first, both languages; the home page's folded baseline band and
its width at 1400 px. Skips with the reason when no browser is installed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from leaderboard.site.build import build_site
from leaderboard.site.serve import serve_in_thread
from tests.site.chromium import launched, require_browser
from tests.site.test_browser import _add_baseline, _with_answers
from tests.site_factory import make_repo

pytestmark = pytest.mark.slow
N = 4


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    require_browser()
    root = make_repo(tmp_path_factory.mktemp("compare"), n_models=3, n=N)
    if not _with_answers(root):
        pytest.skip("RGB zh data not fetched: the paired comparisons need it")
    _add_baseline(root)
    _add_baseline(root, "baseline-copy-first", 0.5)
    out = build_site(root)
    with serve_in_thread(out) as base:
        yield out, base


@pytest.fixture(scope="module")
def page(built):
    with launched() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        yield context.new_page()


def _pct(v: float, minus: str = "-") -> str:
    return f"{100 * v:.1f}".replace("-", minus)


def test_compare_shows_the_builds_paired_differences(built, page) -> None:
    out, base = built
    rows = json.loads((out / "downloads" / "paired-differences.json").read_text("utf-8"))
    diffs = rows["differences"]
    row = next(
        d
        for d in diffs
        if (d["lang"], d["mode"], d["ability"]) == ("zh", "strict", "noise")
        and d["ci_low"] is not None
    )
    # B sorts before A: the page shows A - B = -(row's a - b), its interval flipped
    page.goto(f"{base}compare.html?a={row['b']}&b={row['a']}", wait_until="networkidle")
    assert page.locator("select[name=a]").input_value() == row["b"]
    cell = page.locator("#compare-zh-scores tr[data-ability=noise] td.lb-compare-diff")
    assert (
        cell.get_attribute("data-value") == str(-row["diff"])
        or abs(float(cell.get_attribute("data-value")) + row["diff"]) < 1e-12
    )
    shown = cell.inner_text()
    assert _pct(-row["diff"]).lstrip("+") in shown.replace("+", "")
    verdict = page.locator("#compare-zh-scores tr[data-ability=noise] td.lb-compare-verdict")
    expected = {1: "b_higher", -1: "a_higher", 0: "tied"}[row["sign"]]
    assert verdict.get_attribute("data-verdict") == expected
    assert page.locator("#compare-zh-outcomes tbody tr").count() == 8  # 4 abilities x 2 models
    # a choice made on the page goes into the URL
    page.select_option("select[name=b]", "baseline-copy-all")
    assert "b=baseline-copy-all" in page.url
    if os.environ.get("SITE_SHOTS_DIR"):
        page.screenshot(
            path=str(Path(os.environ["SITE_SHOTS_DIR"]) / "compare-en.png"), full_page=True
        )


def test_compare_page_in_chinese(built, page) -> None:
    _, base = built
    page.goto(f"{base}zh/compare.html?a=model-000&b=model-001", wait_until="networkidle")
    assert page.locator("h1").inner_text().startswith("比较两个模型")
    head = page.locator("#compare-zh-scores thead").inner_text()
    assert "配对" in head and "共同问题数" in head
    assert page.locator("#compare-zh-scores td.lb-compare-verdict").count() == 5


def test_home_folds_the_band_and_fits_1400_px(built, page) -> None:
    """(The quality-against-cost chart needs recorded costs, which the synthetic answers lack:
    its screenshots are of the real board's build.)"""
    _, base = built
    page.goto(f"{base}index.html", wait_until="networkidle")
    band = "#ranking-zh-strict tbody.lb-baseline-body tr"
    assert page.locator(f"{band}:visible").count() == 1
    page.locator("#ranking-zh-strict button.lb-band-toggle").click()
    assert page.locator(f"{band}:visible").count() == 2
    width = page.evaluate(
        "document.querySelector('#wrap-ranking-zh-strict .lb-scroll').scrollWidth"
    )
    client = page.evaluate(
        "document.querySelector('#wrap-ranking-zh-strict .lb-scroll').clientWidth"
    )
    assert width <= client, (width, client)  # no horizontal scrolling at 1400 px

"""The zh versus en page and the model report card in real headless Chromium, both interface
languages, desktop (1400 px) and phone (390 px) width (issue 22): the first screen holds an
ability chart and the paper's rows, strict mode comes before the reference mode, and no block of
machine-written reasons runs over 300 characters on any page.

Set SITE_SHOTS_DIR=/some/dir to save the screenshots (cmp-<page>-<lang>-<width>.png).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leaderboard.site.build import build_site
from leaderboard.site.serve import serve_in_thread
from tests.site.chromium import launched, require_browser
from tests.site_factory import make_repo, make_results, write_submission

pytestmark = pytest.mark.slow

SCREENS = {"desktop": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}
LANG_PREFIX = {"en": "", "zh": "zh/"}
REASONS_MAX = 300


def _add_baseline(root: Path) -> None:
    res = make_results("baseline-copy-all", "Baseline: copy all", n=4, skill=0.99)
    res = res.model_copy(
        update={"provenance": res.provenance.model_copy(update={"backend": "scripted"})}
    )
    folder = root / "submissions" / "baseline-copy-all"
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(res.model_dump_json(indent=2), encoding="utf-8")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    require_browser()
    root = make_repo(tmp_path_factory.mktemp("zhen"), n_models=3, n=4, predictions=False)
    half = make_results("model-009", "Half model", seed=9, n=4, expected_n=8)
    write_submission(root, half, None)  # a partial entry: its reasons must stay short
    _add_baseline(root)
    with serve_in_thread(build_site(root)) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base):
    with launched() as b:
        yield b


def _open(browser, url: str, screen: str):
    context = browser.new_context(viewport=SCREENS[screen], is_mobile=screen == "phone")
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    return context, page


def _shot(page, name: str) -> None:
    out = os.environ.get("SITE_SHOTS_DIR")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / f"cmp-{name}.png"))


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lg", LANG_PREFIX)
def test_first_screen_holds_a_chart_and_the_papers_rows(base, browser, lg, screen):
    context, page = _open(browser, f"{base}{LANG_PREFIX[lg]}zh-vs-en.html", screen)
    try:
        height = SCREENS[screen]["height"]
        first = page.locator(".lb-chart-grid .lb-chart img").first
        first.wait_for()
        box = first.bounding_box()
        assert box and box["y"] < height and box["height"] > 100, box
        loaded = page.evaluate(
            "() => { const i = document.querySelector('.lb-chart-grid img');"
            " return i.complete && i.naturalWidth > 0; }"
        )
        assert loaded
        # the chart's rows include the paper's (its alt text says so, and the SVG names them)
        svg = page.evaluate(
            "async () => (await fetch(document.querySelector('.lb-chart-grid img').src)).text()"
        )
        assert "ChatGPT" in svg and ("reported in the paper" in svg or "论文报告值" in svg)
        note = page.locator("p.lb-note").first
        assert note.bounding_box()["y"] < height  # the paper's rows explained on the first screen
        _shot(page, f"zh-vs-en-{lg}-{SCREENS[screen]['width']}")
        # strict (the ranked mode) here, the reference mode on its own page, linked
        ids = page.eval_on_selector_all("table.lb-table", "ts => ts.map(t => t.id)")
        assert ids[0] == "zh-vs-en-strict" and "zh-vs-en-rgb" not in ids
        assert page.locator("#zh-vs-en-strict tbody.lb-reported-body tr").count() > 0
        assert page.locator("a[href='zh-vs-en-rgb.html']").count() == 1
        if screen == "desktop":
            page.locator("#zh-vs-en-strict").scroll_into_view_if_needed()
            _shot(page, f"zh-vs-en-table-{lg}-1400")
    finally:
        context.close()


def test_table_sorts_by_zh_minus_en(base, browser):
    context, page = _open(browser, f"{base}zh-vs-en.html", "desktop")
    try:
        head = page.locator("#zh-vs-en-strict thead th").nth(5)
        assert "zh − en" in head.inner_text()
        head.click()
        values = page.eval_on_selector_all(
            "#zh-vs-en-strict > tbody:first-of-type tr td:nth-child(6)",
            "tds => tds.map(td => parseFloat(td.getAttribute('data-sort')))",
        )
        assert len(values) > 3 and values == sorted(values)
    finally:
        context.close()


@pytest.mark.parametrize("lg", LANG_PREFIX)
def test_strict_precedes_rgb_and_reasons_stay_short(base, browser, lg):
    pages = ("index.html", "zh-vs-en.html", "zh-vs-en-rgb.html", "abilities/zh-noise.html")
    pages += ("models/model-009.html",)
    pages += ("retrieval-to-answer.html",)
    context = browser.new_context(viewport=SCREENS["desktop"])
    page = context.new_page()
    try:
        for path in pages:
            page.goto(f"{base}{LANG_PREFIX[lg]}{path}", wait_until="networkidle")
            blocks = page.eval_on_selector_all(
                ".lb-cell-notes li, p.lb-warn, .lb-why",
                "els => els.map(e => e.innerText.trim())",
            )
            long = [b for b in blocks if len(b) > REASONS_MAX]
            assert not long, (path, long[:1])
            ids = page.eval_on_selector_all("table.lb-table", "ts => ts.map(t => t.id)")
            strict = [i for i, t in enumerate(ids) if t.endswith("-strict")]
            rgb = [i for i, t in enumerate(ids) if t.endswith("-rgb")]
            if strict and rgb:
                assert strict[0] < rgb[0], (path, ids)
        page.goto(f"{base}{LANG_PREFIX[lg]}models/model-009.html", wait_until="networkidle")
        card = page.locator("#model-model-009-card")
        assert card.is_visible() and card.locator("tbody tr").count() >= 5
        assert not page.locator("#model-model-009-scores").is_visible()  # collapsed
        page.locator("details.lb-all summary").click()
        assert page.locator("#model-model-009-scores").is_visible()
        page.locator("details.lb-all summary").click()
        _shot(page, f"model-{lg}-1400")
    finally:
        context.close()

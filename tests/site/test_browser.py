"""The built site in real headless Chromium (Debian's /usr/bin/chromium, driven by playwright)
served on 127.0.0.1: tables, sorting, filters, the instance browser, escaping, CJK text, dark mode,
phone width, and no request leaving 127.0.0.1. Skips with the reason when no browser is installed.

Set SITE_SHOTS_DIR=/some/dir to also save screenshots of the home, zh-vs-en and a model page.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from leaderboard.site.build import build_site
from leaderboard.site.serve import serve_in_thread
from tests.site.chromium import launched, require_browser
from tests.site_factory import (
    XSS,
    default_text,
    make_predictions,
    make_repo,
    make_results,
    write_submission,
)

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
N = 4


def _zh_refine() -> Path | None:
    for p in (
        REPO / "data_zh" / "zh_refine.json",
        REPO.parent / "shared" / "rgb" / "zh_refine.json",
    ):
        if p.is_file():
            return p
    return None


def _with_answers(root: Path) -> bool:
    """Copy the zh noise split into the test repo and make model-000 answer the even ids right."""
    src = _zh_refine()
    if src is None:
        return False
    (root / "data_zh").mkdir(exist_ok=True)
    shutil.copyfile(src, root / "data_zh" / "zh_refine.json")
    from leaderboard.protocol.instances import build_instances

    _, insts = build_instances(root, "zh", "noise", noise_rates=(0.0, 0.2, 0.4, 0.6, 0.8), limit=N)
    gold = {}
    for inst in insts:
        first = [el if isinstance(el, str) else el[0] for el in inst.answer]
        gold[inst.key] = "答案是" + "，".join(first) + "。"

    def text(sub_id: str, key: str, idx: int) -> str:
        if key in gold and idx % 2 == 0:
            return gold[key]
        return default_text(sub_id, key, idx)

    res = make_results("model-000", f"Model 000 {XSS}", seed=0, n=N, expected_n=2 * N)
    write_submission(root, res, make_predictions("model-000", N, text))
    return True


def _add_baseline(root: Path, sub_id: str = "baseline-copy-all", skill: float = 0.99) -> None:
    """A trivial baseline (scripted backend), scoring above every model, for the band tests."""
    res = make_results(
        sub_id, "Baseline: " + sub_id.split("-", 1)[1].replace("-", " "), n=N, skill=skill
    )
    res = res.model_copy(
        update={"provenance": res.provenance.model_copy(update={"backend": "scripted"})}
    )
    folder = root / "submissions" / sub_id
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(res.model_dump_json(indent=2), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_browser()
    root = make_repo(tmp_path_factory.mktemp("browser"), n_models=3, n=N)
    scored = _with_answers(root)
    _add_baseline(root)
    with pytest.MonkeyPatch.context() as mp:  # tiny data parts: every instance page has several
        mp.setattr("leaderboard.site.pages.instances.parts.PART_BYTES", 1500)
        built = build_site(root)
    with serve_in_thread(built) as base:
        yield base, scored


@pytest.fixture(scope="module")
def browser(site):
    with launched() as b:
        yield b


class Visit:
    """A page that records every request and dialog, so tests can assert none left 127.0.0.1."""

    def __init__(self, browser, base: str, **context_args) -> None:
        self.base = base
        self.context = browser.new_context(**context_args)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def go(self, path: str):
        self.page.goto(self.base + path, wait_until="networkidle")
        return self.page

    @property
    def external(self) -> list[str]:
        return [
            u for u in self.requests if not u.startswith((self.base, "data:", "blob:", "about:"))
        ]

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(site, browser):
    base, _ = site
    v = Visit(browser, base, viewport={"width": 1280, "height": 900}, color_scheme="light")
    yield v
    assert v.external == [], f"requests left 127.0.0.1: {v.external}"
    assert v.dialogs == [], f"a script ran and opened a dialog: {v.dialogs}"
    v.close()


def _sort_values(page, table_id: str, col: int) -> list[float]:
    return page.eval_on_selector_all(
        f"#{table_id} tbody tr td:nth-child({col})",
        "tds => tds.map(td => parseFloat(td.getAttribute('data-sort')))",
    )


def test_home_tables_sort_and_filter(visit):
    page = visit.go("index.html")
    for tid in ("ranking-zh-strict", "ranking-en-strict", "ranking-all-strict", "reported-paper"):
        assert page.locator(f"#{tid}").count() == 1, tid
    ranked = "#ranking-zh-strict > tbody:first-of-type"
    assert page.locator(f"{ranked} > tr").count() == 3
    overall = page.locator("#ranking-zh-strict thead th").nth(2)
    assert overall.inner_text().strip() == "Overall"
    overall.click()
    asc = _sort_values(page, "ranking-zh-strict", 3)
    assert asc == sorted(asc[:3]) + asc[3:]  # each tbody sorts on its own
    overall.click()
    desc = _sort_values(page, "ranking-zh-strict", 3)
    assert desc[:3] == sorted(desc[:3], reverse=True) and desc != asc
    page.fill("input[data-table='ranking-zh-strict']", "Model 002")
    visible = page.locator(f"{ranked} > tr:visible")
    assert visible.count() == 1 and "Model 002" in visible.inner_text()
    page.fill("input[data-table='ranking-zh-strict']", "")
    assert page.locator(f"{ranked} > tr:visible").count() == 3
    reported = page.locator("#reported-paper tbody.lb-reported-body tr").first
    assert "reported in paper" in reported.inner_text()


def test_baseline_band_stays_under_the_ranking_when_sorted(visit):
    """The baseline scores above every model, yet sorting never lifts it into the ranked rows."""
    for path, tid in (
        ("index.html", "ranking-zh-strict"),
        ("abilities/zh-noise.html", "zh-noise-strict"),
    ):
        page = visit.go(path)
        head = page.locator(f"#{tid} thead th")
        for _ in range(2):
            head.nth(2).click()
            rows = page.locator(f"#{tid} tbody tr").all_inner_texts()
            band = next(i for i, r in enumerate(rows) if "Trivial baselines" in r)
            assert all("Baseline: copy all" not in r for r in rows[:band]), path
            assert "Baseline: copy all" in rows[band + 1] and "trivial baseline" in rows[band + 1]
        assert page.locator(f"#{tid} tbody.lb-band-head th").is_visible()


def test_xss_payload_is_text_and_never_runs(visit):
    for path in (
        "index.html",
        "models/model-000.html",
        "instances/zh-noise-0.0.html",
        "zh-vs-en.html",
    ):
        page = visit.go(path)
        page.wait_for_timeout(200)
        assert XSS in page.inner_text("body"), path
        injected = page.evaluate(
            "Array.from(document.scripts).filter(s => s.type !== 'application/json'"
            " && s.textContent.includes('alert(')).length"
        )
        assert injected == 0, path
    page = visit.go("instances/zh-noise-0.0.html")
    assert page.locator(".lb-output", has_text="</script><script>alert(2)</script>").count() > 0


def test_instance_browser_filters(site, visit):
    _, scored = site
    page = visit.go("instances/zh-noise-0.0.html")
    page.wait_for_selector(".lb-item")
    assert page.locator(".lb-item").count() == N
    if not scored:
        assert "rgb-leaderboard data fetch" in page.inner_text("body")
        pytest.skip("RGB zh data not available here: pass/fail filtering needs scored instances")
    selects = page.locator(".lb-controls select")
    selects.nth(1).select_option("pass")
    badges = page.locator(".lb-answers .lb-badge").all_inner_texts()
    assert badges and set(badges) == {"pass"}
    selects.nth(1).select_option("fail")
    badges = page.locator(".lb-answers .lb-badge").all_inner_texts()
    assert badges and set(badges) == {"fail"}
    selects.nth(1).select_option("all")
    selects.nth(0).select_option("model-000")
    models = page.eval_on_selector_all(".lb-answers tr", "trs => trs.map(t => t.dataset.model)")
    assert set(models) == {"model-000"}
    page.fill(".lb-controls input", "#2")
    assert page.eval_on_selector_all(".lb-item", "a => a.map(x => x.dataset.id)") == ["2"]
    assert "Gold answer" in page.inner_text(".lb-item") and page.locator(".lb-docs").count() == 1


def test_chinese_text_renders(visit):
    page = visit.go("instances/zh-noise-0.0.html")
    page.wait_for_selector(".lb-item")
    cell = page.locator(".lb-output", has_text="答案是").first
    box = cell.bounding_box()
    assert box and box["width"] > 20
    assert len(cell.screenshot()) > 500
    # a CJK font is installed: "北" must not rasterise like an unassigned code point (tofu)
    differs = page.evaluate("""() => {
        const c = document.createElement('canvas'); c.width = 40; c.height = 40;
        const g = c.getContext('2d'); g.font = '32px sans-serif';
        const draw = t => { g.clearRect(0, 0, 40, 40); g.fillText(t, 2, 32);
                            return Array.from(g.getImageData(0, 0, 40, 40).data).join(','); };
        return draw('北') !== draw('\\u0378');
    }""")
    assert differs, "Chinese glyphs render as tofu: install fonts-noto-cjk"


def test_dark_mode_toggle(visit):
    page = visit.go("index.html")
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    assert page.evaluate(scheme) == "default"
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    page.wait_for_timeout(100)
    assert page.evaluate(scheme) == "slate"


PHONE = {"width": 390, "height": 844}
_FITS = """() => Array.from(document.querySelectorAll('.lb-scroll'))
    .filter(e => e.querySelector('table.lb-facts-js'))
    .map(e => [e.querySelector('table').id, e.scrollWidth - e.clientWidth])"""


@pytest.fixture(scope="module")
def repository_site(repository_build):
    """This repository's own site (tests/site/conftest.py), served: the real board's tables."""
    require_browser()
    with serve_in_thread(repository_build) as base:
        yield base


@pytest.mark.parametrize("board", ["synthetic", "repository"])
@pytest.mark.parametrize("path", ["index.html", "zh/index.html"])
def test_home_tables_fit_a_phone_and_the_rest_is_one_tap_away(request, browser, board, path):
    """At 390 px every table of the home page fits the screen in both languages (the columns a
    phone folds away are behind the table's "All columns" switch); one tap shows them, and the
    wider table then scrolls inside its wrapper, never the page."""
    base = (
        request.getfixturevalue("site")[0]
        if board == "synthetic"
        else request.getfixturevalue("repository_site")
    )
    v = Visit(browser, base, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = v.go(path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        over = [(t, px) for t, px in page.evaluate(_FITS) if px > 1]
        assert over == [], f"{path}: tables wider than the screen (px): {over}"
        table = "#ranking-zh-strict"
        folded = page.locator(f"{table} thead th.lb-narrow-hide")
        assert folded.count() > 0 and not folded.first.is_visible()
        page.locator("form.lb-facets[data-table='ranking-zh-strict'] .lb-facet-more").tap()
        assert folded.first.is_visible()
        assert page.locator(f"{table} thead th.lb-extra").first.is_visible()
        wide = page.evaluate(
            f"(() => {{ const w = document.querySelector('{table}').closest('.lb-scroll');"
            " return w.scrollWidth > w.clientWidth; })()"
        )
        assert wide, "all columns shown: the table scrolls inside its wrapper"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("form.lb-facets[data-table='ranking-zh-strict'] .lb-facet-more").tap()
        assert not folded.first.is_visible()
        assert v.external == []
    finally:
        v.close()


def test_screenshots_when_asked(site, browser):
    out = os.environ.get("SITE_SHOTS_DIR")
    if not out:
        pytest.skip("set SITE_SHOTS_DIR to save screenshots")
    base, _ = site
    v = Visit(browser, base, viewport={"width": 1280, "height": 900})
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
        for path, name in (
            ("index.html", "home"),
            ("zh-vs-en.html", "zh-vs-en"),
            ("models/model-001.html", "model"),
        ):
            v.go(path).screenshot(path=str(Path(out) / f"synthetic-{name}.png"), full_page=True)
    finally:
        v.close()


def test_instance_page_loads_its_data_parts_on_demand(site, visit):
    """The page embeds a manifest only; its parts come from the same origin when needed (the
    visit fixture asserts no request left 127.0.0.1)."""
    base, _ = site
    page = visit.go("instances/zh-noise-0.0.html")
    page.wait_for_selector(".lb-item")
    manifest = page.evaluate("JSON.parse(document.getElementById('lb-instances-data').textContent)")
    assert "items" not in manifest and len(manifest["parts"]) > 1
    parts = [u for u in visit.requests if "/instances/data/" in u]
    assert parts and all(u.startswith(base + "instances/data/zh-noise-0.0/") for u in parts)
    assert page.locator(".lb-item").count() == manifest["n_items"] == N
    assert page.locator(".lb-count").inner_text() == f"{N} of {N} instances"


def test_tables_fit_the_content_width_at_1400px(site, browser):
    base, _ = site
    v = Visit(browser, base, viewport={"width": 1400, "height": 900})
    try:
        for path in ("index.html", "abilities/zh-noise.html", "submission-reference.html"):
            over = v.go(path).evaluate("""() => {
                const right = document.querySelector('.md-content__inner')
                    .getBoundingClientRect().right;
                return Array.from(document.querySelectorAll('table'))
                    .filter(t => t.getBoundingClientRect().right > right + 1)
                    .map(t => t.id || t.className);
            }""")
            assert over == [], path
        assert v.external == []
    finally:
        v.close()


def test_chinese_pages_render_switch_language_and_sort(site, visit):
    """zh home: Chinese interface, CJK fonts first, the same numbers as the English page, sorting;
    the header's language switch lands on the same page in the other language."""
    en_page = visit.go("ranking-rgb.html")
    en_sorted = _sort_values(en_page, "ranking-zh-rgb", 3)
    # material's selector looks the page up in the sitemap before it navigates (asynchronously)
    en_page.evaluate("document.querySelector('a[hreflang=\"zh\"]').click()")
    en_page.wait_for_url("**/zh/**", timeout=10_000)
    en_page.wait_for_load_state("networkidle")
    assert en_page.url == visit.base + "zh/ranking-rgb.html"
    assert _sort_values(en_page, "ranking-zh-rgb", 3) == en_sorted
    assert en_page.evaluate("document.documentElement.lang").startswith("zh")
    page = visit.go("zh/index.html")
    assert "RGB 中英双语 RAG 鲁棒性排行榜" in page.inner_text("h1")
    assert page.locator("input[data-table='ranking-zh-strict']").get_attribute("placeholder") == (
        "筛选行"
    )
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert font.index("Noto Sans CJK SC") < font.index("Helvetica")
    head = page.locator("#ranking-zh-strict thead th").nth(2)
    assert head.inner_text().strip() == "总分"
    head.click()
    asc = _sort_values(page, "ranking-zh-strict", 3)
    assert asc[:3] == sorted(asc[:3])
    page.evaluate("document.querySelector('a[hreflang=\"en\"]').click()")
    page.wait_for_url(lambda url: "/zh/" not in url, timeout=10_000)
    page.wait_for_load_state("networkidle")
    assert page.url == visit.base + "index.html"
    assert "Filter rows" in page.locator("input.lb-filter").first.get_attribute("placeholder")


def test_chinese_pages_at_phone_width_and_in_dark_mode(site, browser):
    base, _ = site
    v = Visit(browser, base, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        for path in (
            "zh/index.html",
            "zh/instances/zh-noise-0.0.html",
            "zh/abilities/zh-noise.html",
            "zh/models/model-001.html",
        ):
            page = v.go(path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 392, path
        v.go("zh/instances/zh-noise-0.0.html").wait_for_selector(".lb-item")  # parts under zh/
        v.context.close()
        v = Visit(browser, base, viewport={"width": 1280, "height": 900}, color_scheme="dark")
        page = v.go("zh/index.html")
        page.locator("form[data-md-component='palette'] label:visible").first.click()
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") in (
            "slate",
            "default",
        )
        assert v.external == []
    finally:
        v.close()


def test_chinese_instance_browser_speaks_chinese_and_filters(site, visit):
    """The zh browser page: the script's words come from the page (zh), data parts load from the
    same origin (under zh/), the filters work, answers stay text."""
    base, scored = site
    page = visit.go("zh/instances/zh-noise-0.0.html")
    page.wait_for_selector(".lb-item")
    assert page.locator(".lb-count").inner_text() == f"{N} / {N} 个实例"
    assert page.locator(".lb-more").inner_text() == "显示更多"
    assert page.locator(".lb-controls input").get_attribute("placeholder") == (
        "搜索编号、问题、答案或输出"
    )
    labels = page.locator(".lb-controls label").all_inner_texts()
    assert [t.split()[0] for t in labels] == ["模型", "结果", "模式"]
    options = page.locator(".lb-controls select").nth(1).locator("option").all_inner_texts()
    assert options == ["通过与未通过", "通过", "未通过"]
    parts = [u for u in visit.requests if "/instances/data/" in u]
    assert parts and all(u.startswith(base + "zh/instances/data/zh-noise-0.0/") for u in parts)
    body = page.inner_text("main")
    for english in ("Show more", "Gold answer", "all models", "Filters run", "pass and fail"):
        assert english not in body, english
    assert XSS in body  # a model's name and output are text, not markup
    if scored:
        page.locator(".lb-controls select").nth(1).select_option("pass")
        badges = page.locator(".lb-answers .lb-badge").all_inner_texts()
        assert badges and set(badges) == {"通过"}
        assert "标准答案：" in page.inner_text(".lb-item")
    page.fill(".lb-controls input", "#2")
    assert page.eval_on_selector_all(".lb-item", "a => a.map(x => x.dataset.id)") == ["2"]


@pytest.mark.parametrize(
    ("path", "heading", "table"),
    [
        ("abilities/zh-noise.html", "噪声鲁棒性——中文（zh）", "zh-noise-rgb"),
        ("abilities/en-rejection.html", "否定拒答——英文（en）", "en-rejection"),
        ("abilities/zh-counterfactual.html", "反事实鲁棒性——中文（zh）", "zh-counterfactual-rgb"),
        ("models/model-001.html", "Model 001", "model-model-001-card"),
    ],
)
def test_chinese_ability_and_model_pages_switch_and_sort(site, visit, path, heading, table):
    """The zh page: Chinese headings and columns, its chart in Chinese, the same numbers as the
    English page; the language switch lands on the same page; sorting works."""
    en = visit.go(path)
    en_values = en.eval_on_selector_all(
        f"#{table} td[data-sort]", "tds => tds.map(td => td.getAttribute('data-sort'))"
    )
    en.evaluate("document.querySelector('a[hreflang=\"zh\"]').click()")
    en.wait_for_url("**/zh/**", timeout=10_000)
    en.wait_for_load_state("networkidle")
    assert en.url == visit.base + "zh/" + path
    page = en
    assert page.inner_text("h1").strip().rstrip("¶").strip() == heading
    zh_values = page.eval_on_selector_all(
        f"#{table} td[data-sort]", "tds => tds.map(td => td.getAttribute('data-sort'))"
    )
    assert zh_values == en_values and zh_values
    heads = page.locator(f"#{table} thead th").all_inner_texts()
    assert heads[0] in ("模型", "语言", "能力") and "Model" not in heads
    # the charts load lazily (loading="lazy"): bring each into view, as a reader scrolling does
    charts = page.eval_on_selector_all(
        "figure.lb-chart img",
        """async imgs => {
            for (const i of imgs) { i.scrollIntoView(); await i.decode().catch(() => null); }
            return imgs.map(i => [i.getAttribute('src'), i.naturalWidth]);
        }""",
    )
    assert charts and all("charts/zh/" in src and width > 0 for src, width in charts)
    page.evaluate("window.scrollTo(0, 0)")
    numeric = page.locator(f"#{table} thead th[data-sort-method='number']").first
    numeric.click()
    assert page.locator(f"#{table} thead th[aria-sort]").count() == 1
    page.evaluate("document.querySelector('a[hreflang=\"en\"]').click()")
    page.wait_for_url(lambda url: "/zh/" not in url, timeout=10_000)
    assert page.url == visit.base + path


def _search(page, query: str) -> list[str]:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.wait_for_timeout(1500)  # the search worker loads its index
    page.fill("input.md-search__input", query)
    page.keyboard.press("End")
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    return page.locator(".md-search-result__item a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )


def test_search_finds_chinese_words_and_english_pages_once(site, visit):
    """Chinese is segmented by jieba at build time; English results do not repeat the English
    text that untranslated pages carry under zh/."""
    hits = _search(visit.go("zh/index.html"), "鲁棒性")
    # the English glossary lists each term's Chinese word, by design
    assert hits and all("/zh/" in h or "/glossary.html" in h for h in hits)
    assert any("/zh/" in h for h in hits)
    hits = _search(visit.go("index.html"), "robustness")
    # the Chinese glossary lists each term's English word, by design
    assert hits and not any("/zh/" in h and "/glossary.html" not in h for h in hits)

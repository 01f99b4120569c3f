"""The ranking filters (render.filters, render.facts, assets/lb.js): the bar's options in the
page's language, and in real Chromium (both languages, desktop and phone width) a filtered view
that survives a reload of its URL. SITE_SHOTS_DIR=/some/dir saves screenshots of the views."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.site.build import build_site
from leaderboard.site.pages.home import ranking_table
from leaderboard.site.render.filters import filter_bar
from leaderboard.site.serve import serve_in_thread
from tests.site.chromium import launched, require_browser
from tests.site_factory import make_predictions, make_repo, make_results, write_submission

N = 3
# (id, name, params, backend, provenance quantization, licence, open weights)
Q4_K_M = {"mode": "gguf", "file_type": "15"}
MODELS = (
    ("tiny-q4km", "Tiny Q4_K_M", "1.5B", "llamacpp", Q4_K_M, "Apache-2.0", None),
    ("tiny-q41", "Tiny Q4_1", "0.5B", "llamacpp", {"mode": "gguf", "file_type": "3"}, "MIT", None),
    ("mid-nf4", "Mid nf4", "7B", "hf", {"mode": "4bit", "quant_type": "nf4"}, "llama3.1", None),
    ("closed-q4km", "Closed Q4_K_M", "1.5B", "openai", Q4_K_M, "proprietary", False),
)


def _repo(root: Path) -> Path:
    make_repo(root, n_models=0, n=N)
    for i, (sub_id, name, params, backend, quant, licence, open_w) in enumerate(MODELS):
        res = make_results(sub_id, name, seed=i, n=N)
        described = {"quantization": quant}
        prov = res.provenance.model_copy(
            update={"backend": backend, "extra": {"backend": described}}
        )
        res = res.model_copy(update={"provenance": prov})
        yaml = f"id: {sub_id}\ndisplay_name: {name}\nparams: {params}\nlicence: {licence}\n"
        if open_w is not None:
            yaml += f"open_weights: {str(open_w).lower()}\n"
        write_submission(root, res, make_predictions(sub_id, N), model_yaml=yaml)
    return root


def _ranked_ids(table) -> list[str]:
    return [next(c.entry for c in r.cells.values() if c.entry) for r in table.rows]


def test_rows_carry_their_facets_and_the_bar_lists_what_they_hold(tmp_path):
    data = load_site_data(_repo(tmp_path))
    table = ranking_table(data, "zh", "strict", "", "zh")
    assert sorted(_ranked_ids(table)) == sorted(m[0] for m in MODELS)
    facets = {e: dict(r.attrs) for e, r in zip(_ranked_ids(table), table.rows, strict=True)}
    assert facets["tiny-q4km"]["f-quant"] == "Q4_K_M" and facets["tiny-q4km"]["f-open"] == "yes"
    assert facets["tiny-q41"]["f-quant"] == "Q4_1"
    assert facets["mid-nf4"]["f-quant"] == "bnb-nf4"
    assert facets["mid-nf4"]["f-params"] == "7000000000"
    assert facets["closed-q4km"]["f-open"] == "no"
    bar = filter_bar(table.id, "zh", [dict(r.attrs) for r in table.rows])
    assert "开放权重" in bar and "≤ 2B" in bar and 'value="Q4_K_M"' in bar
    assert 'value="llama3.1" lang="en"' in bar and "Filter" not in bar
    assert 'data-table="ranking-zh-strict"' in bar


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_browser()
    built = build_site(_repo(tmp_path_factory.mktemp("filters")))
    with serve_in_thread(built) as base:
        yield base


def _visible_rows(page, table_id: str) -> list[str]:
    return page.eval_on_selector_all(
        f"#{table_id} > tbody:first-of-type > tr",
        "trs => trs.filter(tr => !tr.hidden).map(tr => tr.cells[1].querySelector('a').innerText)",
    )


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_filtered_view_is_a_link_that_survives_a_reload(site, lang, viewport):
    path = "zh/index.html" if lang == "zh" else "index.html"
    table = "ranking-zh-strict"
    shots = os.environ.get("SITE_SHOTS_DIR")
    with launched() as browser:
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        page.goto(site + path, wait_until="networkidle")
        assert len(_visible_rows(page, table)) == len(MODELS)
        bar = page.locator(f"form.lb-facets[data-table='{table}']")
        bar.locator("select[name='open']").select_option("yes")
        bar.locator("select[name='size']").select_option("le2b")
        bar.locator("select[name='quant']").select_option("Q4_K_M")
        rows = _visible_rows(page, table)
        assert rows == ["Tiny Q4_K_M"], rows
        url = page.url
        assert "open=yes" in url and "size=le2b" in url and "quant=Q4_K_M" in url
        count = bar.locator(".lb-facet-count").inner_text()
        assert ("1 / 4" in count) if lang == "zh" else ("1 of 4" in count), count
        # every ranking table of the page follows the same choice
        assert _visible_rows(page, "ranking-en-strict") == ["Tiny Q4_K_M"]
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            name = f"filter-{lang}-{'phone' if viewport[0] < 600 else 'desktop'}"
            page.locator(f"#wrap-{table}").screenshot(path=str(Path(shots) / f"{name}.png"))
        fresh = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        fresh.goto(url, wait_until="networkidle")
        assert _visible_rows(fresh, table) == rows
        again = fresh.locator(f"form.lb-facets[data-table='{table}']")
        assert again.locator("select[name='quant']").input_value() == "Q4_K_M"
        assert again.locator("select[name='open']").input_value() == "yes"
        if viewport[0] < 600:  # the bar fits the phone's width: no sideways scrolling for it
            box = again.bounding_box()
            assert box is not None and box["x"] + box["width"] <= viewport[0] + 1
        extra = f"#{table} thead th.lb-extra"
        assert fresh.locator(extra).first.is_hidden()  # by default: the table keeps its width
        again.locator("button.lb-facet-more").click()
        assert fresh.locator(extra).first.is_visible() and "facts=all" in fresh.url
        if shots:
            name = f"filter-all-facts-{lang}-{'phone' if viewport[0] < 600 else 'desktop'}"
            fresh.locator(f"#wrap-{table}").screenshot(path=str(Path(shots) / f"{name}.png"))
        fresh.goto(fresh.url, wait_until="networkidle")
        assert fresh.locator(extra).first.is_visible() and _visible_rows(fresh, table) == rows
        again.locator("button[type='reset']").click()
        assert len(_visible_rows(fresh, table)) == len(MODELS)
        assert "quant=" not in fresh.url and "facts=all" in fresh.url

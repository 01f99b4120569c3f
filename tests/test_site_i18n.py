"""The message tables of the site languages (leaderboard/site/messages/*.yaml) and the translated
pages: same keys and placeholders, Chinese punctuation, the same numbers in both languages.

Translated so far (issue 16): the home page (index), the reference-mode page (ranking-rgb) and
zh versus en (zh-vs-en), with their tables, badges and notes, and the navigation
(site/mkdocs.yml); every other page falls back to its English text in the Chinese site.
"""

from __future__ import annotations

import re
import string

import pytest
from site_factory import make_repo

from leaderboard.board.load import load_site_data
from leaderboard.site.pages.home import home_page, translated_home_pages
from leaderboard.site.pages.zh_vs_en import translated_zh_vs_en_page, zh_vs_en_page
from leaderboard.site.render.i18n import SITE_LANGS, localized, table, ui
from leaderboard.site.render.page import Output

CJK = "\u4e00-\u9fff"
# ASCII punctuation touching a Chinese character: in Chinese prose it should be full-width
HALF_WIDTH = re.compile(rf"[{CJK}][,;:!?()]|[,;:!?()][{CJK}]")
TERMS = ("噪声鲁棒性", "否定拒答", "信息整合", "反事实鲁棒性")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_the_same_keys_and_placeholders():
    en = table("en")
    for lang in SITE_LANGS:
        t = table(lang)
        assert set(t) == set(en), lang
        for key, text in t.items():
            assert _fields(text) == _fields(en[key]), (lang, key)


def test_chinese_prose_uses_full_width_punctuation_and_the_rgb_terms():
    zh = table("zh")
    for key, text in zh.items():
        prose = re.sub(r"`[^`]*`|\([^)]*\.md\)", "", text)  # code and link targets stay ASCII
        assert not HALF_WIDTH.search(prose), (key, HALF_WIDTH.search(prose).group(0))
    for term in TERMS:
        assert term in zh["home.intro"]
    assert [zh[f"short.{a}"] for a in ("noise", "rejection", "integration", "counterfactual")] == [
        *TERMS
    ]


def test_missing_key_falls_back_to_english_and_unknown_language_fails():
    assert ui("zh", "col.n") == "n"
    with pytest.raises(KeyError):
        table("fr")
    assert localized("index.md", "en") == "index.md"
    assert localized("index.md", "zh") == "index.zh.md"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return load_site_data(make_repo(tmp_path_factory.mktemp("i18n"), n_models=3, n=4))


def test_translated_pages_show_the_same_numbers(data):
    pages = {**translated_home_pages(data, "zh"), **translated_zh_vs_en_page(data, "zh")}
    assert set(pages) == {"index.zh.md", "ranking-rgb.zh.md", "zh-vs-en.zh.md"}
    english = {
        "index": home_page(data, Output(), "strict"),
        "ranking-rgb": home_page(data, Output(), "rgb"),
        "zh-vs-en": zh_vs_en_page(data, Output()),
    }
    for path, en in english.items():
        zh = pages[f"{path}.zh.md"]
        sort = re.compile(r'data-sort="([^"]*)"')
        numbers = re.compile(r'<span class="lb-ci">([^<]*)</span>|>(-?\d+\.\d)<')
        assert sort.findall(zh) == sort.findall(en) and sort.findall(en)
        assert numbers.findall(zh) == numbers.findall(en)
        assert re.findall(r'id="([^"]+)"', zh) == re.findall(r'id="([^"]+)"', en)
    zh = pages["index.zh.md"]
    assert "# RGB 中英双语 RAG 鲁棒性排行榜" in zh and "筛选行" in zh and "## 中文（zh）" in zh
    assert "Filter rows" not in zh and "Download:" not in zh and "trivial baseline" not in zh
    zhen = pages["zh-vs-en.zh.md"]
    assert "# 中文与英文对比" in zhen and "表现更稳的语言" in zhen and "Holds up better" not in zhen


def test_english_table_agrees_with_the_names_other_pages_still_use():
    """Pages not yet on the message tables name languages, modes and abilities from page.py's
    dicts: the English table must say the same, so translated and untranslated pages agree."""
    from leaderboard.site.render.page import ABILITY_NAMES, LANG_NAMES, MODE_NAMES, SHORT_NAMES

    for key, name in LANG_NAMES.items():
        assert ui("en", f"lang.{key}") == name
    for key, name in MODE_NAMES.items():
        assert ui("en", f"mode.{key}") == name
    for key, name in ABILITY_NAMES.items():
        assert ui("en", f"ability.{key}") == name
    for key, name in SHORT_NAMES.items():
        assert ui("en", f"short.{key}") == name

"""The repository's docs/ pages as the site's Docs section (site/pages/docs.py), in both languages:
a page added to docs/ is in the site with no code change; a page without a Chinese translation is
shown in the Chinese site in English, under a line saying so, marked as English."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from leaderboard.site.build import build_site
from leaderboard.site.pages.docs import (
    PROJECT_DOCS,
    doc_pages,
    docs_folder,
    index_texts,
    page_texts,
    with_docs_nav,
)
from leaderboard.site.render.i18n import ui
from tests.site_factory import make_repo

REPO = Path(__file__).resolve().parents[2]


def _docs(root: Path) -> Path:
    folder = root / "docs"
    (folder / "zh").mkdir(parents=True)
    (folder / "serving.md").write_text("# Serving\n\n## Start\n\nRun it.\n", encoding="utf-8")
    (folder / "submit.md").write_text("# Submitting\n\nSee [serving](serving.md).\n", "utf-8")
    zh = "# 提交\n\n见[服务](../serving.md#start)。\n"
    (folder / "zh" / "submit.md").write_text(zh, encoding="utf-8")
    (folder / "zh" / "titles.yaml").write_text("serving.md: 服务\n", encoding="utf-8")
    return folder


def test_every_page_in_both_languages(tmp_path: Path) -> None:
    pages = {p.name: p for p in doc_pages(_docs(tmp_path))}
    assert list(pages) == ["serving.md", "submit.md"]
    assert pages["submit.md"].titles == {"en": "Submitting", "zh": "提交"}
    assert pages["serving.md"].titles == {
        "en": "Serving",
        "zh": ui("zh", "docs.in_english", title="服务"),
    }
    texts = page_texts(list(pages.values()))
    assert set(texts) == {
        "docs/serving.md",
        "docs/serving.zh.md",
        "docs/submit.md",
        "docs/submit.zh.md",
    }
    # a link from docs/zh/ to an English page points into the site's one docs folder
    assert "见[服务](serving.md#start)。" in texts["docs/submit.zh.md"]
    fallback = texts["docs/serving.zh.md"]
    assert ui("zh", "docs.untranslated") in fallback
    assert '<div lang="en" markdown="1">\n\n# Serving\n\n## Start\n\nRun it.\n\n</div>' in fallback


def test_the_section_has_an_index_in_both_languages(tmp_path: Path) -> None:
    """Each page's title and first sentence, in the page language; a page not translated yet is
    said to be English and its sentence marked so; the index opens the section's nav."""
    pages = doc_pages(_docs(tmp_path))
    texts = index_texts(pages)
    assert set(texts) == {"docs/index.md", "docs/index.zh.md"}
    assert texts["docs/index.md"].startswith("# Documentation\n")
    assert "- [Submitting](submit.md): See serving." in texts["docs/index.md"]
    zh = texts["docs/index.zh.md"]
    assert zh.startswith("# 文档\n") and "- [提交](submit.md)：见服务。" in zh
    assert '- [服务（英文）](serving.md)：<span lang="en">Run it.</span>' not in zh  # a heading
    assert "- [服务（英文）](serving.md)" in zh
    (docs,) = [e for e in with_docs_nav([], pages, "zh") if "Docs" in e]
    assert docs["Docs"][0] == {"概览": "docs/index.md"}


def test_a_repository_without_docs_uses_this_checkouts(tmp_path: Path) -> None:
    assert docs_folder(tmp_path) == PROJECT_DOCS
    assert docs_folder(_docs(tmp_path).parent) == tmp_path / "docs"


def test_the_project_documents_the_topics_the_readme_links() -> None:
    """The README's documentation links, and the submission guide in Chinese."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[\w/.-]+\.md)\)", readme))
    assert {"docs/submit.md", "docs/zh/submit.md", "docs/scoring.md"} <= linked
    for path in linked:
        assert (REPO / path).is_file(), path


@pytest.mark.slow
def test_a_real_build_has_the_docs_section_in_both_languages(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", n_models=1, n=2)
    shutil.copytree(PROJECT_DOCS, root / "docs")
    (root / "docs" / "example-page.md").write_text("# An example page\n\nText.\n", "utf-8")
    site = build_site(root)
    names = sorted(p.name for p in (root / "docs").glob("*.md"))
    for name in names:
        page = name.removesuffix(".md") + ".html"
        assert (site / "docs" / page).is_file() and (site / "zh" / "docs" / page).is_file()
    home_en = (site / "index.html").read_text(encoding="utf-8")
    home_zh = (site / "zh" / "index.html").read_text(encoding="utf-8")
    assert (
        "Docs" in home_en and "An example page" in home_en and "docs/example-page.html" in home_en
    )
    assert "文档" in home_zh and "提交模型" in home_zh
    assert "example-page.html" not in home_zh  # no Chinese title: built, but not in the zh nav
    index = (site / "zh" / "docs" / "index.html").read_text(encoding="utf-8")
    assert (site / "docs" / "index.html").is_file() and "提交模型" in index  # the section's index
    submit = (site / "zh" / "docs" / "submit.html").read_text(encoding="utf-8")
    assert "<title>提交模型" in submit and ui("zh", "docs.untranslated") not in submit
    serving = (site / "zh" / "docs" / "example-page.html").read_text(encoding="utf-8")
    assert ui("zh", "docs.untranslated") in serving and '<div lang="en">' in serving

"""The repository's docs/ pages as the site's Docs section (site/pages/docs.py), in both languages:
a page added to docs/ is in the site with no code change; a page without a Chinese translation is
shown in the Chinese site in English, under a line saying so, marked as English. This repository
has a Chinese twin of every page, kept in step with the English one (tests/markdown_twins.py):
the same headings, code blocks and commands, written one line per paragraph."""

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
from tests.markdown_twins import chinese_style_problems, differences, outline
from tests.site_factory import make_repo

REPO = Path(__file__).resolve().parents[2]


def _docs(root: Path) -> Path:
    folder = root / "docs"
    (folder / "zh").mkdir(parents=True)
    (folder / "serving.md").write_text("# Serving\n\n## Start\n\nRun it.\n", encoding="utf-8")
    (folder / "submit.md").write_text("# Submitting\n\nSee [serving](serving.md).\n", "utf-8")
    zh = "# 提交\n\n见[服务](../serving.md#start)。\n"
    (folder / "zh" / "submit.md").write_text(zh, encoding="utf-8")
    return folder


def test_every_page_in_both_languages(tmp_path: Path) -> None:
    pages = {p.name: p for p in doc_pages(_docs(tmp_path))}
    assert list(pages) == ["serving.md", "submit.md"]
    assert pages["submit.md"].titles == {"en": "Submitting", "zh": "提交"}
    assert pages["serving.md"].titles == {"en": "Serving"}  # built in zh, not in its nav
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
    assert ui("zh", "docs.untranslated_title") in fallback


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
    (docs,) = [e for e in with_docs_nav([], pages, "zh") if "Docs" in e]
    assert docs["Docs"][0] == {"概览": "docs/index.md"}


def test_a_repository_without_docs_uses_this_checkouts(tmp_path: Path) -> None:
    assert docs_folder(tmp_path) == PROJECT_DOCS
    assert docs_folder(_docs(tmp_path).parent) == tmp_path / "docs"


def test_the_project_documents_the_topics_the_readme_links() -> None:
    """The README's documentation links, and the submission guide in Chinese; README_zh.md links
    the Chinese twin of every page README.md links."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[\w/.-]+\.md)\)", readme))
    assert {"docs/submit.md", "docs/zh/submit.md", "docs/scoring.md"} <= linked
    for path in linked:
        assert (REPO / path).is_file(), path
    chinese = (REPO / "README_zh.md").read_text(encoding="utf-8")
    linked_zh = set(re.findall(r"\]\((docs/[\w/.-]+\.md)\)", chinese))
    english = {p for p in linked if not p.startswith("docs/zh/")}
    assert linked_zh == {p.replace("docs/", "docs/zh/", 1) for p in english}, "README_zh.md"


ENGLISH_PAGES = sorted(p.name for p in PROJECT_DOCS.glob("*.md"))


def test_every_english_page_has_a_chinese_twin_and_no_page_is_only_chinese() -> None:
    """Half the readers read Chinese first: a new docs page is written in both languages."""
    chinese = sorted(p.name for p in (PROJECT_DOCS / "zh").glob("*.md"))
    missing = sorted(set(ENGLISH_PAGES) - set(chinese))
    assert not missing, f"docs/zh/ has no translation of {missing}: write docs/zh/<page>.md"
    assert not set(chinese) - set(ENGLISH_PAGES), "a docs/zh/ page without its English original"
    for page in doc_pages(PROJECT_DOCS):
        zh = page.texts["zh"]
        assert ui("zh", "docs.untranslated") not in zh, page.name
        assert re.search("[\u4e00-\u9fff]", page.titles["zh"]), page.name  # its own H1


def test_a_title_is_the_heading_as_plain_text(tmp_path: Path) -> None:
    """The nav shows the first heading's text: a Markdown escape (`Rej\\*`, which keeps the page's
    H1 from turning `*, ED*` into italics) is not shown."""
    (tmp_path / "judge.md").write_text("# The judge (Rej\\*, ED\\*)\n\nText.\n", "utf-8")
    (page,) = doc_pages(tmp_path)
    assert page.titles == {"en": "The judge (Rej*, ED*)"}


@pytest.mark.parametrize("name", ENGLISH_PAGES)
def test_the_chinese_page_keeps_the_english_headings_code_blocks_and_commands(name: str) -> None:
    """A translation rewords the prose, never what a reader copies or navigates by: the same
    headings (levels, in order), the same code blocks (only their comments translated) and the
    same `rgb-leaderboard ...`, `python ...` and `pip ...` commands."""
    chinese = PROJECT_DOCS / "zh" / name
    if not chinese.is_file():
        pytest.fail(f"docs/zh/{name} is missing")
    english = (PROJECT_DOCS / name).read_text(encoding="utf-8")
    drift = differences(outline(english), outline(chinese.read_text(encoding="utf-8")))
    assert not drift, f"docs/zh/{name} is out of step with docs/{name}:\n" + "\n".join(drift)


EN = """# Run

Run `rgb-leaderboard run submissions/<id> --limit N` first.

## Resume

```bash
rgb-leaderboard run submissions/<id> \\
  --limit 20   # resumable
```
"""
ZH = """# 运行

先运行 `rgb-leaderboard run submissions/<id> --limit N`。

## 续跑

```bash
rgb-leaderboard run submissions/<id> \\
  --limit 20   # 可断点续跑
```
"""


@pytest.mark.parametrize(
    ("chinese", "found"),
    [
        (ZH, []),
        (ZH.replace("## 续跑", "续跑"), ["headings: en [1, 2], zh [1]"]),
        (ZH.replace("## 续跑", "### 续跑"), ["headings: en [1, 2], zh [1, 3]"]),
        (ZH.replace("--limit N`", "--limit 5`"), ["command only in en", "command only in zh"]),
        (ZH.replace("--limit 20", "--limit 10"), ["code block 1 differs", "command only in"]),
        (ZH.replace("```bash", "```sh"), ["code block 1 differs"]),
        (ZH.split("```")[0], ["code blocks: en 1, zh 0", "command only in en"]),
    ],
)
def test_the_twin_check_finds_each_kind_of_drift(chinese: str, found: list[str]) -> None:
    drift = differences(outline(EN), outline(chinese))
    assert len(drift) >= len(found)
    for expected, line in zip(found, drift, strict=False):
        assert line.startswith(expected), (expected, drift)
    assert outline(EN).commands == {"rgb-leaderboard run submissions/<id> --limit N"} | {
        "rgb-leaderboard run submissions/<id> --limit 20"
    }


@pytest.mark.parametrize("path", sorted((PROJECT_DOCS / "zh").glob("*.md")), ids=lambda p: p.name)
def test_chinese_pages_are_one_line_per_paragraph_with_full_width_punctuation(path: Path) -> None:
    """The style of the zh review (§4): a line break between two Chinese characters shows as a
    space in Chrome and Safari, so a paragraph is one line; Chinese sentences use full-width
    marks, with no space after them."""
    problems = chinese_style_problems(path.read_text(encoding="utf-8"))
    assert not problems, f"docs/zh/{path.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("# 标题\n\n一段话，含有 `a, b` 和 Wilson 区间。\n\n- 列表\n- 另一项\n", []),
        ("| 列 | 列 |\n|---|---|\n| 一（二） | 三 |\n\n```bash\nx  # 注释，\n续\n```\n", []),
        ("一段话，\n接着写。\n", ["line 1: a hard line break inside a paragraph"]),
        ("- 一项，\n  接着写。\n", ["line 1: a hard line break inside a paragraph"]),
        ("这是中文,没有全角。\n", ["line 1: a half-width mark between Chinese characters"]),
        ("下载： CSV\n", ["line 1: a space after a full-width mark"]),
    ],
)
def test_the_style_check_finds_each_rule(text: str, found: list[str]) -> None:
    assert chinese_style_problems(text) == found


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

"""The hand-written documentation (the repository's docs/ folder) as the site's "Docs" section.

docs/<page>.md is English; docs/zh/<page>.md its Chinese translation (this repository has one
for every page, and tests/site/test_docs.py keeps the two in step). Every docs/*.md becomes a page
of the section without a code change: the pages are copied into the site's docs/docs/ folder in
the suffix layout of the i18n plugin, and the section's nav entries are written into the build's
mkdocs configuration (`with_docs_nav`), titled by each page's own first heading, in each language.
A page without a translation (a fork's new page) is built in the Chinese site in English, under a
line saying so, and marked `lang="en"` (what a Chinese reader sees is said to be English, and
tests/site/zh_scan.py reads it as quoted text); it has no entry in the Chinese nav. Links from
docs/zh/ to an English page (`../gpus.md`) point at the same page in the site's one folder.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from leaderboard.site.render.i18n import DEFAULT, SITE_LANGS, localized, ui

SECTION = "docs"  # the folder of the pages under the site's docs_dir
NAV_TITLE = "Docs"  # translated by nav_translations in site/mkdocs.yml
INDEX = f"{SECTION}/index.md"  # the section's index, generated (index_texts)
PROJECT_DOCS = Path(__file__).resolve().parents[3] / "docs"
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!])")  # a Markdown backslash escape
_UP_LINK = re.compile(r"\]\(\.\./([^)/]+\.md(?:#[^)]*)?)\)")


@dataclass(frozen=True)
class DocPage:
    name: str  # file name in docs/ (submit.md)
    titles: dict[str, str]  # site language -> title; a language without one has no nav entry
    texts: dict[str, str]  # site language -> Markdown (the English text marked, untranslated)

    @property
    def path(self) -> str:
        return f"{SECTION}/{self.name}"


def docs_folder(repo_root: Path) -> Path | None:
    """The repository's docs/ folder, else this checkout's (the documentation of the code that
    builds the site, as site/mkdocs.yml's template is), else None (no Docs section)."""
    for folder in (repo_root / "docs", PROJECT_DOCS):
        if folder.is_dir() and any(folder.glob("*.md")):
            return folder
    return None


def doc_pages(folder: Path) -> list[DocPage]:
    """Every docs/*.md in every site language, by file name."""
    pages = []
    for source in sorted(folder.glob("*.md")):
        english = source.read_text(encoding="utf-8")
        titles = {DEFAULT: _heading(english) or source.stem}
        texts = {DEFAULT: english}
        for lg in (lg for lg in SITE_LANGS if lg != DEFAULT):
            own = folder / lg / source.name
            if own.is_file():
                text = own.read_text(encoding="utf-8")
                texts[lg] = _UP_LINK.sub(r"](\1)", text)
                titles[lg] = _heading(text) or source.stem
            else:
                texts[lg] = _untranslated(english, lg)
        pages.append(DocPage(source.name, titles, texts))
    return pages


def page_texts(pages: list[DocPage]) -> dict[str, str]:
    """Site docs path (suffix layout) -> Markdown."""
    return {localized(p.path, lg): text for p in pages for lg, text in p.texts.items()}


def _heading(text: str) -> str | None:
    """The page's first heading as plain text (a nav title is not Markdown: `Rej\\*` is `Rej*`)."""
    first = text.lstrip().partition("\n")[0]
    return _ESCAPE.sub(r"\1", first[2:].strip()) if first.startswith("# ") else None


def _untranslated(english: str, lg: str) -> str:
    """The English page in another site language: a title in that language, a line saying the
    text is English, then the text marked as English (no table of contents: its entries would
    be English words outside the marked text)."""
    shown = ui(lg, "docs.untranslated_title")
    front = f"---\ntitle: {json.dumps(shown, ensure_ascii=False)}\nhide:\n  - toc\n---\n\n"
    note = f'!!! note ""\n    {ui(lg, "docs.untranslated")}\n'
    return f'{front}{note}\n<div lang="en" markdown="1">\n\n{english.strip()}\n\n</div>\n'


def with_docs_nav(nav: list, pages: list[DocPage], lg: str) -> list:
    """The nav in `lg` with the Docs section appended: its index, then every page with a title
    in `lg`."""
    entries = [{p.titles[lg]: p.path} for p in pages if lg in p.titles]
    if not entries:
        return nav
    return [*nav, {NAV_TITLE: [{ui(lg, "docs.index_nav"): INDEX}, *entries]}]


def index_texts(pages: list[DocPage]) -> dict[str, str]:
    """The Docs section's index in every site language (docs/index.md, suffix layout): each
    page's title and its first sentence in that language; a page not translated yet is said to
    be English and its sentence marked so."""
    out = {}
    for lg in SITE_LANGS:
        items = []
        for p in pages:
            if lg not in p.titles:
                continue
            own = lg == DEFAULT or not p.texts[lg].startswith("---\n")  # not the fallback
            first = _first_sentence(
                p.texts[lg] if own else p.texts[DEFAULT], lg if own else DEFAULT
            )
            if first and not own:
                first = f'<span lang="en">{first}</span>'
            items.append(
                f"- [{_no_emphasis(p.titles[lg])}]({p.name})"
                + (f"：{first}" if lg == "zh" and first else f": {first}" if first else "")
            )
        head = f"# {ui(lg, 'docs.index_title')}\n\n{ui(lg, 'docs.index_intro')}\n\n"
        out[localized(INDEX, lg)] = head + "\n".join(items) + "\n"
    return out


_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _first_sentence(text: str, lg: str, limit: int = 180) -> str:
    """The first sentence of a page's first paragraph of prose (none when the page starts with
    a table, a list, code or a heading, or when it is longer than `limit`)."""
    body = text.lstrip().partition("\n")[2] if text.lstrip().startswith("# ") else text
    lines: list[str] = []
    for line in body.strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    if not lines or lines[0].startswith(("|", "-", "*", "`" * 3, "<", "#", "!", ">", "1.")):
        return ""
    para = lines[0]
    for line in lines[1:]:  # a hard-wrapped line: no space between Chinese characters
        cjk = _CJK.match(line[:1]) and _CJK.match(para[-1:])
        para += ("" if cjk else " ") + line
    para = _LINK.sub(r"\1", para)
    end = para.find("。") + 1 if lg == "zh" else para.find(". ") + 1
    sentence = _no_emphasis(para[:end] if end > 0 else para)
    # a sentence that opens a list or a table (ends with a colon) says nothing on its own
    return sentence if len(sentence) <= limit and not sentence.endswith((":", "：")) else ""


def _no_emphasis(text: str) -> str:
    """A title or sentence as Markdown: Rej* and ED* keep their stars (not emphasis)."""
    return text.replace("*", "\\*")

"""After mkdocs: what mkdocs-static-i18n leaves undone for the other-language folders (zh/).

The plugin builds each other language under <lang>/ (untranslated pages from the English
Markdown) but rewrites only Markdown links and copies none of the generated files, and it cannot
deduplicate the search index without also setting the search language to zh, whose lunr
tokenizer needs a jieba the browser does not have. Both are finished here, on the built folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from leaderboard.site.render.i18n import DEFAULT, SITE_LANGS, ui


def finish_languages(out_dir: Path) -> None:
    """Share the generated files with every other language's folder and drop search entries
    that repeat an English page word for word under <lang>/ (an untranslated page)."""
    share_static_files(out_dir)
    dedupe_search_index(out_dir / "search" / "search_index.json")
    translate_permalinks(out_dir)
    mark_english_contents(out_dir)


def translate_permalinks(out_dir: Path) -> None:
    """The headings' anchor title in each other language (theme.permalink): the toc extension
    writes it from site/mkdocs.yml, one text for every language, and the plugin cannot override
    a Markdown extension's options per language."""
    english = f'title="{ui(DEFAULT, "theme.permalink")}"'
    for lg in SITE_LANGS[1:]:
        native = f'title="{ui(lg, "theme.permalink")}"'
        for page in sorted((out_dir / lg).rglob("*.html")) if (out_dir / lg).is_dir() else ():
            text = page.read_text(encoding="utf-8")
            if english in text:
                page.write_text(text.replace(english, native), encoding="utf-8")


_ENGLISH_PART = '<div lang="en">'
_HEADING_ID = re.compile(r'<h[1-6] id="([^"]+)"')


def mark_english_contents(out_dir: Path) -> None:
    """In another language's page that shows English text (a docs page not translated yet,
    site/pages/docs.py), mark the table-of-contents links to its headings as English too."""
    for lg in SITE_LANGS[1:]:
        for page in sorted((out_dir / lg).rglob("*.html")) if (out_dir / lg).is_dir() else ():
            text = page.read_text(encoding="utf-8")
            start = text.find(_ENGLISH_PART)
            if start < 0:
                continue
            for anchor in _HEADING_ID.findall(text, start):
                link = f'<a href="#{anchor}" class="md-nav__link"'
                text = text.replace(link, f'{link} lang="en"')
            page.write_text(text, encoding="utf-8")


def share_static_files(out_dir: Path) -> None:
    """Give every other language's folder (build/zh/) the generated files its pages link to.

    mkdocs-static-i18n builds the Chinese pages under zh/ (a page not translated yet from the
    English Markdown), so a relative link in page HTML (charts, downloads, an instance page's data
    parts, a model's files) resolves under zh/, where the plugin copies nothing: it rewrites only
    Markdown links. Hard links (a copy where the file system has none) put the same bytes there;
    the sitemap too, which material's language switch reads to find the same page.
    """
    skip = {"assets", "search", *SITE_LANGS}
    for lg in SITE_LANGS[1:]:
        target = out_dir / lg
        if not target.is_dir():
            continue
        for src in sorted(out_dir.rglob("*")):
            rel = src.relative_to(out_dir)
            if rel.parts[0] in skip or not src.is_file() or src.suffix == ".html":
                continue
            dest = target / rel
            if dest.exists():
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, dest)
            except OSError:
                shutil.copyfile(src, dest)


def dedupe_search_index(index: Path) -> None:
    """Remove `zh/page.html...` entries whose title and text equal those of `page.html...`."""
    if not index.is_file():
        return
    doc = json.loads(index.read_text(encoding="utf-8"))
    seen = {(d["location"], d.get("title"), d.get("text")) for d in doc.get("docs", [])}
    prefixes = tuple(f"{lg}/" for lg in SITE_LANGS[1:])

    def repeated(d: dict) -> bool:
        loc = d["location"]
        if not loc.startswith(prefixes):
            return False
        return (loc.split("/", 1)[1], d.get("title"), d.get("text")) in seen

    kept = [d for d in doc.get("docs", []) if not repeated(d)]
    if len(kept) != len(doc.get("docs", [])):
        doc["docs"] = kept
        tmp = index.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, index)

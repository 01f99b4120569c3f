"""Scan the built Chinese pages (site/build/zh/) for English a reader sees (issue 26).

What a reader sees: text nodes, the `title`, `alt`, `aria-label` and `placeholder` attributes,
and the text of every SVG chart a page shows. What may be English there is data and symbols only:
the names, ids and files of the entries (passed in as `data`, taken from the repository the site
was built from), metric and unit symbols, and proper names (SYMBOLS). Code (<code>, <pre>),
scripts, data quoted as written (class `lb-quote`: questions, passages, audit details) and any
element marked as written in another language (`lang`, `hreflang`) are not read.

The allow-list is data: tests/site/zh_allowlist.yaml (symbols and names, id patterns, quoted
phrases). Every built zh page is read, the docs pages included: a translated docs page is read as
any page; one not translated yet is English as a whole, marked so, and `english_parts` lists it.
`scan_terms` reads the same pieces for the glossary's avoided words (site/glossary.yaml).

Run it on a build: `python tests/site/zh_scan.py site/build` prints every finding (English
words, then avoided words, then the pages shown in English).
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

ALLOWLIST = Path(__file__).with_name("zh_allowlist.yaml")


def _allowlist() -> tuple[frozenset[str], re.Pattern[str], tuple[str, ...]]:
    """The allow-list (zh_allowlist.yaml): symbols and names, id patterns, quoted phrases."""
    doc = yaml.safe_load(ALLOWLIST.read_text(encoding="utf-8"))
    symbols = frozenset(str(s) for s in doc["symbols"])
    ids = re.compile("|".join(f"(?:{p})" for p in doc["ids"]))
    return symbols, ids, tuple(str(p) for p in doc["phrases"])


SYMBOLS, _IDS, PHRASES = _allowlist()
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’@*+.\-]*")
_SKIP_TAGS = {"script", "style", "code", "pre", "noscript", "template"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
# what a reader sees of an element besides its text: tooltips, alternative text, labels, and the
# words a script swaps into a button (data-show / data-hide) or a counter (data-count)
_ATTRS = (
    "title",
    "alt",
    "aria-label",
    "aria-description",
    "placeholder",
    "data-show",
    "data-hide",
    "data-count",
)


@dataclass(frozen=True)
class Finding:
    page: str  # path under the build's zh/ folder (or the chart's path)
    where: str  # "text", an attribute name, or "svg"
    word: str
    context: str


class _Reader(HTMLParser):
    """The pieces of a page a reader sees, and the charts it shows."""

    def __init__(self, skip_nav: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, str]] = []
        self.images: list[str] = []
        self._stack: list[bool] = []  # per open element: whether its content is skipped
        self._skip_nav = skip_nav  # the theme's <nav> elements (page titles of other pages)

    def _skipped(self) -> bool:
        return any(self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        # content in another language by its markup: quoted data (lang) or the language
        # switch's own names for the languages (hreflang: "English" is English's name)
        lang = a.get("lang", "") or a.get("hreflang", "")
        quoted = "lb-quote" in a.get("class", "").split()  # data quoted as written
        skip = tag in _SKIP_TAGS or quoted or (bool(lang) and not lang.startswith("zh"))
        skip = skip or (self._skip_nav and tag == "nav")
        if not self._skipped() and not skip:
            self.pieces += [(name, a[name]) for name in _ATTRS if a.get(name)]
            if tag == "img" and a.get("src", "").endswith(".svg"):
                self.images.append(a["src"])
        if tag not in _VOID:
            self._stack.append(skip)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self._stack:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipped() and data.strip():
            self.pieces.append(("text", data))


def _svg_text(svg: str) -> list[str]:
    """The text of a matplotlib SVG (svg.fonttype none keeps labels as <text> elements)."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        for m in re.finditer(r"<text\b[^>]*>(.*?)</text>", svg, re.S)
    ]


def english_words(text: str, data: Iterable[str]) -> list[str]:
    """The English words of `text` once each data string is cut out: a word counts unless it is
    a symbol (SYMBOLS), one letter, or holds a digit or "@" (R@5, NDCG@k, e5)."""
    text = _IDS.sub(" ", text)  # first: a data string may be part of a path
    for item in sorted({d for d in data if d}, key=len, reverse=True):
        text = text.replace(item, " ")
    # a chart shortens a long name to its start and "…": that start is data too
    for cut in re.findall(r"(\S[^\n…]*?)…", text):
        if any(d.startswith(cut.strip()) for d in data if d) and len(cut.strip()) >= 8:
            text = text.replace(cut + "…", " ")
    for phrase in PHRASES:
        text = text.replace(phrase, " ")
    found = []
    for word in _WORD.findall(text):
        word = word.rstrip(".-'’")
        if not word or len(word) == 1 or word in SYMBOLS or word.rstrip("*") in SYMBOLS:
            continue
        if re.search(r"[0-9@]", word):
            continue
        found.append(word)
    return found


def pages(build: Path) -> list[tuple[str, Path]]:
    """Every built zh page (its path under zh/, its file): the site's pages and the docs pages
    alike; the vendored files under assets/ are not pages."""
    zh = build / "zh"
    found = [(str(p.relative_to(zh)), p) for p in sorted(zh.rglob("*.html"))]
    return [(rel, p) for rel, p in found if not rel.startswith("assets/")]


def _pieces(
    build: Path, skip_nav: bool = False, skip_page: Callable[[str], bool] = lambda rel: False
) -> Iterator[tuple[str, str, str]]:
    """(page or chart, where, text) for every piece of every zh page a reader sees, then the
    text of every chart those pages show."""
    charts: set[Path] = set()
    for rel, page in pages(build):
        if skip_page(rel):
            continue
        reader = _Reader(skip_nav)
        reader.feed(page.read_text(encoding="utf-8"))
        for where, text in reader.pieces:
            yield rel, where, text
        for src in reader.images:
            path = (page.parent / unquote(urlsplit(src).path)).resolve()
            if path.is_file():
                charts.add(path)
    for chart in sorted(charts):
        rel = str(chart.relative_to(build.resolve()))
        for text in _svg_text(chart.read_text(encoding="utf-8")):
            yield rel, "svg", text


def scan(build: Path, data: Iterable[str]) -> list[Finding]:
    """Every English word outside the allowlist on the zh pages of `build` and their charts."""
    data = tuple(data)
    return [
        Finding(rel, where, word, " ".join(text.split())[:160])
        for rel, where, text in _pieces(build)
        for word in english_words(text, data)
    ]


def english_parts(build: Path) -> list[str]:
    """The zh pages that show a part in English as a whole (a docs page not translated yet,
    pages/docs.py: its text wrapped in <div lang="en">)."""
    return [rel for rel, page in pages(build) if '<div lang="en"' in page.read_text("utf-8")]


def scan_terms(build: Path, skip_page: Callable[[str], bool] = lambda rel: False) -> list[Finding]:
    """Every place a zh page or chart names a glossary concept by one of its avoided words
    (site/glossary.yaml). Quoted data and code are not read, nor the theme's navigation (the
    titles of other pages, each checked on its own page or at its source)."""
    from leaderboard.site.render.glossary import avoided_uses

    return [
        Finding(rel, where, f"{use.word} → {use.preferred}", use.context)
        for rel, where, text in _pieces(build, skip_nav=True, skip_page=skip_page)
        for use in avoided_uses(text)
    ]


def repository_data(root: Path) -> list[str]:
    """The data strings of the repository a site was built from: every entry's id, name, model,
    backend, data files and judges, the judges of judges/agreement/ (a trivial baseline's name is
    interface text: the message tables give it per language, so it is not data), the papers'
    model names and citations."""
    from leaderboard.board.load import load_site_data
    from leaderboard.board.ranking import is_trivial_baseline

    site = load_site_data(root)
    out: list[str] = []
    for s in site.submissions:
        prov = s.results.provenance
        out += [s.id, str(prov.model), str(prov.backend)]
        if not is_trivial_baseline(s.results):
            out.append(s.name)
        out += [c.data_file for c in s.results.cells]
        out += [j.display_name.removesuffix(" as judge") for j in s.judges]
    out += [a.display_name.removesuffix(" as judge") for a in site.label_agreements]
    out += schema_names()
    for rep in site.reported:
        out.append(rep.file.source.citation)
        out += [m.display_name for m in rep.file.models]
    return out


def schema_names() -> list[str]:
    """The model.yaml schema's block names (Submission, OpenAISettings...): identifiers that the
    submission reference's headings name."""
    from leaderboard.site.pages.submission_ref import model_schema

    return ["Submission", *model_schema().get("$defs", {})]


def main(argv: list[str]) -> int:
    build = Path(argv[0]) if argv else Path("site/build")
    root = Path(argv[1]) if len(argv) > 1 else Path(".")
    findings = scan(build, repository_data(root))
    terms = scan_terms(build)
    english = english_parts(build)
    for f in (*findings, *terms):
        print(f"{f.page}\t{f.where}\t{f.word}\t{f.context}")
    for rel in english:
        print(f"{rel}\tpage\tshown in English")
    pages_ = len({f.page for f in findings})
    print(f"{len(findings)} English words on {pages_} zh pages or charts", file=sys.stderr)
    print(f"{len(terms)} avoided glossary words; {len(english)} pages in English", file=sys.stderr)
    return 1 if findings or terms or english else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

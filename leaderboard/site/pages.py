"""Pure page builders: SiteData in, Markdown (with escaped raw-HTML blocks) out.

Nothing here touches the file system; build.py writes what these return. Pages are keyed by their
path under docs/ (use_directory_urls is off, so a raw-HTML link is relative to the page's .md path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from leaderboard.site import charts
from leaderboard.site.fmt import esc, md_text, pct
from leaderboard.site.load import SiteData, Submission, model_size_and_quant
from leaderboard.site.parallel import pmap
from leaderboard.site.ranking import coverage, difference, rank_ranges, score_entry
from leaderboard.site.reported import ReportedModel, frac
from leaderboard.site.tables import Cell, Column, Row, Table, render_html
from leaderboard.types import ABILITIES, LANGS

LANG_NAMES = {"zh": "Chinese (zh)", "en": "English (en)", "all": "Combined (zh + en)"}
ABILITY_NAMES = {
    "noise": "Noise robustness",
    "rejection": "Negative rejection",
    "integration": "Information integration",
    "counterfactual": "Counterfactual robustness",
    "overall": "Overall",
}
SHORT_NAMES = {
    "noise": "Noise",
    "rejection": "Rejection",
    "integration": "Integration",
    "counterfactual": "Counterfactual",
    "zh": "zh overall",
    "en": "en overall",
}
MODE_NAMES = {"rgb": "reference (rgb) mode", "strict": "strict mode"}


@dataclass
class Output:
    """Everything a build writes: Markdown pages, other files (charts, downloads), tables."""

    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    pending_charts: dict[str, tuple[Callable[..., str], tuple]] = field(default_factory=dict)

    def chart(self, name: str, draw: Callable[..., str], args: tuple, alt: str, prefix: str) -> str:
        """Queue a chart (drawn later, in parallel: draw(*args) -> SVG text) and return the
        <figure> that shows it with alt text."""
        self.pending_charts[f"charts/{name}.svg"] = (draw, args)
        return (
            f'\n\n<figure class="lb-chart"><img src="{prefix}charts/{esc(name)}.svg" '
            f'alt="{esc(alt)}" loading="lazy"><figcaption>{esc(alt)}</figcaption></figure>\n\n'
        )

    def draw_charts(self) -> None:
        paths = sorted(self.pending_charts)
        svgs = pmap(_draw, [self.pending_charts[p] for p in paths])
        for path, svg in zip(paths, svgs, strict=True):
            self.files[path] = svg.encode("utf-8")
        self.pending_charts.clear()

    def table(self, table: Table, prefix: str) -> str:
        self.tables.append(table)
        return render_html(table, prefix)


def _draw(job: tuple[Callable[..., str], tuple]) -> str:
    draw, args = job
    return draw(*args)


def front_matter(search_exclude: bool = True) -> str:
    """Wide tables need the room: hide the right-hand table of contents on data pages.

    Data pages (big tables of numbers) are kept out of the search index by default: indexing them
    was half of the mkdocs build time at 100 models and finds nothing the home page and the models
    index (both indexed) do not."""
    search = "search:\n  exclude: true\n" if search_exclude else ""
    return f"---\nhide:\n  - toc\n{search}---\n\n"


def prefix_for(path: str) -> str:
    return "../" * path.count("/")


def badge(kind: str, text: str, title: str = "") -> str:
    t = f' title="{esc(title)}"' if title else ""
    return f'<span class="lb-badge lb-{esc(kind)}"{t}>{esc(text)}</span>'


def model_cell(sub: Submission, prefix: str, lang: str | None = None) -> Cell:
    cov = coverage(sub.results, None if lang in (None, "all") else lang)
    badges = " " + badge("measured", "measured", "Run by this leaderboard's runner")
    if cov.partial:
        badges += " " + badge("partial", "partial", "; ".join(cov.reasons))
    return Cell.link(sub.name, f"{prefix}models/{sub.id}.html", badges)


def reported_cell(model: ReportedModel, source: str) -> Cell:
    html = esc(model.display_name) + " " + badge("reported", "reported in paper", source)
    return Cell(model.display_name, html, model.display_name)


def definitions(data: SiteData, mode: str) -> dict[str, str]:
    """Ability -> one-sentence definition, taken from the results files (metrics owns them)."""
    out: dict[str, str] = {}
    for sub in data.submissions:
        for e in sub.results.scores:
            if e.mode == mode and e.metric == "score":
                out.setdefault(e.ability, e.definition)
    return out


# ---------------------------------------------------------------- ranking (home / strict)


def ranking_table(data: SiteData, lang: str, mode: str, prefix: str) -> Table:
    defs = definitions(data, mode)
    subs = {s.id: s for s in data.submissions}
    items = []
    for s in data.submissions:
        e = score_entry(s.results, lang, "overall", mode)
        items.append((s.id, None if e is None else e.value, None if e is None else e.ci))
    cols = [
        Column("rank", "Rank", True, "Range of ranks consistent with the 95% CIs"),
        Column("model", "Model"),
        Column("overall", "Overall", True, defs.get("overall")),
    ]
    # per language: one column per ability; combined: the two languages' overall scores
    parts = ABILITIES if lang != "all" else LANGS
    cols += [Column(p, SHORT_NAMES[p], True, defs.get(p) if lang != "all" else None) for p in parts]
    cols += [
        Column("n", "n", True, "Questions scored"),
        Column("coverage", "Coverage", True, "Instances scored / instances in the splits"),
        Column("size", "Size"),
        Column("quant", "Quantization"),
    ]
    rows = []
    for r in rank_ranges(items):
        s = subs[r.key]
        cells: dict[str, Cell] = {
            "rank": Cell(r.label, esc(r.label), 10_000 if r.best is None else r.best),
            "model": model_cell(s, prefix, lang),
        }
        for p in ("overall", *parts):
            e = (
                score_entry(s.results, lang, p, mode)
                if p not in LANGS
                else score_entry(s.results, p, "overall", mode)
            )
            cells[p] = Cell.rate(None if e is None else e.value, None if e is None else e.ci)
        overall = score_entry(s.results, lang, "overall", mode)
        cov = coverage(s.results, None if lang == "all" else lang, mode)
        cells["n"] = Cell.text(
            overall.n_questions if overall else None, overall.n_questions if overall else -1
        )
        cov_html = esc(pct(cov.fraction, 0) + "%")
        if cov.partial:
            cov_html += " " + badge("partial", "partial", "; ".join(cov.reasons))
        cells["coverage"] = Cell(
            {
                "value": round(cov.fraction, 6),
                "n": cov.n,
                "expected": cov.expected,
                "partial": cov.partial,
            },
            cov_html,
            round(cov.fraction, 6),
        )
        size, quant = model_size_and_quant(s)
        cells["size"] = Cell.text(size)
        cells["quant"] = Cell.text(quant)
        rows.append(Row(cells, "lb-partial-row" if cov.partial else ""))
    return Table(
        id=f"ranking-{lang}-{mode}",
        title=f"Ranking, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        note="Scores in %, 95% CI underneath. Rank ranges: models whose CIs overlap share ranks.",
    )


def reported_table(data: SiteData, prefix: str) -> Table | None:
    """The paper's headline numbers, in their own table: not comparable, never ranked."""
    rows = []
    for rep in data.reported:
        for m in rep.file.models:
            for lang in LANGS:
                lr = m.lang(lang)
                if lr is None:
                    continue
                noise = list(lr.noise.values())
                integ = list(lr.integration.values())
                cf = lr.counterfactual
                cells = {
                    "model": reported_cell(m, rep.file.source.citation),
                    "lang": Cell.text(lang),
                    "noise": Cell.rate(frac(sum(noise) / len(noise)) if noise else None),
                    "rej": Cell.rate(frac(lr.rejection.rej) if lr.rejection else None),
                    "integration": Cell.rate(frac(sum(integ) / len(integ)) if integ else None),
                    "ed": Cell.rate(frac(cf.ed) if cf else None),
                    "cr": Cell.rate(frac(cf.cr) if cf else None),
                }
                rows.append(Row(cells, "lb-reported-row"))
    if not rows:
        return None
    return Table(
        id="reported-paper",
        title="Reported in the RGB paper",
        columns=(
            Column("model", "Model"),
            Column("lang", "Lang"),
            Column("noise", "Noise (mean acc.)", True, "Mean accuracy over noise rates 0-0.8"),
            Column("rej", "Rejection (Rej)", True, "Exact-phrase refusal rate"),
            Column(
                "integration",
                "Integration (mean acc.)",
                True,
                "Mean accuracy over noise rates 0-0.4",
            ),
            Column("ed", "Counterfactual ED", True, "Error detection rate"),
            Column("cr", "Counterfactual CR", True, "Error correction rate"),
        ),
        rows=(),
        reported_rows=tuple(rows),
        note="Reported in the paper, not measured here: other data files, code and decoding.",
    )


HOME_INTRO = """
**RGB** (Chen et al., AAAI 2024) tests whether a language model answers correctly from retrieved
passages, in Chinese and in English, along four abilities: **noise robustness** (answer despite
irrelevant passages), **negative rejection** (refuse when no passage holds the answer),
**information integration** (combine facts from several passages) and **counterfactual robustness**
(notice passages that contradict what is true). Every number here was measured by this project's
runner with greedy decoding, and is shown with a 95% bootstrap confidence interval. Ranks are
ranges: when confidence intervals overlap, the models share the ranks they could hold.
"""

HOW_TO_SUBMIT = """
## How to submit

1. Describe your model in `submissions/<id>/model.yaml` (copy an existing submission).
2. Fetch the data and run it: `rgb-leaderboard data fetch`, then
   `rgb-leaderboard run submissions/<id>/model.yaml` (rerunning resumes where it stopped).
3. Open a pull request with `model.yaml`, `results.json` and `predictions.jsonl`; CI validates
   them and rebuilds this site.

See the [methodology](methodology.md) for how answers are scored in both modes.
"""


def home_page(data: SiteData, out: Output, mode: str = "rgb") -> str:
    path = "index.md" if mode == "rgb" else "ranking-strict.md"
    prefix = prefix_for(path)
    other = (
        "Scores use the reference (rgb) scoring. The same ranking under the stricter scoring is on "
        "[the strict-mode page](ranking-strict.md)."
        if mode == "rgb"
        else "Scores use the strict scoring (see [methodology](methodology.md)); the home page "
        "uses the reference (rgb) scoring."
    )
    title = (
        "RGB bilingual RAG robustness leaderboard" if mode == "rgb" else "Ranking in strict mode"
    )
    parts = [
        front_matter(search_exclude=mode != "rgb") + f"# {title}\n",
        HOME_INTRO if mode == "rgb" else "",
        other + "\n",
    ]
    if not data.submissions:
        parts.append("\n*No measured results yet.*\n")
    for lang in (*LANGS, "all"):
        parts.append(f"\n## {LANG_NAMES[lang]}\n")
        parts.append(out.table(ranking_table(data, lang, mode, prefix), prefix))
    if mode == "rgb":
        rep = reported_table(data, prefix)
        if rep is not None:
            parts.append("\n## Reported in the RGB paper (not ranked)\n")
            parts.append(
                "These rows are the paper's own numbers, labelled *reported in paper*. They were "
                "produced on the original data files with sampled decoding and are not ranked with "
                "the measured results above.\n"
            )
            parts.append(out.table(rep, prefix))
        parts.append(HOW_TO_SUBMIT)
    return "\n".join(parts)


# ---------------------------------------------------------------- zh versus en


def zh_vs_en_page(data: SiteData, out: Output) -> str:
    path = "zh-vs-en.md"
    prefix = prefix_for(path)
    parts = [
        front_matter() + "# Chinese versus English\n",
        "For each model and ability: the zh score, the en score and the difference zh − en with a "
        "95% CI. The zh and en questions are different sets, so the two estimates are independent; "
        "the difference CI is the normal approximation sqrt(se_zh² + se_en²), each standard error "
        "read back from its bootstrap CI (half-width / 1.96). A difference whose CI excludes 0 "
        "names the language the model holds up better in.\n",
    ]
    for mode in ("rgb", "strict"):
        parts.append(f"\n## {MODE_NAMES[mode].capitalize()}\n")
        rows = []
        for s in sorted(data.submissions, key=lambda s: s.id):
            for a in ("overall", *ABILITIES):
                zh = score_entry(s.results, "zh", a, mode)
                en = score_entry(s.results, "en", a, mode)
                if zh is None and en is None:
                    continue
                d = difference(zh, en)
                better = "—"
                if d is not None and d.ci is not None and (d.ci[0] > 0 or d.ci[1] < 0):
                    better = "zh" if d.value > 0 else "en"
                rows.append(
                    Row(
                        {
                            "model": model_cell(s, prefix),
                            "ability": Cell.text(ABILITY_NAMES[a]),
                            "zh": Cell.rate(zh.value if zh else None, zh.ci if zh else None),
                            "en": Cell.rate(en.value if en else None, en.ci if en else None),
                            "diff": Cell.rate(d.value if d else None, d.ci if d else None),
                            "better": Cell.text(better),
                        }
                    )
                )
        table = Table(
            id=f"zh-vs-en-{mode}",
            title=f"zh versus en, {MODE_NAMES[mode]}",
            columns=(
                Column("model", "Model"),
                Column("ability", "Ability"),
                Column("zh", "zh", True),
                Column("en", "en", True),
                Column("diff", "zh − en", True, "Difference in points, 95% CI (normal approx.)"),
                Column("better", "Holds up better in"),
            ),
            rows=tuple(rows),
            note="Scores and differences in percentage points.",
        )
        parts.append(out.table(table, prefix))
        if mode == "rgb":
            for a in ("overall", *ABILITIES):
                pairs = []
                for s in sorted(data.submissions, key=lambda s: s.id):
                    zh = score_entry(s.results, "zh", a, mode)
                    en = score_entry(s.results, "en", a, mode)
                    pairs.append(
                        charts.Pair(s.name, zh.value if zh else None, en.value if en else None)
                    )
                if any(p.zh is not None or p.en is not None for p in pairs):
                    alt = (
                        f"Dumbbell chart: {ABILITY_NAMES[a]} score in zh (red dot) and en (blue "
                        f"square) for each model, reference mode"
                    )
                    args = (pairs, f"{ABILITY_NAMES[a]}: zh vs en")
                    parts.append(out.chart(f"zh-vs-en-{a}", charts.dumbbell, args, alt, prefix))
    return "\n".join(parts)


# ---------------------------------------------------------------- downloads


def downloads_page(out: Output) -> str:
    lines = [
        "# Downloads\n",
        "Every table on this site as CSV and as JSON (rates are fractions).\n",
        '\n<ul class="lb-downloads">',
    ]
    for t in sorted(out.tables, key=lambda t: t.id):
        lines.append(
            f'<li>{esc(t.title)}: <a href="downloads/{esc(t.id)}.csv">CSV</a> · '
            f'<a href="downloads/{esc(t.id)}.json">JSON</a></li>'
        )
    lines.append("</ul>\n")
    lines.append(
        "Per-model files (results.json, predictions, model.yaml) are linked from each "
        "[model page](models/index.md).\n"
    )
    return "\n".join(lines)


def models_index_page(data: SiteData, out: Output) -> str:
    path = "models/index.md"
    prefix = prefix_for(path)
    rows = []
    for s in data.submissions:
        size, quant = model_size_and_quant(s)
        cov = coverage(s.results, None)
        rows.append(
            Row(
                {
                    "model": model_cell(s, prefix),
                    "id": Cell.text(s.id),
                    "model_ref": Cell.text(s.results.provenance.model),
                    "backend": Cell.text(s.results.provenance.backend),
                    "size": Cell.text(size),
                    "quant": Cell.text(quant),
                    "coverage": Cell.rate(cov.fraction),
                }
            )
        )
    table = Table(
        id="models",
        title="Models",
        columns=(
            Column("model", "Model"),
            Column("id", "Submission"),
            Column("model_ref", "Weights"),
            Column("backend", "Backend"),
            Column("size", "Size"),
            Column("quant", "Quantization"),
            Column("coverage", "Coverage (%)", True),
        ),
        rows=tuple(rows),
    )
    return (
        "# Models\n\n"
        + md_text(f"{len(rows)} measured submissions.")
        + "\n"
        + out.table(table, prefix)
    )

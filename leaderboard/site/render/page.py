"""What every page builder shares: display names, the Output a build collects, front matter,
relative prefixes, badges and the model cells of tables.

Nothing here touches the file system; build.py writes what the page builders return.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from leaderboard.board.facts import model_facts
from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import coverage, is_trivial_baseline
from leaderboard.board.reported import ReportedModel
from leaderboard.board.systems import SystemsBoard
from leaderboard.core.judge_schema import JudgeSummary
from leaderboard.core.parallel import pmap
from leaderboard.core.schema import DIFF_LANG, ScoreEntry
from leaderboard.retrieval.results import RetrievalBoard
from leaderboard.site.render.coverage import coverage_phrase
from leaderboard.site.render.facts import quant_text
from leaderboard.site.render.fmt import esc, pct, pct_ci, plain_line
from leaderboard.site.render.i18n import DEFAULT, table, ui
from leaderboard.site.render.tables import Cell, Table, render_html

# Who judged the paper's starred numbers (Rej*, ED*): reject_evalue.py / fact_evalue.py call it.
PAPER_JUDGE = "ChatGPT (gpt-3.5-turbo)"


@dataclass
class Output:
    """Everything a build writes: Markdown pages, other files (charts, downloads), tables."""

    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    pending_charts: dict[str, tuple[Callable[..., str], tuple]] = field(default_factory=dict)

    def chart(
        self,
        name: str,
        draw: Callable[..., str],
        args: tuple,
        alt: str,
        prefix: str,
        lg: str = DEFAULT,
    ) -> str:
        """Queue a chart (drawn later, in parallel: draw(*args) -> SVG text) and return the
        <figure> that shows it with alt text. A chart of another interface language `lg` (its
        title and axis labels translated) is a file of its own, charts/<lg>/<name>.svg."""
        name = name if lg == DEFAULT else f"{lg}/{name}"
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
        """Collect a page's table (of its interface language, `table.ui`) and return its HTML."""
        self.tables.append(table)
        return render_html(table, prefix)

    def tables_in(self, lg: str) -> list[Table]:
        """The tables of the pages in interface language `lg`. Every language's page shows the
        same tables (same ids, same numbers); the default language's are the downloads, the
        others give only their titles to their language's downloads page."""
        return [t for t in self.tables if t.ui == lg]


@dataclass(frozen=True)
class Context:
    """What every page builder gets: the board, the build's Output and the interface language.

    One signature for every page (`build(ctx) -> str`) lets build.render draw every page in
    every language with one loop; `retrieval` is the retrieval track's board (its own results
    folder), loaded once by the build for the pages that show it."""

    data: SiteData
    out: Output
    lg: str = DEFAULT
    retrieval: RetrievalBoard | None = None
    systems: SystemsBoard | None = None  # the systems track (its page and the home page's band)
    release: object = None  # pages.releases.ReleaseStatus: the releases and the one shown


@dataclass(frozen=True)
class Page:
    """One page of the site: its docs path in the default language (render.i18n.localized gives
    the other languages') and the one function that writes it in any language."""

    path: str
    build: Callable[[Context], str]


@dataclass(frozen=True)
class Family:
    """Pages known only from the board (one per entry, per data split, per page of results):
    `expand` runs once per build, with the default language's context (it may write the files
    its pages share, once), and returns the Pages, each then written in every language."""

    expand: Callable[[Context], tuple[Page, ...]]


def _draw(job: tuple[Callable[..., str], tuple]) -> str:
    draw, args = job
    return draw(*args)


def front_matter(search_exclude: bool = True, title: str | None = None) -> str:
    """Wide tables need the room: hide the right-hand table of contents on data pages.

    Data pages (big tables of numbers) are kept out of the search index by default: indexing them
    was half of the mkdocs build time at 100 models and finds nothing the home page and the models
    index (both indexed) do not.

    `title` sets the page title (<title>, header) when it holds outside text: without it mkdocs
    takes the first heading's text and the theme's `striptags` decodes its entities again, so an
    escaped `</title><script>` came back as markup. The theme prints `page.meta.title` as it is,
    so the value is HTML-escaped exactly once here (see page_title)."""
    search = "search:\n  exclude: true\n" if search_exclude else ""
    named = f"title: {json.dumps(page_title(title))}\n" if title is not None else ""
    return f"---\n{named}hide:\n  - toc\n{search}---\n\n"


def page_title(text: str, limit: int = 120) -> str:
    """Outside text as a front-matter title: one line, control and bidi characters dropped, cut
    to `limit` characters, HTML-escaped once (the theme inserts it verbatim)."""
    return esc(plain_line(text, limit) or "(unnamed)")


def prefix_for(path: str) -> str:
    return "../" * path.count("/")


def badge(kind: str, text: str, title: str = "") -> str:
    t = f' title="{esc(title)}"' if title else ""
    return f'<span class="lb-badge lb-{esc(kind)}"{t}>{esc(text)}</span>'


def entry_name(sub: Entry, lg: str = DEFAULT) -> str:
    """The name a page in `lg` shows for an entry. A model's name is data (its model.yaml says it,
    in every language); a trivial baseline's name describes a policy, so another language has
    its own in the message tables (name.<id>), and English shows what model.yaml says."""
    return shown_name(sub.id, sub.name, lg)


def shown_name(sub_id: str, name: str, lg: str = DEFAULT) -> str:
    """entry_name by id and stored name (for documents that carry both, as the instance pages)."""
    key = f"name.{sub_id}"
    return ui(lg, key) if lg != DEFAULT and key in table(lg) else name


def judge_name(name: str) -> str:
    """A judge's display name as a table shows it: every place that names a judge already says
    "judge" (judges/*.yaml may end the name with " as judge" for other uses)."""
    return name.removesuffix(" as judge")


def definition_text(e: ScoreEntry, lg: str = DEFAULT) -> str:
    """A score entry's definition in `lg`: the English pages show the sentence the results file
    stores (the statistics wrote it: the documentation of record), another language its
    translation from the message tables (def.*), or the stored sentence for a metric they lack."""
    if lg == DEFAULT:
        return e.definition
    if e.lang == DIFF_LANG:
        key = "def.diff_overall" if e.ability == "overall" else "def.diff"
    elif e.lang == "all":
        key = "def.all"
    elif e.metric == "score":
        key = f"def.{e.mode}.{e.ability}"
    else:
        key = f"def.metric.{e.metric}"
    return ui(lg, key) if key in table(DEFAULT) else e.definition


def model_cell(
    sub: Entry, prefix: str, lang: str | None = None, compact: bool = False, lg: str = DEFAULT
) -> Cell:
    """The model's name, linked, with its badges; `compact` leaves out "measured" (for tables
    with a row per model and ability, where no other kind of row occurs) and the partial badge's
    tooltip (the reasons are under the table): it keeps such pages small."""
    cov = coverage(sub.results, None if lang in (None, "all") else lang)
    if is_trivial_baseline(sub.results):
        badges = " " + badge("baseline", ui(lg, "badge.baseline"), ui(lg, "badge.baseline_tip"))
    elif compact:
        badges = ""
    else:
        badges = " " + badge("measured", ui(lg, "badge.measured"), ui(lg, "badge.measured_tip"))
    note = ""
    if cov.partial:
        tip = "" if compact else ui(lg, "badge.partial_tip")
        badges += " " + badge("partial", ui(lg, "badge.partial"), tip)
        note = coverage_phrase(lg, sub.results)
    cell = Cell.link(entry_name(sub, lg), f"{prefix}models/{sub.id}.html", badges)
    # sorted by the stored name in every language: the same order and sort keys on each page
    return Cell(cell.value, cell.html, sub.name, note, entry=sub.id)


def reported_cell(model: ReportedModel, source: str, lg: str = DEFAULT) -> Cell:
    html = esc(model.display_name) + " " + badge("reported", ui(lg, "badge.reported"), source)
    return Cell(model.display_name, html, model.display_name, entry=f"reported:{model.id}")


def definitions(data: SiteData, mode: str, lg: str = DEFAULT) -> dict[str, str]:
    """Ability -> one-sentence definition, taken from the results files (metrics owns them), in
    language `lg` (definition_text)."""
    out: dict[str, str] = {}
    for sub in data.submissions:
        for e in sub.results.scores:
            if e.mode == mode and e.metric == "score" and e.lang not in ("all", DIFF_LANG):
                out.setdefault(e.ability, definition_text(e, lg))
    return out


def model_size_and_quant(sub: Entry, lg: str = DEFAULT) -> tuple[str | None, str]:
    """The parameter count and the quantization's plain name (board.facts, the one rule), the
    latter "not recorded" in `lg` when nothing says it."""
    f = model_facts(sub)
    return f.params, quant_text(f, lg) or ui(lg, "facts.not_recorded")


def judged_cell(
    judges: tuple[JudgeSummary, ...], lang: str, metric: str, lg: str = DEFAULT
) -> Cell:
    """Rej* or ED* of a measured row: every judge's rate with its CI, the judge named under it,
    with how many answers it covers (n of the split) and how many verdicts were unparsable."""
    found = [(j, r) for j in judges for r in j.rates if r.lang == lang and r.metric == metric]
    if not found:
        return Cell.text(None)
    parts = []
    for judge, rate in found:
        body = esc(pct(rate.value, lg=lg))
        if rate.ci is not None:
            body += f' <span class="lb-ci">{esc(pct_ci(rate.ci, lg))}</span>'
        name = judge_name(judge.display_name)
        note = ui(lg, "decision.judge_note", judge=name, n=rate.n, total=rate.n_predictions)
        if rate.n_unparsable:
            note += ui(lg, "decision.judge_unparsable", n=rate.n_unparsable)
        parts.append(f'{body}<span class="lb-judge">{esc(note)}</span>')
    judge, rate = found[0]
    exported = {
        "value": rate.value,
        "ci_low": rate.ci[0] if rate.ci else None,
        "ci_high": rate.ci[1] if rate.ci else None,
        "judge": judge.display_name,
        "n": rate.n,
        "n_unparsable": rate.n_unparsable,
        "other_judges": "; ".join(f"{j.display_name}: {r.value}" for j, r in found[1:]) or None,
    }
    sort = -1.0 if rate.value is None else round(rate.value, 6)
    return Cell(exported, "".join(parts), sort)


def paper_judged_cell(value: float | None, lg: str = DEFAULT) -> Cell:
    """A starred number as the paper reports it, with the paper's judge named."""
    if value is None:
        return Cell.text(None)
    note = ui(lg, "decision.paper_judge", judge=PAPER_JUDGE)
    html = f'{esc(pct(value))}<span class="lb-judge">{esc(note)}</span>'
    return Cell({"value": value, "judge": PAPER_JUDGE}, html, round(value, 6))

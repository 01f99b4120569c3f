"""The zh versus en page: which entries hold up better in Chinese, per ability.

It opens with the strict mode (the ranked one): one chart per ability of every entry's zh and en
score with its interval, zh − en with its interval and n beside each row, the paper's rows
(reported, never ranked) and the trivial baselines (a faint floor) placed against the measured
models; then the table, sortable by zh − en, and each model's noise curves in both languages on
one chart. The reference (rgb) mode follows with the same parts.

An "overall" difference is shown only where both languages have an overall score; otherwise the
stored difference is over the abilities measured in both languages, and the row says so.
"""

from __future__ import annotations

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import (
    cells_for,
    is_trivial_baseline,
    probe_entry,
    score_entry,
    zh_minus_en,
)
from leaderboard.board.reported import ReportedModel, frac
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.pages.zh_en.cells import (
    ability_label,
    better_cell,
    ci_of,
    diff_table,
    matched_abilities,
    matched_cells,
    n_of,
    value_of,
)
from leaderboard.site.pages.zh_en.charts import ModelCurves, ZhEnRow, noise_both, zh_en_rows
from leaderboard.site.pages.zh_en.truth import truthfulness_table
from leaderboard.site.render import charts
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import (
    Context,
    Output,
    entry_name,
    front_matter,
    model_cell,
    prefix_for,
    reported_cell,
)
from leaderboard.site.render.tables import Cell, Row, Table

PATHS = {"strict": "zh-vs-en.md", "rgb": "zh-vs-en-rgb.md"}  # the ranked mode's page first
MODES = tuple(PATHS)
# The paper's numbers are reference-mode definitions: in the strict charts only the abilities
# whose strict score also counts answers (noise, integration) show them.
PAPER_IN_STRICT = ("noise", "integration")


def _diff_row(s: Entry, a: str, mode: str, prefix: str, lg: str) -> Row | None:
    zh = score_entry(s.results, "zh", a, mode)
    en = score_entry(s.results, "en", a, mode)
    if zh is None and en is None:
        return None
    d = zh_minus_en(s.results, a, mode)
    matched = matched_abilities(s, mode) if a == "overall" else None
    cells = {
        "model": model_cell(s, prefix, compact=True, lg=lg),
        "ability": Cell.text(ability_label(lg, a, matched)),
        "zh": Cell.rate(value_of(zh), ci_of(zh)),
        "en": Cell.rate(value_of(en), ci_of(en)),
        "n": Cell.text(f"{n_of(zh) or '—'} / {n_of(en) or '—'}", n_of(zh) or 0),
        "diff": Cell.score(d),
        "better": better_cell(lg, d.value if d else None, d.ci if d else None),
    }
    if matched is not None:  # no overall in a language: the difference is over matched ones
        cells.update(matched_cells(s, matched, mode, lg))
    css = "lb-baseline-row" if is_trivial_baseline(s.results) else ""
    return Row(cells, css)


def _papervalue_of(m: ReportedModel, lang: str, a: str) -> float | None:
    """The paper's number for an ability as the reference mode defines it (mean over the noise
    rates; Rej; mean of ED and CR where the paper prints both)."""
    lr = m.lang(lang)
    if lr is None:
        return None
    if a in ("noise", "integration"):
        values = list((lr.noise if a == "noise" else lr.integration).values())
        return frac(sum(values) / len(values)) if values else None
    if a == "rejection":
        return frac(lr.rejection.rej) if lr.rejection else None
    cf = lr.counterfactual
    if cf is None or cf.ed is None or cf.cr is None:
        return None
    return frac((cf.ed + cf.cr) / 2)


def _paper(data: SiteData) -> list[tuple[ReportedModel, str]]:
    return [(m, rep.file.source.citation) for rep in data.reported for m in rep.file.models]


def _paper_rows(data: SiteData, mode: str, lg: str) -> list[Row]:
    rows = []
    for m, source in _paper(data):
        for a in ABILITIES:
            if mode == "strict" and a not in PAPER_IN_STRICT:
                continue
            zh, en = _papervalue_of(m, "zh", a), _papervalue_of(m, "en", a)
            if zh is None and en is None:
                continue
            diff = zh - en if zh is not None and en is not None else None
            cells = {
                "model": reported_cell(m, source, lg),
                "ability": Cell.text(ui(lg, f"ability.{a}")),
                "zh": Cell.rate(zh),
                "en": Cell.rate(en),
                "n": Cell.text(None),
                "diff": Cell.rate(diff),
                "better": Cell.text(ui(lg, "zhen.reported_no_ci"), ""),
            }
            rows.append(Row(cells, "lb-reported-row"))
    return rows


def _diff_table(data: SiteData, mode: str, prefix: str, lg: str) -> Table:
    rows, band = [], []
    for s in sorted(data.submissions, key=lambda s: s.id):
        for a in ("overall", *ABILITIES):
            row = _diff_row(s, a, mode, prefix, lg)
            if row is not None:
                (band if row.css == "lb-baseline-row" else rows).append(row)
    paper = _paper_rows(data, mode, lg)
    return diff_table("zhen", f"zh-vs-en-{mode}", "zhen.table_title", mode, rows, band, lg, paper)


def _reliance_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    """Context reliance per model in each language (from the replacement probe)."""
    rows = []
    for s in sorted(data.submissions, key=lambda s: s.id):
        got = {
            lang: probe_entry(s.results, lang, "replacement", "context_reliance", mode)
            for lang in ("zh", "en")
        }
        if not any(got.values()):
            continue
        row = {"model": model_cell(s, prefix, compact=True, lg=lg)}
        for lang, e in got.items():
            row[lang] = Cell.score(e)
        rows.append(Row(row))
    return Table(
        id=f"zh-vs-en-reliance-{mode}",
        title=ui(lg, "probes.reliance_title", mode=ui(lg, f"mode.{mode}")),
        columns=columns(lg, "col.model", "reliance.zh", "reliance.en"),
        rows=tuple(rows),
        note=ui(lg, "probes.reliance_note"),
        ui=lg,
    )


def _chart_rows(data: SiteData, a: str, mode: str, lg: str = DEFAULT) -> list[ZhEnRow]:
    rows = []
    for s in sorted(data.submissions, key=lambda s: s.id):
        zh = score_entry(s.results, "zh", a, mode)
        en = score_entry(s.results, "en", a, mode)
        if value_of(zh) is None and value_of(en) is None:
            continue
        d = zh_minus_en(s.results, a, mode)
        kind = "baseline" if is_trivial_baseline(s.results) else "measured"
        rows.append(
            ZhEnRow(
                entry_name(s, lg),
                kind,
                value_of(zh),
                value_of(en),
                ci_of(zh),
                ci_of(en),
                d.value if d else None,
                d.ci if d else None,
                (n_of(zh), n_of(en)),
            )
        )
    if mode == "rgb" or a in PAPER_IN_STRICT:
        for m, _ in _paper(data):
            zh, en = _papervalue_of(m, "zh", a), _papervalue_of(m, "en", a)
            if zh is not None or en is not None:
                diff = zh - en if zh is not None and en is not None else None
                rows.append(ZhEnRow(m.display_name, "reported", zh, en, diff=diff))
    return rows


def _ability_charts(data: SiteData, out: Output, mode: str, prefix: str, lg: str) -> str:
    """The four charts side by side (two columns on a wide screen, one on a phone)."""
    figures = []
    for a in ABILITIES:
        rows = _chart_rows(data, a, mode, lg)
        if not rows:
            continue
        names = {"ability": ui(lg, f"ability.{a}"), "mode": ui(lg, f"mode.{mode}")}
        alt = ui(lg, "zhen.rows_alt", **names)
        title = ui(lg, "zhen.rows_title", **names)
        fig = out.chart(f"zh-vs-en-{a}-{mode}", zh_en_rows, (rows, title, lg), alt, prefix, lg)
        figures.append(fig.strip())
    if not figures:
        return ""
    return '\n\n<div class="lb-chart-grid">\n' + "\n".join(figures) + "\n</div>\n\n"


def _series(s: Entry, lang: str, mode: str) -> charts.Series | None:
    cs = cells_for(s.results, lang, "noise", mode)
    if not cs:
        return None
    return charts.Series(
        f"{s.name} {lang}",
        tuple(c.noise_rate for c in cs),
        tuple(c.accuracy for c in cs),
        tuple(c.accuracy_ci[0] if c.accuracy_ci else None for c in cs),
        tuple(c.accuracy_ci[1] if c.accuracy_ci else None for c in cs),
    )


def _noise_chart(data: SiteData, out: Output, mode: str, prefix: str, lg: str) -> str:
    """Each measured model's noise curves, zh and en on one chart, with the paper's curves."""
    models = [
        ModelCurves(s.name, _series(s, "zh", mode), _series(s, "en", mode))
        for s in sorted(data.submissions, key=lambda s: s.id)
        if not is_trivial_baseline(s.results)
    ]
    models = [m for m in models if m.zh or m.en]
    for m, _ in _paper(data):
        curves = {}
        for lang in LANGS:
            lr = m.lang(lang)
            if lr and lr.noise:
                xs = tuple(sorted(lr.noise))
                ys = tuple(frac(lr.noise[x]) for x in xs)
                curves[lang] = charts.Series(m.display_name, xs, ys)
        if curves:
            models.append(ModelCurves(m.display_name, curves.get("zh"), curves.get("en"), True))
    if not models:
        return ""
    names = {"mode": ui(lg, f"mode.{mode}")}
    args = (models, ui(lg, "zhen.noise_title", **names), lg)
    alt = ui(lg, "zhen.noise_alt", **names)
    return out.chart(f"zh-vs-en-curves-{mode}", noise_both, args, alt, prefix, lg)


def zh_vs_en_page(ctx: Context, mode: str = "strict") -> str:
    """The page of one scoring mode (strict, the ranked one, at zh-vs-en.md; the reference mode
    on a page of its own, which keeps each page small at 100 models) with its interface in
    language `ctx.lg` (the numbers are the same in every one)."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    path = PATHS[mode]
    prefix = prefix_for(path)
    other = next(m for m in MODES if m != mode)
    href = esc(PATHS[other].removesuffix(".md")) + ".html"
    link = f'<a href="{href}">{esc(ui(lg, f"zhen.h_{other}"))}</a>'
    title = ui(lg, "zhen.title") + ("" if mode == "strict" else f" — {ui(lg, f'mode.{mode}')}")
    parts = [front_matter() + f"# {title}\n", ui(lg, "zhen.lead") + "\n"]
    if data.reported:
        parts.append(f'<p class="lb-note">{esc(ui(lg, "zhen.reported_note"))}</p>\n')
    parts.append(f"\n## {ui(lg, f'zhen.h_{mode}')}\n")
    parts.append(_ability_charts(data, out, mode, prefix, lg))
    parts.append(out.table(_diff_table(data, mode, prefix, lg), prefix))
    parts.append(_noise_chart(data, out, mode, prefix, lg))
    truth = truthfulness_table(data, mode, prefix, lg)
    if truth.rows or truth.baseline_rows:
        parts.append(f"\n### {ui(lg, 'zhtruth.h')}\n")
        parts.append(ui(lg, "zhtruth.lead") + "\n")
        parts.append(out.table(truth, prefix))
    reliance = _reliance_table(data, mode, prefix, lg)
    if reliance.rows:
        parts.append("\n" + ui(lg, "probes.reliance_lead") + "\n")
        parts.append(out.table(reliance, prefix))
    parts.append("\n" + ui(lg, "zhen.other_mode", link=link) + "\n")
    parts.append(f"\n## {ui(lg, 'zhen.h_method')}\n")
    parts.append(
        ui(lg, "zhen.intro", diff_ci=ui(lg, "method.diff_ci")) + "\n"
    )  # one sentence, two pages
    return "\n".join(parts)

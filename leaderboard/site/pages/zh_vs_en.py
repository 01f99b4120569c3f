"""The zh versus en page: per model and ability, both scores and their difference with a CI."""

from __future__ import annotations

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import Difference, probe_entry, score_entry, zh_minus_en
from leaderboard.core.types import ABILITIES
from leaderboard.site.render import charts
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Context, Output, front_matter, model_cell, prefix_for
from leaderboard.site.render.tables import Cell, Column, Row, Table


def _diff_cell(d: Difference | None) -> Cell:
    return Cell.rate(d.value if d else None, d.ci if d else None)


def _diff_row(s: Entry, a: str, mode: str, prefix: str, lg: str = DEFAULT) -> Row | None:
    zh = score_entry(s.results, "zh", a, mode)
    en = score_entry(s.results, "en", a, mode)
    if zh is None and en is None:
        return None
    d = zh_minus_en(s.results, a, mode)
    better = "—"
    if d is not None and d.ci is not None and (d.ci[0] > 0 or d.ci[1] < 0):
        better = "zh" if d.value > 0 else "en"
    return Row(
        {
            "model": model_cell(s, prefix, compact=True, lg=lg),
            "ability": Cell.text(ui(lg, f"ability.{a}")),
            "zh": Cell.rate(zh.value if zh else None, zh.ci if zh else None),
            "en": Cell.rate(en.value if en else None, en.ci if en else None),
            "diff": _diff_cell(d),
            "better": Cell.text(better),
        }
    )


def _diff_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    rows = []
    for s in sorted(data.submissions, key=lambda s: s.id):
        for a in ("overall", *ABILITIES):
            row = _diff_row(s, a, mode, prefix, lg)
            if row is not None:
                rows.append(row)
    return Table(
        id=f"zh-vs-en-{mode}",
        title=ui(lg, "zhen.table_title", mode=ui(lg, f"mode.{mode}")),
        columns=(
            Column("model", ui(lg, "col.model")),
            Column("ability", ui(lg, "zhen.col_ability")),
            Column("zh", "zh", True),
            Column("en", "en", True),
            Column("diff", ui(lg, "zhen.col_diff"), True, ui(lg, "zhen.diff_tip")),
            Column("better", ui(lg, "zhen.col_better")),
        ),
        rows=tuple(rows),
        note=ui(lg, "zhen.note"),
        ui=lg,
    )


def _reliance_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    """Context reliance per model in each language (issue 15's replacement probe)."""
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
            row[lang] = Cell.rate(e.value if e else None, e.ci if e else None)
        rows.append(Row(row))
    tip = ui(lg, "probes.reliance_tip")
    return Table(
        id=f"zh-vs-en-reliance-{mode}",
        title=ui(lg, "probes.reliance_title", mode=ui(lg, f"mode.{mode}")),
        columns=(
            Column("model", ui(lg, "col.model")),
            Column("zh", ui(lg, "probes.reliance_col_zh"), True, tip),
            Column("en", ui(lg, "probes.reliance_col_en"), True, tip),
        ),
        rows=tuple(rows),
        note=ui(lg, "probes.reliance_note"),
        ui=lg,
    )


def _dumbbell_charts(
    data: SiteData, out: Output, mode: str, prefix: str, lg: str = DEFAULT
) -> list[str]:
    """The charts (drawn once, in English: their SVG text is not translated yet) with alt text
    and caption in language `lg`."""
    figures = []
    for a in ("overall", *ABILITIES):
        pairs = []
        for s in sorted(data.submissions, key=lambda s: s.id):
            zh = score_entry(s.results, "zh", a, mode)
            en = score_entry(s.results, "en", a, mode)
            pairs.append(charts.Pair(s.name, zh.value if zh else None, en.value if en else None))
        if any(p.zh is not None or p.en is not None for p in pairs):
            alt = ui(lg, "zhen.chart_alt", ability=ui(lg, f"ability.{a}"))
            args = (pairs, f"{ui(DEFAULT, f'ability.{a}')}: zh vs en")
            figures.append(out.chart(f"zh-vs-en-{a}", charts.dumbbell, args, alt, prefix))
    return figures


def zh_vs_en_page(ctx: Context) -> str:
    """The page with its interface in language `ctx.lg` (the numbers are the same in every one)."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    path = "zh-vs-en.md"
    prefix = prefix_for(path)
    parts = [front_matter() + f"# {ui(lg, 'zhen.title')}\n", ui(lg, "zhen.intro") + "\n"]
    for mode in ("rgb", "strict"):
        parts.append(f"\n## {ui(lg, f'mode.{mode}').capitalize()}\n")
        parts.append(out.table(_diff_table(data, mode, prefix, lg), prefix))
        reliance = _reliance_table(data, mode, prefix, lg)
        if reliance.rows:
            parts.append("\n" + ui(lg, "probes.reliance_lead") + "\n")
            parts.append(out.table(reliance, prefix))
        if mode == "rgb":
            parts += _dumbbell_charts(data, out, mode, prefix, lg)
    return "\n".join(parts)

"""One page per language and ability: per-noise-rate tables in both modes, curves, reported rows,
and the trivial baselines in a band under the measured rows (never ranked, left out of charts).
Every interface string comes from the message tables (abpage.*), so a page exists in every site
language with the same numbers."""

from __future__ import annotations

from leaderboard.board.load import SiteData
from leaderboard.board.ranking import cells_for, cliff_marks, is_trivial_baseline
from leaderboard.board.reported import frac
from leaderboard.core.types import DEFAULT_NOISE_RATES
from leaderboard.site.pages.ability.decisions import (
    counterfactual_table,
    names,
    ordered,
    rejection_table,
    reported_langs,
    score_cell,
)
from leaderboard.site.pages.ability.outcome_cells import answer_rate_cell
from leaderboard.site.render import charts
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.facts import with_facts
from leaderboard.site.render.fmt import esc, rate_key
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Context, Output, front_matter, model_cell, prefix_for
from leaderboard.site.render.tables import Cell, Column, Row, Table


def _rates(data: SiteData, lang: str, ability: str) -> list[float]:
    seen = {
        round(c.noise_rate, 3)
        for s in data.submissions
        for c in s.results.cells
        if c.lang == lang and c.ability == ability
    }
    return sorted(seen | set(DEFAULT_NOISE_RATES[ability]))


def _curve_columns(rates: list[float], lg: str) -> tuple[Column, ...]:
    accs = tuple(column("abpage.acc", lg, rate=rate_key(r)) for r in rates)
    tail = columns(lg, "abpage.score", "out.answer_rate", "abpage.n")
    return (column("col.model", lg), *accs, *tail)


def _curve_table(
    data: SiteData, lang: str, ability: str, mode: str, prefix: str, lg: str = DEFAULT
) -> tuple[Table, list[charts.Series]]:
    rates = _rates(data, lang, ability)
    rows, band, series = [], [], []
    for s in ordered(data, lang, ability, mode):
        baseline = is_trivial_baseline(s.results)
        cells = {c.noise_rate: c for c in cells_for(s.results, lang, ability, mode)}
        row = {"model": model_cell(s, prefix, lang, lg=lg)}
        for r in rates:
            c = next((c for nr, c in cells.items() if abs(nr - r) < 1e-9), None)
            row[f"acc_{rate_key(r)}"] = Cell.rate(
                c.accuracy if c else None, c.accuracy_ci if c else None
            )
        row["score"] = score_cell(s, lang, ability, mode)
        row["answer_rate"] = answer_rate_cell(s, lang, ability, mode)
        n = sum(c.n for c in cells.values())
        row["n"] = Cell.text(n, n)
        if baseline:
            band.append(Row(row, "lb-baseline-row"))
            continue
        rows.append(Row(row))
        pts = [cells.get(nr) for nr in sorted(cells)]
        series.append(
            charts.Series(
                s.name,
                tuple(sorted(cells)),
                tuple(c.accuracy for c in pts),
                tuple(c.accuracy_ci[0] if c.accuracy_ci else None for c in pts),
                tuple(c.accuracy_ci[1] if c.accuracy_ci else None for c in pts),
                **(cliff_marks(s.results, lang, mode) if ability == "noise" else {}),
            )
        )
    reported_rows = []
    if mode == "rgb":
        for cell, lr in reported_langs(data, lang, lg):
            values = lr.noise if ability == "noise" else lr.integration
            if not values:
                continue
            row = {"model": cell}
            for r in rates:
                v = next((v for nr, v in values.items() if abs(nr - r) < 1e-9), None)
                row[f"acc_{rate_key(r)}"] = Cell.rate(frac(v))
            reported_rows.append(Row(row, "lb-reported-row"))
            series.append(
                charts.Series(
                    cell.value,
                    tuple(sorted(values)),
                    tuple(frac(values[k]) for k in sorted(values)),
                    reported=True,
                )
            )
    table = Table(
        id=f"{lang}-{ability}-{mode}",
        title=ui(lg, "abpage.table_title", **names(lg, lang, ability, mode)),
        columns=_curve_columns(rates, lg),
        rows=tuple(rows),
        baseline_rows=tuple(band),
        reported_rows=tuple(reported_rows),
        note=ui(lg, "abpage.acc_note"),
        ui=lg,
    )
    return table, series


def _curve_chart(
    out: Output,
    series: list[charts.Series],
    where: tuple[str, str, str],
    prefix: str,
    lg: str,
) -> str:
    """The accuracy-against-noise chart of one mode (`where`: language, ability, mode), with
    its alt text, title and axis labels in `lg`."""
    lang, ability, mode = where
    shown = names(lg, lang, ability, mode)
    alt = ui(lg, "abpage.curve_alt", **(shown | {"ability": shown["ability"].lower()}))
    if any(s.reported for s in series):
        alt += ui(lg, "abpage.curve_alt_reported")
    if ability == "noise":
        alt += ui(lg, "abpage.cliff_alt")
    title = ui(lg, "abpage.chart_title", ability=shown["ability"], lang=lang, mode=mode)
    name = f"{lang}-{ability}-{mode}"
    return out.chart(name, charts.noise_curve, (series, title, lg), alt, prefix, lg)


def _bar_chart(out: Output, table: Table, lang: str, ability: str, prefix: str, lg: str) -> str:
    """Rejection rate (rejection) or error detection rate (counterfactual) per measured model,
    reference mode."""
    key = "rej_rgb" if ability == "rejection" else "ed"
    labels = [r.cells["model"].value for r in table.rows]
    values = [r.cells[key].value["value"] for r in table.rows]
    alt = ui(lg, f"abpage.{ability}_alt", lang=ui(lg, f"lang.{lang}"))
    title = ui(lg, f"abpage.{ability}_chart", lang=lang)
    args = (labels, values, title, ui(lg, f"abpage.{ability}_axis"))
    return out.chart(f"{lang}-{ability}", charts.bars, args, alt, prefix, lg)


def ability_page(ctx: Context, lang: str, ability: str) -> str:
    """The page of one language and ability with its interface in language `ctx.lg` (the
    numbers are the same in every one)."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    path = f"abilities/{lang}-{ability}.md"
    prefix = prefix_for(path)
    parts = [
        front_matter() + f"# {ui(lg, 'abpage.title', **names(lg, lang, ability))}\n",
        ui(lg, f"abpage.intro_{ability}") + "\n",
    ]
    if data.reported:
        parts.append(ui(lg, "abpage.reported_intro") + "\n")
    if ability in ("noise", "integration"):
        for mode in ("strict", "rgb"):  # the ranked mode first
            parts.append(f"\n## {ui(lg, f'mode.{mode}').capitalize()}\n")
            table, series = _curve_table(data, lang, ability, mode, prefix, lg)
            parts.append(out.table(with_facts(table, data, lg), prefix))
            if series:
                parts.append(_curve_chart(out, series, (lang, ability, mode), prefix, lg))
    elif ability == "rejection":
        table = rejection_table(data, lang, prefix, lg)
        parts.append(out.table(with_facts(table, data, lg), prefix))
        if table.rows:
            parts.append(_bar_chart(out, table, lang, ability, prefix, lg))
    else:
        for mode in ("strict", "rgb"):  # the ranked mode first
            parts.append(f"\n## {ui(lg, f'mode.{mode}').capitalize()}\n")
            table = counterfactual_table(data, lang, mode, prefix, lg)
            parts.append(out.table(with_facts(table, data, lg), prefix))
            if mode == "rgb" and table.rows:
                parts.append(_bar_chart(out, table, lang, ability, prefix, lg))
    parts.append(
        f'\n<p class="lb-note"><a href="{esc(prefix)}instances/index.html">'
        f"{ui(lg, 'abpage.browse')}</a>{ui(lg, 'abpage.browse_end')}</p>\n"
    )
    return "\n".join(parts)

"""The "From retrieval to answer" page: the retrieve-then-generate chain with its error
attribution, context replacement with context reliance, and the noise cliff.

Every figure is read from results.json's `probes` section (computed by leaderboard.stats.attribution
and leaderboard.stats.cliff); nothing is recomputed here.
"""

from __future__ import annotations

from collections.abc import Callable

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import cell, probe_entry
from leaderboard.core.schema import ProbeEntry
from leaderboard.core.types import LANGS
from leaderboard.site.render import charts
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import (
    Context,
    Output,
    entry_name,
    front_matter,
    model_cell,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table

PATH = "retrieval-to-answer.md"
# Column key = probe metric; its column is render.columns probes.<key>.
CHAIN_COLS = (
    "recall_at_k",
    "accuracy_given_support",
    "end_to_end",
    "loss_retrieval",
    "loss_generation",
)
REPLACEMENT_COLS = ("own_accuracy", "memory_accuracy", "context_reliance", "refusal")
LEAD = ("col.model", "probes.lang")  # every probe table's first columns (render.columns)
STACK = (  # attribution -> bar colour; the name is probes.stack_<key>
    ("retrieval_miss", "#d62728"),
    ("generation_miss", "#ff7f0e"),
    ("correct", "#2ca02c"),
    ("correct_without_support", "#9467bd"),
)


def _chart_name(mode: str, lg: str) -> str:
    """The stacked chart's file stem: one chart per interface language (its text differs)."""
    return f"chain-attribution-{mode}" + ("" if lg == DEFAULT else f"-{lg}")


def _rate(e: ProbeEntry | None) -> Cell:
    return Cell.score(e)


def _measured(data: SiteData, probe: str) -> list[tuple[Entry, str]]:
    return [
        (s, lang)
        for s in sorted(data.submissions, key=lambda s: s.id)
        for lang in LANGS
        if any(e.probe == probe and e.lang == lang for e in s.results.probes)
    ]


def _n(s: Entry, lang: str, probe: str, metric: str, mode: str) -> Cell:
    e = probe_entry(s.results, lang, probe, metric, mode)
    return Cell.text(e.n_questions if e else None, e.n_questions if e else None)


def _probe_rows(
    data: SiteData,
    probe: str,
    n_metric: str,
    keys: tuple[str, ...],
    mode: str,
    prefix: str,
    lg: str,
    extra: Callable[[Entry, str], dict[str, Cell]] | None = None,
) -> tuple[list[Row], list[Column]]:
    """One row per measured (model, language) of a probe: n, then each rate with its CI."""
    rows = []
    for s, lang in _measured(data, probe):
        row = {"model": model_cell(s, prefix, lang, lg=lg), "lang": Cell.text(lang)}
        row["n"] = _n(s, lang, probe, n_metric, mode)
        for key in keys:
            row[key] = _rate(probe_entry(s.results, lang, probe, key, mode))
        row.update(extra(s, lang) if extra else {})
        rows.append(Row(row))
    cols = list(columns(lg, *LEAD, "plain.n", *(f"probes.{k}" for k in keys)))
    return rows, cols


def _title(lg: str, key: str, mode: str) -> str:
    return ui(lg, key, mode=ui(lg, f"mode.{mode}"))


def _probe_table(probe: str, mode: str, lg: str, rows: list, cols: list[Column]) -> Table:
    """A probe's table: id, title and note from the probe's name (chain, replacement)."""
    return Table(
        id=f"{probe}-{mode}",
        title=_title(lg, f"probes.{probe}_title", mode),
        columns=tuple(cols),
        rows=tuple(rows),
        note=ui(lg, f"probes.{probe}_note"),
        ui=lg,
    )


def chain_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    rows, cols = _probe_rows(data, "chain", "recall_at_k", CHAIN_COLS, mode, prefix, lg)
    return _probe_table("chain", mode, lg, rows, cols)


def replacement_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    def rgb_rejection(s: Entry, lang: str) -> dict[str, Cell]:
        rej = cell(s.results, lang, "rejection", 1.0, mode)
        ci = rej.rejection_rate_ci if rej else None
        return {"rgb_rejection": Cell.rate(rej.rejection_rate if rej else None, ci)}

    rows, cols = _probe_rows(
        data, "replacement", "memory_accuracy", REPLACEMENT_COLS, mode, prefix, lg, rgb_rejection
    )
    cols.append(column("probes.rgb_rejection", lg))
    return _probe_table("replacement", mode, lg, rows, cols)


def cliff_table(data: SiteData, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    rows = []
    for s, lang in _measured(data, "cliff"):
        drop = probe_entry(s.results, lang, "cliff", "largest_drop", mode)
        half = probe_entry(s.results, lang, "cliff", "below_half_at", mode)
        where = f"{drop.rates[0]:.1f} → {drop.rates[1]:.1f}" if drop and drop.rates else None
        none = ui(lg, "probes.cliff_none")
        at = None if half is None else (none if half.value is None else f"{half.value:.1f}")
        rows.append(
            Row(
                {
                    "model": model_cell(s, prefix, lang, lg=lg),
                    "lang": Cell.text(lang),
                    "where": Cell.text(where),
                    "drop": _rate(drop),
                    "half": Cell.text(at),
                }
            )
        )
    return Table(
        id=f"noise-cliff-{mode}",
        title=_title(lg, "probes.cliff_title", mode),
        columns=columns(lg, *LEAD, "probes.where", "probes.drop", "probes.half"),
        rows=tuple(rows),
        ui=lg,
    )


def _stack_chart(data: SiteData, out: Output, mode: str, prefix: str, lg: str = DEFAULT) -> str:
    labels, parts = [], {k: [] for k, _ in STACK}
    for s, lang in _measured(data, "chain"):
        labels.append(ui(lg, "probes.bar_label", name=entry_name(s, lg), lang=lang))
        for key, _ in STACK:
            e = probe_entry(s.results, lang, "chain", key, mode)
            parts[key].append(e.value if e and e.value is not None else 0.0)
    if not labels:
        return ""
    series = [(ui(lg, f"probes.stack_{k}"), color, parts[k]) for k, color in STACK]
    alt = ui(lg, "probes.chart_alt", mode=ui(lg, f"mode.{mode}"))
    title = ui(lg, "probes.chart_title", mode=mode)
    args = (labels, series, title, ui(lg, "probes.chart_xlabel"))
    return out.chart(_chart_name(mode, lg), charts.stacked_bars, args, alt, prefix)


def probes_page(ctx: Context) -> str:
    """The page with its interface in language `ctx.lg` (the same numbers in every language)."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    prefix = prefix_for(PATH)
    parts = [front_matter() + f"# {ui(lg, 'probes.title')}\n", ui(lg, "probes.intro")]
    if not any(s.results.probes for s in data.submissions):
        parts.append("\n" + ui(lg, "probes.empty") + "\n")
    for mode in ("strict", "rgb"):  # the ranked mode first
        parts.append(f"\n## {ui(lg, f'mode.{mode}').capitalize()}\n")
        parts.append(f"\n### {ui(lg, 'probes.chain_heading')}\n")
        parts.append(out.table(chain_table(data, mode, prefix, lg), prefix))
        parts.append(_stack_chart(data, out, mode, prefix, lg))
        parts.append(f"\n### {ui(lg, 'probes.replacement_heading')}\n")
        parts.append(out.table(replacement_table(data, mode, prefix, lg), prefix))
        parts.append(f"\n### {ui(lg, 'probes.cliff_heading')}\n")
        parts.append(out.table(cliff_table(data, mode, prefix, lg), prefix))
    langs = ui(lg, "probes.list_sep").join(ui(lg, f"lang.{lang}") for lang in LANGS)
    parts.append("\n" + ui(lg, "probes.footer", langs=langs) + "\n")
    return "\n".join(parts)

"""The conflict page's tables: the paired effects (first screen) and, one click away, every
figure of every condition, the split by the model's own closed-book answer and the coverage. Each
table puts the trivial baselines in the band under the models (the floor).
"""

from __future__ import annotations

from leaderboard.board.conflicts import OFFICIAL, ConflictPanel
from leaderboard.core.types import LANGS
from leaderboard.protocol.conflicts import condition_ids
from leaderboard.scoring.conflict_outcome import LABELS
from leaderboard.site.pages.conflicts.panels import (
    condition_title,
    instruction_title,
    ordered,
    panel_name,
    split_panels,
)
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc, pct_ci, signed_pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.conflicts import PRIOR_GROUPS

EFFECTS = ("fake_cost", "order", "majority", "instruction:t1f1", "instruction:f1t1")
SUMMARY = ("truthful", "misled", "flagged")


def effect_name(effect: str, lg: str) -> str:
    if effect.startswith("instruction:"):
        cond = effect.split(":", 1)[1]
        return ui(lg, "conf.effect.instruction", cond=ui(lg, f"conf.short.{cond}"))
    return ui(lg, f"conf.effect.{effect}")


def _effect_cell(e, lg: str) -> Cell:
    """A paired difference in points with its interval and n; exported with its bounds."""
    if e is None or e.value is None:
        return Cell.missing(None)
    value = {
        "value": e.value,
        "ci_low": e.ci[0] if e.ci else None,
        "ci_high": e.ci[1] if e.ci else None,
        "n": e.n,
    }
    html = esc(signed_pct(e.value, lg))
    under = f"{pct_ci(e.ci, lg)} · " if e.ci else ""
    html += f' <span class="lb-ci">{esc(under)}n = {e.n}</span>'
    return Cell(value, html, round(e.value, 6))


def _effect_rows(p: ConflictPanel, prefix: str, lg: str, css: str = "") -> list[Row]:
    rows = []
    for effect in EFFECTS:
        if not any(p.effect(lang, effect, "truthful") for lang in (*LANGS, "zh-en")):
            continue
        cells = {
            "model": Cell.link(panel_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
            "effect": Cell.text(effect_name(effect, lg), effect),
        }
        for metric in ("truthful", "misled"):
            for lang in (*LANGS, "zh-en"):
                key = f"{metric}_{lang.replace('-', '_')}"
                cells[key] = _effect_cell(p.effect(lang, effect, metric), lg)
        rows.append(Row(cells, css))
    return rows


def effects_table(ctx: Context, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)
    ids = ["model", "effect"]
    ids += [f"{m}_{lang}" for m in ("truthful", "misled") for lang in ("zh", "en", "zh_en")]
    floor_rows = tuple(r for p in floor for r in _effect_rows(p, prefix, lg, "lb-baseline-row"))
    model_rows = tuple(r for p in models for r in _effect_rows(p, prefix, lg))
    # under the models, the floor is the band (collapsed to its first row); with no model yet
    # (the page says so above) its rows are the table, every one shown
    table = Table(
        id="conflict-effects",
        title=ui(lg, "conf.effects_title"),
        columns=columns(lg, *(f"conf.{k}" for k in ids)),
        rows=model_rows or floor_rows,
        baseline_rows=floor_rows if model_rows else (),
        note=ui(lg, "conf.effects_note"),
        filterable=False,
        ui=lg,
    )
    return ctx.out.table(table, prefix)


def figures_table(ctx: Context, lang: str, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)
    ids = ("model", "condition", *SUMMARY, *LABELS, "n")

    def rows(p: ConflictPanel, css: str = "") -> list[Row]:
        out = []
        for instruction in p.instructions:
            held = [c for c in condition_ids() if p.figure(lang, c, "truthful", instruction)]
            for cond in ordered(held):
                shown = condition_title(cond, lg)
                if instruction != OFFICIAL:
                    shown += f" · {instruction_title(instruction, lg)}"
                cells = {
                    "model": Cell.link(panel_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
                    "condition": Cell.text(shown, f"{instruction}/{cond}"),
                }
                n = 0
                for m in (*SUMMARY, *LABELS):
                    f = p.figure(lang, cond, m, instruction)
                    cells[m] = Cell.rate(f.value, f.ci) if f else Cell.missing(None)
                    n = f.n if f else n
                cells["n"] = Cell.text(n, n)
                out.append(Row(cells, css))
        return out

    table = Table(
        id=f"conflict-figures-{lang}",
        title=ui(lg, "conf.figures_title", lang=ui(lg, f"lang.{lang}")),
        columns=columns(lg, *(f"conf.{k}" for k in ids)),
        rows=tuple(r for p in models for r in rows(p)),
        baseline_rows=tuple(r for p in floor for r in rows(p, "lb-baseline-row")),
        filterable=False,
        ui=lg,
    )
    return ctx.out.table(table, prefix)


def prior_table(ctx: Context, prefix: str) -> str:
    """t1f1 under RGB's instruction, split by what the model answers with no passage."""
    lg = ctx.lg
    models, _ = split_panels(ctx)
    rows = []
    for p in models:
        by = {(lang, cond, g, f.metric): f for lang, cond, g, f in p.prior}
        for lang in LANGS:
            for group in PRIOR_GROUPS:
                figs = {m: by.get((lang, "t1f1", group, m)) for m in (*SUMMARY, "both_merged")}
                if all(f is None for f in figs.values()):
                    continue
                n = next(f.n for f in figs.values() if f is not None)
                cells = {
                    "model": Cell.link(panel_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
                    "lang": Cell.text(ui(lg, f"lang.{lang}"), lang),
                    "prior": Cell.text(ui(lg, f"conf.prior.{group}"), group),
                    **{
                        m: Cell.rate(f.value, f.ci) if f else Cell.missing(None)
                        for m, f in figs.items()
                    },
                    "n": Cell.text(n, n),
                }
                rows.append(Row(cells))
    if not rows:
        return f"<p>{esc(ui(lg, 'conf.prior_none'))}</p>\n"
    table = Table(
        id="conflict-prior",
        title=ui(lg, "conf.prior_title"),
        columns=columns(
            lg, *(f"conf.{k}" for k in ("model", "lang", "prior", *SUMMARY, "both_merged", "n"))
        ),
        rows=tuple(rows),
        filterable=False,
        ui=lg,
    )
    return ctx.out.table(table, prefix)


def coverage_table(ctx: Context, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)

    def rows(p: ConflictPanel, css: str = "") -> list[Row]:
        out = []
        for instruction in p.instructions:
            for c in p.coverage.get(instruction, ()):
                shown = condition_title(c.condition, lg)
                if instruction != OFFICIAL:
                    shown += f" · {instruction_title(instruction, lg)}"
                cells = {
                    "model": Cell.link(panel_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
                    "lang": Cell.text(ui(lg, f"lang.{c.lang}"), c.lang),
                    "condition": Cell.text(shown, f"{instruction}/{c.condition}"),
                    "eligible": Cell.text(c.eligible, c.eligible),
                    "left_out": Cell.text(c.left_out, c.left_out),
                    "answered": Cell.text(c.answered, c.answered),
                }
                out.append(Row(cells, css))
        return out

    ids = ("model", "lang", "condition", "eligible", "left_out", "answered")
    table = Table(
        id="conflict-coverage",
        title=ui(lg, "conf.coverage_title"),
        columns=columns(lg, *(f"conf.{k}" for k in ids)),
        rows=tuple(r for p in models for r in rows(p)),
        baseline_rows=tuple(r for p in floor for r in rows(p, "lb-baseline-row")),
        note=ui(lg, "conf.coverage_note"),
        filterable=False,
        ui=lg,
    )
    return ctx.out.table(table, prefix)

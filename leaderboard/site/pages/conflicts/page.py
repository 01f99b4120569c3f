"""The knowledge-conflict track's page, "When the passages disagree": which answer each model
takes when its passages disagree, and whether majority, order and the instruction sway it.

First screen: the outcome bars per model and condition (zh beside en, `t1f1` first), then the
paired effects with their intervals (zh beside en and the zh − en gap), the trivial baselines in
the band under the models (the floor). One click away: every figure of every condition, the
coverage (what each condition leaves out, what is answered so far), the split by the model's own
closed-book answer and the conditions as written; then the example browser (examples.py).

The figures are board.conflicts' (computed once by the build into `SiteData.extra[PANELS]`,
read through panels.py); this module lays out the page and its charts, tables.py its tables. The
model page's line (`model_line`) and the home page's way in (`home_link`) come from here too
(one home for the wording).
"""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.conflicts import OFFICIAL, TRACK_INSTRUCTION, ConflictPanel
from leaderboard.core.types import LANGS
from leaderboard.protocol.conflicts import condition_ids, load_condition
from leaderboard.scoring.conflict_outcome import LABELS
from leaderboard.site.pages.conflicts.examples import examples_section
from leaderboard.site.pages.conflicts.panels import (
    baselines,
    eligible_counts,
    ordered,
    panel_name,
    panels,
    partial_note,
    split_panels,
)
from leaderboard.site.pages.conflicts.tables import (
    SUMMARY,
    coverage_table,
    effects_table,
    figures_table,
    prior_table,
)
from leaderboard.site.render.charts import stacked_bars
from leaderboard.site.render.fmt import esc, pct, pct_ci
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter, prefix_for

PATH = "conflicts.md"
# the conflict conditions a model's bars show on the first screen (the rest: the tables below)
FIRST_SCREEN = ("t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2")
LEGEND_COLS = 4  # the seven outcomes' legend in two rows (a chart is half the page wide)
# one colour per outcome (stacked in LABELS order): the true side green, the planted side red
COLOURS = {
    "error_claimed": "#8e6bbf",
    "refused": "#9e9e9e",
    "both_flagged": "#4db6ac",
    "both_merged": "#ffb74d",
    "true_only": "#2e7d32",
    "fake_only": "#c62828",
    "other": "#d7d7d7",
}


# --- first screen: the bars --------------------------------------------------------------------


def _bar_rows(
    lang: str, models: Sequence[ConflictPanel], floor: Sequence[ConflictPanel], lg: str
) -> tuple[list[str], list[list[float]]]:
    """The bars of one language: per model its conflict conditions under RGB's instruction and
    the track's instruction on t1f1; without a model, the baselines' t1f1 (the floor)."""
    labels: list[str] = []
    shares: list[list[float]] = []

    def add(p: ConflictPanel, cond: str, instruction: str, label: str) -> None:
        figs = [p.figure(lang, cond, m, instruction) for m in LABELS]
        if any(f is None for f in figs):
            return
        n = figs[0].n  # type: ignore[union-attr]
        labels.append(f"{label} (n = {n})")  # "name\nwhat", two lines in the chart
        shares.append([f.value for f in figs])  # type: ignore[union-attr]

    for p in models:
        for cond in FIRST_SCREEN:
            short = ui(lg, f"conf.short.{cond}")
            add(p, cond, OFFICIAL, f"{panel_name(p, lg)}\n{short}")
        short = ui(lg, "conf.short.aware", cond=ui(lg, "conf.short.t1f1"))
        add(p, "t1f1", TRACK_INSTRUCTION, f"{panel_name(p, lg)}\n{short}")
    if not models:
        for p in floor:
            add(p, "t1f1", OFFICIAL, f"{panel_name(p, lg)}\n{ui(lg, 'conf.short.t1f1')}")
    return labels, shares


def _chart(ctx: Context, lang: str, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)
    labels, shares = _bar_rows(lang, models, floor, lg)
    if not labels:
        return ""
    lang_name = ui(lg, f"lang.{lang}")
    parts = [
        (ui(lg, f"conf.label.{m}"), COLOURS[m], [s[i] for s in shares])
        for i, m in enumerate(LABELS)
    ]
    key = "conf.chart_title" if models else "conf.chart_title_floor"
    args = (labels, parts, ui(lg, key, lang=lang_name), ui(lg, "conf.chart_x"), LEGEND_COLS)
    alt = ui(lg, "conf.chart_alt" if models else "conf.chart_alt_floor", lang=lang_name)
    return ctx.out.chart(f"conflicts-{lang}", stacked_bars, args, alt, prefix, lg)


def conditions_list(lg: str) -> str:
    """Every condition as written: its title, purpose and passages in reading order."""
    items = []
    for cid in ordered(condition_ids()):
        c = load_condition(cid)
        roles = ui(lg, "sep.list").join(ui(lg, f"conf.role.{r}") for r in c.passages)
        detail = ui(
            lg,
            "conf.condition_detail",
            roles=roles,
            sources=ui(lg, f"conf.sources.{c.sources}"),
            rotate=ui(lg, f"conf.rotate.{c.rotate}"),
        )
        items.append(
            f"<li><strong>{esc(c.title[lg])}</strong> <code>{esc(cid)}</code>: "
            f"{esc(c.purpose[lg])} {esc(detail)}</li>"
        )
    return f'\n<ul class="lb-defs">{"".join(items)}</ul>\n'


def outcomes_list(lg: str) -> str:
    """The seven outcome labels (in the order they are tried) and the three summaries."""
    items = "".join(
        f"<li><strong>{esc(ui(lg, f'conf.label.{m}'))}</strong>: "
        f"{esc(ui(lg, f'conf.tip.{m}'))}</li>"
        for m in (*LABELS, *SUMMARY)
    )
    return f'\n<ol class="lb-defs">{items}</ol>\n'


def _details(summary: str, body: str) -> str:
    return f"\n<details><summary>{esc(summary)}</summary>\n{body}\n</details>\n"


# --- the model page and the home page ----------------------------------------------------------


def model_line(ctx: Context, entry_id: str, prefix: str) -> str:
    """The model page's conflict line: t1f1 under RGB's instruction, truthful and misled with n
    and intervals per language, linking to the page; empty without conflict answers."""
    lg = ctx.lg
    panel = next((p for p in panels(ctx) if p.entry_id == entry_id), None)
    if panel is None:
        return ""
    shown = []
    for lang in LANGS:
        t = panel.figure(lang, "t1f1", "truthful")
        m = panel.figure(lang, "t1f1", "misled")
        if t is None or m is None:
            continue
        shown.append(
            ui(
                lg,
                "conf.model_lang",
                lang=ui(lg, f"lang.{lang}"),
                truthful=pct(t.value, lg=lg),
                truthful_ci=pct_ci(t.ci, lg),
                misled=pct(m.value, lg=lg),
                misled_ci=pct_ci(m.ci, lg),
                n=t.n,
            )
        )
    if not shown:
        return ""
    floor = entry_id in baselines(ctx)
    note = "" if floor else partial_note(panel, eligible_counts(panels(ctx)), lg)
    sep = ui(lg, "sep.sentence")
    link = f'<a href="{prefix}{PATH}">{esc(ui(lg, "conf.h1"))}</a>'
    body = esc(ui(lg, "conf.model_line", langs=ui(lg, "conf.sep_langs").join(shown)))
    tail = f'{sep}<span class="lb-note">{esc(note)}</span>' if note else ""
    return f'\n<p class="lb-conflicts">{body}{tail}{sep}{link}</p>\n'


def home_link(ctx: Context, prefix: str) -> str:
    """The home page's way in: one line naming the question the page answers."""
    if not panels(ctx):
        return ""
    link = f'<a href="{prefix}{PATH}">{esc(ui(ctx.lg, "conf.h1"))}</a>'
    return f'\n<p class="lb-conflicts">{ui(ctx.lg, "conf.home", link=link)}</p>\n'


# --- the page ----------------------------------------------------------------------------------


def conflicts_page(ctx: Context) -> str:
    lg, prefix = ctx.lg, prefix_for(PATH)
    parts = [
        front_matter(title=ui(lg, "conf.h1")),
        f"# {ui(lg, 'conf.h1')}\n",
        esc(ui(lg, "conf.lead")) + "\n",
    ]
    every = panels(ctx)
    if not every:
        parts.append(esc(ui(lg, "conf.none")) + "\n")
        parts.append(_details(ui(lg, "conf.conditions_h"), conditions_list(lg)))
        return "\n".join(parts)
    models, _ = split_panels(ctx)
    eligible = eligible_counts(every)
    # the baselines' scripted answers ignore the instruction: only a model's gaps are partial
    notes = [n for p in models if (n := partial_note(p, eligible, lg))]
    if not models:
        notes.insert(0, ui(lg, "conf.no_models"))
    if notes:
        parts.append('<p class="lb-note">' + "<br>".join(esc(n) for n in notes) + "</p>\n")
    charts = [c for lang in LANGS if (c := _chart(ctx, lang, prefix))]
    if charts:
        parts.append('\n<div class="lb-pair">' + "".join(c.strip() for c in charts) + "</div>\n")
    parts.append(f"\n## {ui(lg, 'conf.effects_h')}\n")
    parts.append(esc(ui(lg, "conf.effects_lead")) + "\n")
    parts.append(effects_table(ctx, prefix))
    parts.append(f"\n## {ui(lg, 'conf.details_h')}\n")
    parts.append(
        _details(
            ui(lg, "conf.figures_summary"),
            "".join(figures_table(ctx, lang, prefix) for lang in LANGS),
        )
    )
    parts.append(_details(ui(lg, "conf.prior_summary"), prior_table(ctx, prefix)))
    parts.append(_details(ui(lg, "conf.coverage_summary"), coverage_table(ctx, prefix)))
    parts.append(_details(ui(lg, "conf.conditions_h"), conditions_list(lg) + outcomes_list(lg)))
    parts.append(examples_section(ctx, prefix))
    parts.append(f"\n## {ui(lg, 'conf.method_h')}\n\n{ui(lg, 'conf.method')}\n")
    return "\n".join(parts)

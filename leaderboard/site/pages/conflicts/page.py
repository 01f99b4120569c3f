"""The knowledge-conflict track's page, "When the passages disagree": which answer each model
takes when its passages disagree, and whether majority, order and the instruction sway it.

First screen: the outcome bars per model and condition (zh beside en, `t1f1` first), then the
paired effects with their intervals (zh beside en and the zh − en gap), the trivial baselines in
the band under the models (the floor). One click away: every figure of every condition, the
coverage (what each condition leaves out, what is answered so far), the split by the model's own
closed-book answer and the conditions as written; then the example browser (examples.py).

The figures are board.conflicts' (computed once by the build into `SiteData.extra[PANELS]`); this
page only lays them out. The model page's line (`model_line`) and the home page's way in
(`home_link`) come from here too (one home for the wording).
"""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.conflicts import OFFICIAL, TRACK_INSTRUCTION, ConflictPanel
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.core.types import LANGS
from leaderboard.protocol.conflicts import PANEL, condition_ids, load_condition
from leaderboard.protocol.instructions import load_instruction
from leaderboard.scoring.conflict_outcome import LABELS
from leaderboard.site.pages.conflicts.examples import examples_section
from leaderboard.site.render.charts import stacked_bars
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc, pct, pct_ci, signed_pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter, prefix_for, shown_name
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.conflicts import PRIOR_GROUPS

PATH = "conflicts.md"
PANELS = "conflict_panels"  # SiteData.extra key: the build's list of board.ConflictPanel
# the conditions in the order the bars show them: the everyday conflict first, the baselines last
CHART_ORDER = ("t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2", "true_only", "fake_only")
# the conflict conditions a model's bars show on the first screen (the rest: the tables below)
FIRST_SCREEN = ("t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2")
EFFECTS = ("fake_cost", "order", "majority", "instruction:t1f1", "instruction:f1t1")
SUMMARY = ("truthful", "misled", "flagged")
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


def panels(ctx: Context) -> list[ConflictPanel]:
    found = ctx.data.extra.get(PANELS)
    return list(found) if isinstance(found, list | tuple) else []


def _baselines(ctx: Context) -> set[str]:
    return {e.id for e in ctx.data.submissions if is_trivial_baseline(e.results)}


def split_panels(ctx: Context) -> tuple[list[ConflictPanel], list[ConflictPanel]]:
    """(models, trivial baselines): the baselines are the floor, shown apart."""
    floor = _baselines(ctx)
    every = panels(ctx)
    return [p for p in every if p.entry_id not in floor], [p for p in every if p.entry_id in floor]


def condition_title(cid: str, lg: str) -> str:
    return load_condition(cid).title.get(lg) or cid


def _instruction_title(iid: str, lg: str) -> str:
    return load_instruction(iid).title.get(lg) or iid


def _name(p: ConflictPanel, lg: str) -> str:
    return shown_name(p.entry_id, p.name, lg)


def _ordered(conditions: Sequence[str]) -> list[str]:
    known = [c for c in CHART_ORDER if c in conditions]
    return [*known, *(c for c in conditions if c not in known)]


# --- partial data ------------------------------------------------------------------------------


def eligible_counts(every: Sequence[ConflictPanel]) -> dict[tuple[str, str], int]:
    """(lang, condition) -> eligible questions, as any folder's coverage records it (the same
    data gives every entry the same count)."""
    out: dict[tuple[str, str], int] = {}
    for p in every:
        for rows in p.coverage.values():
            for c in rows:
                out.setdefault((c.lang, c.condition), c.eligible)
    return out


def coverage_counts(p: ConflictPanel, eligible: dict[tuple[str, str], int]) -> tuple[int, int]:
    """(answered, expected) over the whole panel (every instruction, condition and language)."""
    done = expected = 0
    for instruction, chosen in PANEL.items():
        rows = {(c.lang, c.condition): c for c in p.coverage.get(instruction, ())}
        for lang in LANGS:
            for cond in chosen or condition_ids():
                row = rows.get((lang, cond))
                expected += row.eligible if row else eligible.get((lang, cond), 0)
                done += row.answered if row else 0
    return done, expected


def partial_note(p: ConflictPanel, eligible: dict[tuple[str, str], int], lg: str) -> str:
    """A few words for an entry whose panel is not complete yet; empty when it is."""
    if p.complete():
        return ""
    done, expected = coverage_counts(p, eligible)
    return ui(lg, "conf.partial", name=_name(p, lg), done=done, expected=expected)


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
            add(p, cond, OFFICIAL, f"{_name(p, lg)}\n{short}")
        short = ui(lg, "conf.short.aware", cond=ui(lg, "conf.short.t1f1"))
        add(p, "t1f1", TRACK_INSTRUCTION, f"{_name(p, lg)}\n{short}")
    if not models:
        for p in floor:
            add(p, "t1f1", OFFICIAL, f"{_name(p, lg)}\n{ui(lg, 'conf.short.t1f1')}")
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


# --- first screen: the effects -----------------------------------------------------------------


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
            "model": Cell.link(_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
            "effect": Cell.text(effect_name(effect, lg), effect),
        }
        for metric in ("truthful", "misled"):
            for lang in (*LANGS, "zh-en"):
                key = f"{metric}_{lang.replace('-', '_')}"
                cells[key] = _effect_cell(p.effect(lang, effect, metric), lg)
        rows.append(Row(cells, css))
    return rows


def _effects_table(ctx: Context, prefix: str) -> str:
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


# --- one click away: every figure, the prior, the coverage, the conditions ----------------------


def _figures_table(ctx: Context, lang: str, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)
    ids = ("model", "condition", *SUMMARY, *LABELS, "n")

    def rows(p: ConflictPanel, css: str = "") -> list[Row]:
        out = []
        for instruction in p.instructions:
            held = [c for c in condition_ids() if p.figure(lang, c, "truthful", instruction)]
            for cond in _ordered(held):
                shown = condition_title(cond, lg)
                if instruction != OFFICIAL:
                    shown += f" · {_instruction_title(instruction, lg)}"
                cells = {
                    "model": Cell.link(_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
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


def _prior_table(ctx: Context, prefix: str) -> str:
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
                    "model": Cell.link(_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
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


def _coverage_table(ctx: Context, prefix: str) -> str:
    lg = ctx.lg
    models, floor = split_panels(ctx)

    def rows(p: ConflictPanel, css: str = "") -> list[Row]:
        out = []
        for instruction in p.instructions:
            for c in p.coverage.get(instruction, ()):
                shown = condition_title(c.condition, lg)
                if instruction != OFFICIAL:
                    shown += f" · {_instruction_title(instruction, lg)}"
                cells = {
                    "model": Cell.link(_name(p, lg), f"{prefix}models/{p.entry_id}.md"),
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


def conditions_list(lg: str) -> str:
    """Every condition as written: its title, purpose and passages in reading order."""
    items = []
    for cid in _ordered(condition_ids()):
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
    floor = entry_id in _baselines(ctx)
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
    parts.append(_effects_table(ctx, prefix))
    parts.append(f"\n## {ui(lg, 'conf.details_h')}\n")
    parts.append(
        _details(
            ui(lg, "conf.figures_summary"),
            "".join(_figures_table(ctx, lang, prefix) for lang in LANGS),
        )
    )
    parts.append(_details(ui(lg, "conf.prior_summary"), _prior_table(ctx, prefix)))
    parts.append(_details(ui(lg, "conf.coverage_summary"), _coverage_table(ctx, prefix)))
    parts.append(_details(ui(lg, "conf.conditions_h"), conditions_list(lg) + outcomes_list(lg)))
    parts.append(examples_section(ctx, prefix))
    parts.append(f"\n## {ui(lg, 'conf.method_h')}\n\n{ui(lg, 'conf.method')}\n")
    return "\n".join(parts)

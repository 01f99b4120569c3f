"""The instruction track's page, "Does the instruction decide?": which instruction makes which
model refuse, and what that costs on answerable questions. First screen: one sentence per
language and model, then a chart (refusal on rejection against accuracy on noise 0.0), then the
table; the instruction texts and the method one click away.

The figures are board.instructions' (computed once by the build, with the data, into
`SiteData.extra[PANELS]`); this page only lays them out. The model page's row and the
methodology section call `model_row` and `texts_section` from here (one home for both).
"""

from __future__ import annotations

from leaderboard.board.instructions import ModelPanel
from leaderboard.core.types import LANGS
from leaderboard.protocol.instructions import OFFICIAL, alternative_ids, load_instruction
from leaderboard.site.render.charts import Point, scatter
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc, pct, pct_ci, rate_html, signed_pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter, prefix_for, shown_name
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.instruction_panel import Figure

PATH = "instructions.md"
PANELS = "instruction_panels"  # SiteData.extra key: the build's list of board.ModelPanel
METRICS = (
    ("rejection", "refused"),
    ("rejection", "made_up"),
    ("rejection", "truthfulness"),
    ("noise", "accuracy"),
    ("noise", "over_refusal"),
    ("counterfactual", "error_detection"),
    ("counterfactual", "repeated_fake"),
)


def panels(ctx: Context) -> list[ModelPanel]:
    found = ctx.data.extra.get(PANELS)
    return list(found) if isinstance(found, list | tuple) else []


def _title(instruction: str, lg: str) -> str:
    return load_instruction(instruction).title.get(lg) or instruction


def _by(panel: ModelPanel) -> dict[tuple[str, str, str, str], Figure]:
    return {(f.lang, f.instruction, f.ability, f.metric): f for f in panel.figures}


def _answer(panel: ModelPanel, lang: str, lg: str) -> str:
    """The first screen's sentence for one model and language: the instruction that makes it
    refuse most and what that costs on the answerable questions."""
    by = _by(panel)
    official = by.get((lang, OFFICIAL, "rejection", "refused"))
    alts = [
        f
        for (lg_, ins, ab, m), f in by.items()
        if (lg_, ab, m) == (lang, "rejection", "refused") and ins != OFFICIAL
    ]
    if official is None or not alts:
        return ""
    name, lang_name = shown_name(panel.entry_id, panel.name, lg), ui(lg, f"lang.{lang}")
    best = max(alts, key=lambda f: (f.diff if f.diff is not None else f.value, f.instruction))
    if best.diff is None or best.diff <= 0:
        others = ui(lg, "sep.list").join(
            f"{_title(f.instruction, lg)} {pct(f.value, lg=lg)}%" for f in alts
        )
        return ui(
            lg,
            "instr.answer_none",
            lang=lang_name,
            model=name,
            official=pct(official.value, lg=lg),
            others=others,
        )
    acc = by.get((lang, best.instruction, "noise", "accuracy"))
    # RGB's instruction on the same questions (an alternative's questions are among its own)
    acc_off = None if acc is None or acc.diff is None else acc.value - acc.diff
    return ui(
        lg,
        "instr.answer_moves",
        lang=lang_name,
        model=name,
        title=_title(best.instruction, lg),
        refused=pct(best.value, lg=lg),
        official=pct(best.value - best.diff, lg=lg),
        diff=signed_pct(best.diff, lg),
        diff_ci=f"[{pct_ci(best.diff_ci, lg)}]" if best.diff_ci else "",
        n=best.n_paired,
        accuracy=pct(acc.value if acc else None, lg=lg),
        official_accuracy=pct(acc_off, lg=lg),
        n_acc=acc.n_paired if acc else 0,
    )


def _partial(panel: ModelPanel, lg: str) -> str:
    alts = [i for i in panel.instructions if i != OFFICIAL]
    expected = len(alts) * sum(panel.expected.values())
    done = sum(n for (ins, _, _), n in panel.answered.items() if ins != OFFICIAL)
    return "" if done >= expected else ui(lg, "instr.partial", done=done, expected=expected)


def _cell(f: Figure | None, lg: str) -> Cell:
    """A figure with its interval, and under it the paired difference from RGB's instruction;
    exported with both intervals' bounds."""
    if f is None:
        return Cell.missing(None)
    value: dict[str, object] = {
        "value": f.value,
        "ci_low": f.ci[0] if f.ci else None,
        "ci_high": f.ci[1] if f.ci else None,
    }
    html = rate_html(f.value, f.ci, lg)
    if f.diff is not None:
        # the difference and its interval on two short lines: seven such columns fit at 1400 px
        html += f'<span class="lb-ci">{esc(ui(lg, "instr.diff", diff=signed_pct(f.diff, lg)))}'
        if f.diff_ci:
            html += f"<br>[{esc(pct_ci(f.diff_ci, lg))}]"
        html += "</span>"
        value |= {
            "diff": f.diff,
            "diff_ci_low": f.diff_ci[0] if f.diff_ci else None,
            "diff_ci_high": f.diff_ci[1] if f.diff_ci else None,
        }
    return Cell(value, html, round(f.value, 6))


def _table(ctx: Context, lang: str, prefix: str) -> str:
    lg = ctx.lg
    ids = ("model", "instruction", *(m for _, m in METRICS), "n")
    cols = columns(lg, *(f"instr.{k}" for k in ids))
    rows = []
    for panel in panels(ctx):
        by = _by(panel)
        for ins in panel.instructions:
            if not any(k[:2] == (lang, ins) for k in by):
                continue
            ns = [
                by.get((lang, ins, a, "truthfulness"))
                for a in ("rejection", "noise", "counterfactual")
            ]
            cells = {
                "model": Cell.link(
                    shown_name(panel.entry_id, panel.name, lg),
                    f"{prefix}models/{panel.entry_id}.md",
                ),
                "instruction": Cell.text(_title(ins, lg), ins),
                **{m: _cell(by.get((lang, ins, a, m)), lg) for a, m in METRICS},
                "n": Cell.text(" / ".join("—" if f is None else str(f.n) for f in ns)),
            }
            rows.append(Row(cells))
    table = Table(
        id=f"instructions-{lang}",
        title=ui(lg, "instr.table_title", lang=ui(lg, f"lang.{lang}")),
        columns=cols,
        rows=tuple(rows),
        filterable=False,
        ui=lg,
    )
    return ctx.out.table(table, prefix)


def _chart(ctx: Context, lang: str, prefix: str) -> str:
    lg = ctx.lg
    points = []
    for panel in panels(ctx):
        by = _by(panel)
        for ins in panel.instructions:
            x = by.get((lang, ins, "rejection", "refused"))
            y = by.get((lang, ins, "noise", "accuracy"))
            if x is None or y is None:
                continue
            name = shown_name(panel.entry_id, panel.name, lg)
            points.append(Point(name, _title(ins, lg), x.value, y.value, x.ci, y.ci))
    if not points:
        return ""
    lang_name = ui(lg, f"lang.{lang}")
    args = (
        points,
        ui(lg, "instr.chart_title", lang=lang_name),
        ui(lg, "instr.chart_x"),
        ui(lg, "instr.chart_y"),
    )
    alt = ui(lg, "instr.chart_alt", lang=lang_name)
    return ctx.out.chart(f"instructions-{lang}", scatter, args, alt, prefix, lg)


def definitions_list(lg: str) -> str:
    """The panel's metrics, defined (the methodology page)."""
    items = "".join(
        f"<li><strong>{esc(ui(lg, f'instr.col.{m}'))}</strong>: "
        f"{esc(ui(lg, f'instr.tip.{m}'))}</li>"
        for _, m in METRICS
    )
    return f'\n<ul class="lb-defs">{items}</ul>\n'


def texts_section(lg: str) -> str:
    """Every instruction's purpose, change and texts in both RGB languages (collapsed)."""
    parts = [f"<details><summary>{esc(ui(lg, 'instr.texts_summary'))}</summary>\n"]
    for iid in (OFFICIAL, *alternative_ids()):
        ins = load_instruction(iid)
        parts.append(
            f"<h4>{esc(ins.title[lg])} <code>{esc(iid)}</code></h4>"
            f"<p>{esc(ins.purpose[lg])} {esc(ui(lg, 'instr.changes'))} {esc(ins.changes[lg])}</p>"
        )
        for lang in LANGS:
            system = ins.system(lang)
            # the prompt is quoted in its own language; "no system message" is the page's
            shown = (
                esc(ui(lg, "instr.no_system"))
                if system is None
                else f'<span class="lb-quote" lang="{lang}">{esc(system)}</span>'
            )
            parts.append(
                f"<p><strong>{esc(ui(lg, f'lang.{lang}'))} · {esc(ui(lg, 'instr.system'))}</strong>"
                f"<br>{shown}</p>"
            )
            if ins.user_preamble(lang):
                preamble = esc(ins.user_preamble(lang))
                parts.append(
                    f"<p><strong>{esc(ui(lg, 'instr.preamble'))}</strong><br>"
                    f'<span class="lb-quote" lang="{lang}">{preamble}</span></p>'
                )
    parts.append("</details>\n")
    return "\n".join(parts)


def model_row(ctx: Context, entry_id: str, prefix: str) -> str:
    """The model page's one row: refusal on rejection under each instruction measured, per
    language, linking to this page; empty when the model has no alternative measured."""
    lg = ctx.lg
    panel = next((p for p in panels(ctx) if p.entry_id == entry_id), None)
    if panel is None:
        return ""
    by = _by(panel)
    lines = []
    for lang in LANGS:
        shown = [
            f"{_title(ins, lg)} {pct(f.value, lg=lg)}% (n = {f.n})"
            for ins in panel.instructions
            if (f := by.get((lang, ins, "rejection", "refused"))) is not None
        ]
        if len(shown) > 1:
            lines.append(
                f"<li>{esc(ui(lg, 'instr.model_row', lang=ui(lg, f'lang.{lang}')))} "
                f"{esc(ui(lg, 'sep.list').join(shown))}</li>"
            )
    if not lines:
        return ""
    link = f'<a href="{prefix}{PATH}">{esc(ui(lg, "instr.model_link"))}</a>'
    return f'\n<ul class="lb-instructions">{"".join(lines)}<li>{link}</li></ul>\n'


def instructions_page(ctx: Context) -> str:
    lg, prefix = ctx.lg, prefix_for(PATH)
    parts = [
        front_matter(title=ui(lg, "instr.h1")),
        f"# {ui(lg, 'instr.h1')}\n",
        ui(lg, "instr.lead") + "\n",
    ]
    if not panels(ctx):
        return "\n".join([*parts, ui(lg, "instr.none") + "\n", texts_section(lg)])
    answers = [a for lang in LANGS for p in panels(ctx) if (a := _answer(p, lang, lg))]
    parts.append("\n".join(f"- {esc(a)}" for a in answers) + "\n")
    partial = [
        esc(f"{shown_name(p.entry_id, p.name, lg)}: {t}")
        for p in panels(ctx)
        if (t := _partial(p, lg))
    ]
    if partial:
        parts.append('<p class="lb-note">' + "<br>".join(partial) + "</p>\n")
    for lang in LANGS:
        parts.append(_chart(ctx, lang, prefix))
        parts.append(_table(ctx, lang, prefix))
    sens = [
        ui(
            lg,
            "instr.sensitivity",
            model=shown_name(p.entry_id, p.name, lg),
            lang=ui(lg, f"lang.{s.lang}"),
            range=f"{100 * s.range:.1f}",
            k=s.instructions,
            n=s.n,
            low=pct(s.low, lg=lg),
            low_title=_title(s.low_instruction, lg),
            high=pct(s.high, lg=lg),
            high_title=_title(s.high_instruction, lg),
        )
        for p in panels(ctx)
        for s in p.sensitivity
    ]
    if sens:
        parts.append(f"\n## {ui(lg, 'instr.sensitivity_h')}\n")
        parts.append("\n".join(f"- {esc(s)}" for s in sens) + "\n")
    parts.append(f"\n## {ui(lg, 'instr.texts_h')}\n")
    parts.append(texts_section(lg))
    parts.append(f"\n## {ui(lg, 'instr.method_h')}\n\n{esc(ui(lg, 'instr.method'))}\n")
    return "\n".join(parts)

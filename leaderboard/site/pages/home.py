"""The ranking pages: the home page ranks by the strict scores (the ranked metric), with the
reference (rgb) overall beside every row; a second page orders the same entries by the reference
scores, with the paper's reported numbers (never ranked). On both, the trivial baselines (scripted
answer policies) sit in a band under the ranking and are never ranked; an entry without an overall
score (not every ability measured in full on official data) is listed unranked with the reason.
"""

from __future__ import annotations

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import (
    coverage,
    is_trivial_baseline,
    rank_ranges,
    score_entry,
)
from leaderboard.board.reported import frac
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.pages.conflicts.page import home_link as conflicts_link
from leaderboard.site.pages.cost_section import cost_section
from leaderboard.site.pages.releases import cite_section
from leaderboard.site.pages.trust_columns import trust_cells, trust_columns
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.facts import with_facts
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import (
    Context,
    badge,
    definitions,
    front_matter,
    model_cell,
    prefix_for,
    reported_cell,
)
from leaderboard.site.render.reasons import joined
from leaderboard.site.render.tables import Cell, Column, Row, Table

RANKED_MODE = "strict"
OTHER_MODE = {"strict": "rgb", "rgb": "strict"}
REPORTED = (
    "noise",
    "rej",
    "integration",
    "ed",
    "cr",
)  # the paper's table: render.columns reported.*


def _ranking_columns(
    defs: dict[str, str], lang: str, parts: tuple[str, ...], mode: str, lg: str = DEFAULT
) -> list[Column]:
    """The columns in interface language `lg` (the ability definitions, from the results files,
    stay as written there)."""
    other = OTHER_MODE[mode]
    per_lang = lang != "all"
    cols = [
        *columns(lg, "rank.rank", "col.model"),
        column("rank.overall", lg, definition=defs.get("overall")),
    ]
    # per language, whom to trust beside how often right; the rest one click away (extra)
    cols += trust_columns(lg) if per_lang else []
    # the combined table keeps rank, model and overall on a phone; the rest is one tap away
    cols += [
        column("rank.coverage", lg, narrow=True),
        column(
            "rank.overall_other",
            lg,
            extra=per_lang,
            narrow=not per_lang,
            mode=ui(lg, f"modecode.{other}"),
            mode_name=ui(lg, f"mode.{other}"),
        ),
    ]
    cols += [
        column(
            f"rank.{p}",
            lg,
            definition=defs.get(p) if per_lang else None,
            extra=per_lang,
            narrow=not per_lang,
        )
        for p in parts
    ]
    cols += [
        column("rank.n", lg, extra=True)
    ]  # then the model's facts and costs (render.facts.with_facts)
    return cols


def _coverage_cell(s: Entry, lang: str, mode: str, lg: str = DEFAULT) -> tuple[Cell, bool]:
    """The coverage cell and whether the model's results are partial for this table."""
    cov = coverage(s.results, None if lang == "all" else lang, mode)
    cov_html = esc(pct(cov.fraction, 0) + "%")
    if cov.partial:
        cov_html += " " + badge("partial", ui(lg, "badge.partial"), ui(lg, "badge.partial_tip"))
    cell = Cell(
        {
            "value": round(cov.fraction, 6),
            "n": cov.n,
            "expected": cov.expected,
            "partial": cov.partial,
        },
        cov_html,
        round(cov.fraction, 6),
    )
    return cell, cov.partial


def _score_cell(e: ScoreEntry | None) -> Cell:
    """A score with its CI, or "—" with the reason it is missing."""
    if e is None:
        return Cell.missing("not measured")
    if e.value is None:
        return Cell.missing(e.note)
    return Cell.score(e)


def _ranking_row(
    s: Entry,
    label: str,
    best: int | None,
    lang: str,
    mode: str,
    parts: tuple[str, ...],
    prefix: str,
    lg: str = DEFAULT,
) -> Row:
    # a baseline is labelled as such in its band; "unverified" is for entries that claim a model
    unverified = () if is_trivial_baseline(s.results) else s.unverified
    rank_html = esc(ui(lg, "rank.baseline") if label == "baseline" else label)
    if unverified:
        label = "unverified"
        rank_html = badge("unverified", ui(lg, "badge.unverified"), joined(lg, list(unverified)))
    cells: dict[str, Cell] = {
        "rank": Cell(label, rank_html, 10_000 if best is None else best),
        "model": model_cell(s, prefix, lang, lg=lg),
    }
    for p in ("overall", *parts):
        e = (
            score_entry(s.results, lang, p, mode)
            if p not in LANGS
            else score_entry(s.results, p, "overall", mode)
        )
        cells[p] = _score_cell(e)
    cells["overall_other"] = _score_cell(score_entry(s.results, lang, "overall", OTHER_MODE[mode]))
    overall = score_entry(s.results, lang, "overall", mode)
    cells["n"] = Cell.text(
        overall.n_questions if overall else None, overall.n_questions if overall else -1
    )
    cells["coverage"], partial = _coverage_cell(s, lang, mode, lg)
    if lang != "all":
        cells.update(trust_cells(s, lang, mode))
    if is_trivial_baseline(s.results):
        return Row(cells, "lb-baseline-row")
    return Row(cells, "lb-partial-row" if partial else "")


def _overall_value(s: Entry, lang: str, mode: str):
    e = score_entry(s.results, lang, "overall", mode)
    return None if e is None else e.value, None if e is None else e.ci


def ranking_table(data: SiteData, lang: str, mode: str, prefix: str, lg: str = DEFAULT) -> Table:
    """Models ranked by their overall score of `lang` (unranked, last, where it is missing or the
    entry is unverified); the trivial baselines in the band under them, never ranked."""
    models = [s for s in data.submissions if not is_trivial_baseline(s.results)]
    baselines = [s for s in data.submissions if is_trivial_baseline(s.results)]
    subs = {s.id: s for s in models}
    items = []
    for s in models:
        value = _overall_value(s, lang, mode)[0]
        items.append((s.id, None if s.unverified else value))
    paired = data.comparisons.significance(lang, mode) if data.comparisons else {}
    # per language: one column per ability; combined: the two languages' overall scores
    parts = tuple(ABILITIES if lang != "all" else LANGS)
    cols = _ranking_columns(definitions(data, mode, lg), lang, parts, mode, lg)
    rows = [
        _ranking_row(subs[r.key], r.label, r.best, lang, mode, parts, prefix, lg)
        for r in rank_ranges(items, paired)
    ]
    band = sorted(baselines, key=lambda s: (-(_overall_value(s, lang, mode)[0] or -1.0), s.id))
    note = ui(lg, "ranking.note") + _not_compared_note(data, items, paired, lg)
    ranked = ui(lg, "ranking.ranked" if mode == RANKED_MODE else "ranking.reference")
    table = Table(
        id=f"ranking-{lang}-{mode}",
        title=ui(
            lg,
            "ranking.title",
            ranked=ranked,
            lang=ui(lg, f"lang.{lang}"),
            mode=ui(lg, f"mode.{mode}"),
        ),
        columns=tuple(cols),
        rows=tuple(rows),
        baseline_rows=tuple(
            _ranking_row(s, "baseline", None, lang, mode, parts, prefix, lg) for s in band
        ),
        note=note,
        ui=lg,
    )
    return with_facts(table, data, lg)


def _not_compared_note(
    data: SiteData,
    items: list[tuple[str, float | None]],
    paired: dict[tuple[str, str], int],
    lg: str,
) -> str:
    """The sentence "Rank ranges not narrowed for X: …" when a ranked entry lacks a paired
    comparison with another ranked one (answers or a data file missing at build time), else "":
    without it a wide range that only means "not compared" would read as a close race. Why it
    was not compared (a local path, often) is in the build's output, not on the page."""
    if data.comparisons is None:
        return ""
    ranked = [k for k, v in items if v is not None]
    lacking = [
        a
        for a in ranked
        if any(b != a and (a, b) not in paired and (b, a) not in paired for b in ranked)
    ]
    if not lacking:
        return ""
    names = {s.id: s.results.display_name for s in data.submissions}
    models = ui(lg, "sep.list").join(names[k] for k in lacking)
    return ui(lg, "sep.sentence") + ui(lg, "ranking.not_compared", models=models)


def _reported_rows(data: SiteData, lg: str = DEFAULT) -> list[Row]:
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
                    "model": reported_cell(m, rep.file.source.citation, lg),
                    "lang": Cell.text(lang),
                    "noise": Cell.rate(frac(sum(noise) / len(noise)) if noise else None),
                    "rej": Cell.rate(frac(lr.rejection.rej) if lr.rejection else None),
                    "integration": Cell.rate(frac(sum(integ) / len(integ)) if integ else None),
                    "ed": Cell.rate(frac(cf.ed) if cf else None),
                    "cr": Cell.rate(frac(cf.cr) if cf else None),
                }
                rows.append(Row(cells, "lb-reported-row"))
    return rows


def reported_table(data: SiteData, prefix: str, lg: str = DEFAULT) -> Table | None:
    """The paper's headline numbers, in their own table: not comparable, never ranked."""
    rows = _reported_rows(data, lg)
    if not rows:
        return None
    table = Table(
        id="reported-paper",
        title=ui(lg, "reported.title"),
        # on a phone: model, language and the first two abilities; the rest one tap away
        columns=(
            *columns(lg, "col.model", "col.lang", *(f"reported.{k}" for k in REPORTED[:2])),
            *(column(f"reported.{k}", lg, narrow=True) for k in REPORTED[2:]),
        ),
        rows=(),
        reported_rows=tuple(rows),
        note=ui(lg, "reported.note"),
        ui=lg,
    )
    return with_facts(table, data, lg)


def home_page(ctx: Context, mode: str = RANKED_MODE) -> str:
    """The home page (mode strict, the ranking) or the reference-mode page (mode rgb), with its
    interface in language `ctx.lg` (the same numbers in every language)."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    ranked = mode == RANKED_MODE
    path = "index.md" if ranked else "ranking-rgb.md"
    prefix = prefix_for(path)
    other = ui(lg, "home.other_ranked" if ranked else "home.other_reference")
    title = ui(lg, "home.title" if ranked else "home.title_reference")
    parts = [
        front_matter(search_exclude=not ranked) + f"# {title}\n",
        "\n" + ui(lg, "home.intro") if ranked else "",
        other + "\n",
    ]
    if ranked:
        parts.append(conflicts_link(ctx, prefix))
    if not data.submissions:
        parts.append("\n" + ui(lg, "home.empty") + "\n")
    for lang in (*LANGS, "all"):
        parts.append(f"\n## {ui(lg, f'lang.{lang}')}\n")
        parts.append(out.table(ranking_table(data, lang, mode, prefix, lg), prefix))
    if ranked:
        parts.append(cost_section(ctx, prefix))
        rep = reported_table(data, prefix, lg)
        if rep is not None:
            parts.append(f"\n## {ui(lg, 'home.reported_heading')}\n")
            parts.append(ui(lg, "home.reported_text") + "\n")
            parts.append(out.table(rep, prefix))
        parts.append("\n" + ui(lg, "home.how_to_submit"))
        parts.append(cite_section(ctx))
    return "\n".join(parts)

"""The zh versus en page: per model and ability, both scores and their difference with a CI."""

from __future__ import annotations

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import Difference, score_entry, zh_minus_en
from leaderboard.core.types import ABILITIES
from leaderboard.site.render import charts
from leaderboard.site.render.page import (
    ABILITY_NAMES,
    MODE_NAMES,
    Output,
    front_matter,
    model_cell,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table

INTRO = (
    "For each model and ability: the zh score, the en score and the difference zh − en with a "
    "95% CI. The zh and en questions are different sets, so the two estimates are independent; "
    "the difference CI is a percentile bootstrap: replicate k of zh minus replicate k of en, "
    "each language's questions resampled with its own draws (the same cluster bootstrap as "
    "every other CI here). A difference whose CI excludes 0 names the language the model holds "
    "up better in.\n"
)

DIFF_TIP = "Difference in points, 95% bootstrap CI"


def _diff_cell(d: Difference | None) -> Cell:
    return Cell.rate(d.value if d else None, d.ci if d else None)


def _diff_row(s: Entry, a: str, mode: str, prefix: str) -> Row | None:
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
            "model": model_cell(s, prefix, compact=True),
            "ability": Cell.text(ABILITY_NAMES[a]),
            "zh": Cell.rate(zh.value if zh else None, zh.ci if zh else None),
            "en": Cell.rate(en.value if en else None, en.ci if en else None),
            "diff": _diff_cell(d),
            "better": Cell.text(better),
        }
    )


def _diff_table(data: SiteData, mode: str, prefix: str) -> Table:
    rows = []
    for s in sorted(data.submissions, key=lambda s: s.id):
        for a in ("overall", *ABILITIES):
            row = _diff_row(s, a, mode, prefix)
            if row is not None:
                rows.append(row)
    return Table(
        id=f"zh-vs-en-{mode}",
        title=f"zh versus en, {MODE_NAMES[mode]}",
        columns=(
            Column("model", "Model"),
            Column("ability", "Ability"),
            Column("zh", "zh", True),
            Column("en", "en", True),
            Column("diff", "zh − en", True, DIFF_TIP),
            Column("better", "Holds up better in"),
        ),
        rows=tuple(rows),
        note="Scores and differences in percentage points.",
    )


def _dumbbell_charts(data: SiteData, out: Output, mode: str, prefix: str) -> list[str]:
    figures = []
    for a in ("overall", *ABILITIES):
        pairs = []
        for s in sorted(data.submissions, key=lambda s: s.id):
            zh = score_entry(s.results, "zh", a, mode)
            en = score_entry(s.results, "en", a, mode)
            pairs.append(charts.Pair(s.name, zh.value if zh else None, en.value if en else None))
        if any(p.zh is not None or p.en is not None for p in pairs):
            alt = (
                f"Dumbbell chart: {ABILITY_NAMES[a]} score in zh (red dot) and en (blue "
                f"square) for each model, reference mode"
            )
            args = (pairs, f"{ABILITY_NAMES[a]}: zh vs en")
            figures.append(out.chart(f"zh-vs-en-{a}", charts.dumbbell, args, alt, prefix))
    return figures


def zh_vs_en_page(data: SiteData, out: Output) -> str:
    path = "zh-vs-en.md"
    prefix = prefix_for(path)
    parts = [front_matter() + "# Chinese versus English\n", INTRO]
    for mode in ("rgb", "strict"):
        parts.append(f"\n## {MODE_NAMES[mode].capitalize()}\n")
        parts.append(out.table(_diff_table(data, mode, prefix), prefix))
        if mode == "rgb":
            parts += _dumbbell_charts(data, out, mode, prefix)
    return "\n".join(parts)

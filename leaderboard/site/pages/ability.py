"""One page per language and ability: per-noise-rate tables in both modes, curves, reported rows,
and the trivial baselines in a band under the measured rows (never ranked, left out of charts)."""

from __future__ import annotations

from leaderboard.board.load import SiteData
from leaderboard.board.ranking import cells_for, cliff_marks, is_trivial_baseline
from leaderboard.board.reported import frac
from leaderboard.core.types import DEFAULT_NOISE_RATES
from leaderboard.site.pages.decision_tables import (
    counterfactual_table,
    ordered,
    rejection_table,
    reported_langs,
    score_cell,
)
from leaderboard.site.render import charts
from leaderboard.site.render.fmt import esc, rate_key
from leaderboard.site.render.page import (
    ABILITY_NAMES,
    CLIFF_ALT,
    LANG_NAMES,
    MODE_NAMES,
    Output,
    front_matter,
    model_cell,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table

INTRO = {
    "noise": "Accuracy when a share of the passages (the noise rate) is irrelevant to the "
    "question. The curve shows how fast accuracy falls as noise grows.",
    "rejection": "Every passage is noise (noise rate 1.0): the right behaviour is to refuse. "
    "Rejection rate in both modes; over-refusal is refusing when the answer *is* in the passages "
    "(noise-robustness instances). The strict score is the refusal rate minus the over-refusal "
    "rate (Youden's J, floored at 0), so refusing everything scores 0; instances whose noise "
    "passages hold the answer are left out of it and shown apart.",
    "integration": "The answer needs facts from several passages; accuracy per noise rate.",
    "counterfactual": "The passages contain a false fact. ED (error detection) is the share of "
    "answers that flag the error; CR (error correction) the share of detected errors that were "
    "also corrected; CR (all) corrected-and-detected over all questions. The strict score "
    "subtracts the false alarms (error claims on noise instances, whose passages are not wrong) "
    "from ED and credits only true answers that do not refuse.",
}


def _rates(data: SiteData, lang: str, ability: str) -> list[float]:
    seen = {
        round(c.noise_rate, 3)
        for s in data.submissions
        for c in s.results.cells
        if c.lang == lang and c.ability == ability
    }
    return sorted(seen | set(DEFAULT_NOISE_RATES[ability]))


def _curve_table(
    data: SiteData, lang: str, ability: str, mode: str, prefix: str, out: Output
) -> tuple[Table, list[charts.Series]]:
    rates = _rates(data, lang, ability)
    cols = [Column("model", "Model")]
    cols += [
        Column(
            f"acc_{rate_key(r)}",
            f"Acc. @ {rate_key(r)}",
            True,
            f"Accuracy at noise rate {rate_key(r)}",
        )
        for r in rates
    ]
    cols += [
        Column("score", "Score", True, "Ability score (see methodology)"),
        Column("n", "n", True, "Instances scored (all noise rates)"),
    ]
    rows, band, series = [], [], []
    for s in ordered(data, lang, ability, mode):
        baseline = is_trivial_baseline(s.results)
        cells = {c.noise_rate: c for c in cells_for(s.results, lang, ability, mode)}
        row = {"model": model_cell(s, prefix, lang)}
        for r in rates:
            c = next((c for nr, c in cells.items() if abs(nr - r) < 1e-9), None)
            row[f"acc_{rate_key(r)}"] = Cell.rate(
                c.accuracy if c else None, c.accuracy_ci if c else None
            )
        row["score"] = score_cell(s, lang, ability, mode)
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
        for cell, lr in reported_langs(data, lang):
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
        title=f"{ABILITY_NAMES[ability]}, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        baseline_rows=tuple(band),
        reported_rows=tuple(reported_rows),
        note="Accuracy in %, 95% CI underneath.",
    )
    return table, series


def ability_page(data: SiteData, lang: str, ability: str, out: Output) -> str:
    path = f"abilities/{lang}-{ability}.md"
    prefix = prefix_for(path)
    parts = [
        front_matter() + f"# {ABILITY_NAMES[ability]} — {LANG_NAMES[lang]}\n",
        INTRO[ability] + "\n",
    ]
    if data.reported:
        parts.append(
            "Rows marked *reported in paper* are the RGB paper's numbers (original data, "
            "sampled decoding): shown for context, below the measured rows, never ranked.\n"
        )
    if ability in ("noise", "integration"):
        for mode in ("rgb", "strict"):
            parts.append(f"\n## {MODE_NAMES[mode].capitalize()}\n")
            table, series = _curve_table(data, lang, ability, mode, prefix, out)
            parts.append(out.table(table, prefix))
            if series:
                alt = (
                    f"Line chart: accuracy (%) against noise rate for each model, "
                    f"{ABILITY_NAMES[ability].lower()}, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}"
                    + (
                        "; dashed grey lines are reported in the paper"
                        if any(s.reported for s in series)
                        else ""
                    )
                    + (CLIFF_ALT if ability == "noise" else "")
                )
                args = (series, f"{ABILITY_NAMES[ability]} ({lang}, {mode})")
                name = f"{lang}-{ability}-{mode}"
                parts.append(out.chart(name, charts.noise_curve, args, alt, prefix))
    elif ability == "rejection":
        table = rejection_table(data, lang, prefix)
        parts.append(out.table(table, prefix))
        measured = [r for r in table.rows]
        if measured:
            labels = [r.cells["model"].value for r in measured]
            values = [r.cells["rej_rgb"].value["value"] for r in measured]
            alt = f"Bar chart: rejection rate (%) per model, {LANG_NAMES[lang]}, reference mode"
            args = (labels, values, f"Rejection rate ({lang}, rgb)", "rejection rate (%)")
            parts.append(out.chart(f"{lang}-rejection", charts.bars, args, alt, prefix))
    else:
        for mode in ("rgb", "strict"):
            parts.append(f"\n## {MODE_NAMES[mode].capitalize()}\n")
            table = counterfactual_table(data, lang, mode, prefix)
            parts.append(out.table(table, prefix))
            if mode == "rgb" and table.rows:
                labels = [r.cells["model"].value for r in table.rows]
                values = [r.cells["ed"].value["value"] for r in table.rows]
                alt = (
                    f"Bar chart: error detection rate (%) per model, {LANG_NAMES[lang]}, "
                    "reference mode"
                )
                args = (labels, values, f"Error detection ({lang}, rgb)", "ED (%)")
                parts.append(out.chart(f"{lang}-counterfactual", charts.bars, args, alt, prefix))
    parts.append(
        f'\n<p class="lb-note"><a href="{esc(prefix)}instances/index.html">Browse the '
        "instances and every model's answers</a>.</p>\n"
    )
    return "\n".join(parts)

"""One page per language and ability: per-noise-rate tables in both modes, curves, reported rows,
and the trivial baselines in a band under the measured rows (never ranked, left out of charts)."""

from __future__ import annotations

from collections.abc import Callable

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import cells_for, is_trivial_baseline, score_entry
from leaderboard.board.reported import ReportedLang, frac
from leaderboard.core.types import DEFAULT_NOISE_RATES
from leaderboard.site.render import charts
from leaderboard.site.render.fmt import esc, rate_key
from leaderboard.site.render.page import (
    ABILITY_NAMES,
    LANG_NAMES,
    MODE_NAMES,
    Output,
    front_matter,
    model_cell,
    prefix_for,
    reported_cell,
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


def _order(data: SiteData, lang: str, ability: str, mode: str) -> list[Entry]:
    def key(s: Entry):
        e = score_entry(s.results, lang, ability, mode)
        v = None if e is None else e.value
        return (v is None, -(v or 0.0), s.id)

    return [
        s for s in sorted(data.submissions, key=key) if cells_for(s.results, lang, ability, mode)
    ]


def _split(subs: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(models, trivial baselines), each in the given order."""
    return (
        [s for s in subs if not is_trivial_baseline(s.results)],
        [s for s in subs if is_trivial_baseline(s.results)],
    )


def _score_cell(s: Entry, lang: str, ability: str, mode: str, metric: str = "score") -> Cell:
    e = score_entry(s.results, lang, ability, mode, metric)
    if e is None or e.value is None:
        return Cell.missing(None if e is None else e.note)
    return Cell.rate(e.value, e.ci)


def _rates(data: SiteData, lang: str, ability: str) -> list[float]:
    seen = {
        round(c.noise_rate, 3)
        for s in data.submissions
        for c in s.results.cells
        if c.lang == lang and c.ability == ability
    }
    return sorted(seen | set(DEFAULT_NOISE_RATES[ability]))


def _reported(data: SiteData, lang: str) -> list[tuple[Cell, ReportedLang]]:
    out = []
    for rep in data.reported:
        for m in rep.file.models:
            lr = m.lang(lang)
            if lr is not None:
                out.append((reported_cell(m, rep.file.source.citation), lr))
    return out


def _reported_rows(
    data: SiteData, lang: str, cells: Callable[[ReportedLang], dict[str, Cell] | None]
) -> tuple[Row, ...]:
    """The paper's rows of a table, labelled as reported; `cells` gives a model's cells beside
    its name, or None where the paper has no numbers for that table."""
    rows = []
    for cell, lr in _reported(data, lang):
        values = cells(lr)
        if values is not None:
            rows.append(Row({"model": cell, **values}, "lb-reported-row"))
    return tuple(rows)


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
    for s in _order(data, lang, ability, mode):
        baseline = is_trivial_baseline(s.results)
        cells = {c.noise_rate: c for c in cells_for(s.results, lang, ability, mode)}
        row = {"model": model_cell(s, prefix, lang)}
        for r in rates:
            c = next((c for nr, c in cells.items() if abs(nr - r) < 1e-9), None)
            row[f"acc_{rate_key(r)}"] = Cell.rate(
                c.accuracy if c else None, c.accuracy_ci if c else None
            )
        row["score"] = _score_cell(s, lang, ability, mode)
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
            )
        )
    reported_rows = []
    if mode == "rgb":
        for cell, lr in _reported(data, lang):
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


def _reported_rejection(lr: ReportedLang) -> dict[str, Cell] | None:
    rej = lr.rejection
    if rej is None:
        return None
    return {"rej_rgb": Cell.rate(frac(rej.rej)), "rej_star": Cell.rate(frac(rej.rej_star))}


def _reported_counterfactual(lr: ReportedLang) -> dict[str, Cell] | None:
    cf = lr.counterfactual
    if cf is None:
        return None
    return {
        "accuracy": Cell.rate(frac(cf.acc_doc)),
        "ed": Cell.rate(frac(cf.ed)),
        "cr": Cell.rate(frac(cf.cr)),
        "acc_nodoc": Cell.rate(frac(cf.acc)),
    }


def _rejection_row(s: Entry, lang: str, prefix: str) -> Row:
    row = {"model": model_cell(s, prefix, lang)}
    for mode in ("rgb", "strict"):
        cs = cells_for(s.results, lang, "rejection", mode)
        c = cs[0] if cs else None
        row[f"rej_{mode}"] = Cell.rate(
            c.rejection_rate if c else None, c.rejection_rate_ci if c else None
        )
        noise = [
            c for c in cells_for(s.results, lang, "noise", mode) if c.over_refusal_rate is not None
        ]
        total = sum(c.n for c in noise)
        over = sum(c.over_refusal_rate * c.n for c in noise) / total if total else None
        row[f"over_{mode}"] = Cell.rate(over)
    row["score_strict"] = _score_cell(s, lang, "rejection", "strict")
    shown = score_entry(s.results, lang, "rejection", "strict", "refusal_answer_shown")
    row["shown"] = Cell.rate(shown.value if shown else None)
    row["n_shown"] = Cell.text(
        shown.n_questions if shown else None, shown.n_questions if shown else -1
    )
    cs = cells_for(s.results, lang, "rejection", "rgb")
    row["n"] = Cell.text(cs[0].n if cs else None, cs[0].n if cs else -1)
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def _rejection_table(data: SiteData, lang: str, prefix: str) -> Table:
    cols = (
        Column("model", "Model"),
        Column("rej_rgb", "Rejection (rgb)", True, "Refusal rate, reference phrase match"),
        Column("rej_strict", "Rejection (strict)", True, "Refusal rate, strict mode"),
        Column(
            "over_rgb",
            "Over-refusal (rgb)",
            True,
            "Refusals on noise-robustness instances (answer present), all noise rates",
        ),
        Column("over_strict", "Over-refusal (strict)", True, "As above, strict mode"),
        Column(
            "score_strict",
            "Score (strict, ranked)",
            True,
            "Refusal rate at noise 1.0 minus over-refusal rate (Youden's J), floored at 0",
        ),
        Column(
            "shown",
            "Refusal where the answer is shown",
            True,
            "Instances whose noise passages hold the answer (data audit): left out of the score",
        ),
        Column("n_shown", "n shown", True, "How many such instances"),
        Column("rej_star", "Rej* (paper only)", True, "Refusal judged by ChatGPT in the paper"),
        Column("n", "n", True),
    )
    models, baselines = _split(_order(data, lang, "rejection", "strict"))
    return Table(
        id=f"{lang}-rejection",
        title=f"Negative rejection, {LANG_NAMES[lang]}",
        columns=cols,
        rows=tuple(_rejection_row(s, lang, prefix) for s in models),
        baseline_rows=tuple(_rejection_row(s, lang, prefix) for s in baselines),
        reported_rows=_reported_rows(data, lang, _reported_rejection),
        note="Rates in %, 95% CI underneath.",
    )


def _counterfactual_row(s: Entry, lang: str, mode: str, prefix: str) -> Row:
    c = cells_for(s.results, lang, "counterfactual", mode)[0]
    fa = score_entry(s.results, lang, "counterfactual", mode, "ed_false_alarm")
    row = {
        "model": model_cell(s, prefix, lang),
        "accuracy": Cell.rate(c.accuracy, c.accuracy_ci),
        "ed": Cell.rate(c.ed, c.ed_ci),
        "fa": Cell.rate(fa.value if fa else None, fa.ci if fa else None),
        "cr": Cell.rate(c.cr, c.cr_ci),
        "cr_all": Cell.rate(c.cr_all),
        "score": _score_cell(s, lang, "counterfactual", mode),
        "n": Cell.text(c.n, c.n),
    }
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def _counterfactual_table(data: SiteData, lang: str, mode: str, prefix: str) -> Table:
    cols = (
        Column("model", "Model"),
        Column("accuracy", "Accuracy", True, "Correct answers despite the false passages"),
        Column("ed", "ED", True, "Error detection rate"),
        Column(
            "fa",
            "Error claims on noise instances",
            True,
            "False-alarm rate: error claims where no passage is false (strict mode)",
        ),
        Column("cr", "CR", True, "Corrected / detected (reference definition)"),
        Column("cr_all", "CR (all)", True, "Corrected and detected / all questions"),
        Column("score", "Score", True, "Ability score (see methodology)"),
        Column("acc_nodoc", "Acc. without docs (paper only)", True),
        Column("n", "n", True),
    )
    models, baselines = _split(_order(data, lang, "counterfactual", mode))
    return Table(
        id=f"{lang}-counterfactual-{mode}",
        title=f"Counterfactual robustness, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=cols,
        rows=tuple(_counterfactual_row(s, lang, mode, prefix) for s in models),
        baseline_rows=tuple(_counterfactual_row(s, lang, mode, prefix) for s in baselines),
        reported_rows=_reported_rows(data, lang, _reported_counterfactual) if mode == "rgb" else (),
        note="Rates in %, 95% CI underneath.",
    )


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
                )
                args = (series, f"{ABILITY_NAMES[ability]} ({lang}, {mode})")
                name = f"{lang}-{ability}-{mode}"
                parts.append(out.chart(name, charts.noise_curve, args, alt, prefix))
    elif ability == "rejection":
        table = _rejection_table(data, lang, prefix)
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
            table = _counterfactual_table(data, lang, mode, prefix)
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

"""The ability pages' shared row helpers and their decision tables (rejection, counterfactual):
both modes side by side, the strict score with its terms, the trivial baselines in a band under the
measured rows and the paper's reported rows last."""

from __future__ import annotations

from collections.abc import Callable

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import cells_for, is_trivial_baseline, score_entry
from leaderboard.board.reported import ReportedLang, frac
from leaderboard.site.render.page import (
    LANG_NAMES,
    MODE_NAMES,
    judged_cell,
    model_cell,
    paper_judged_cell,
    reported_cell,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table


def ordered(data: SiteData, lang: str, ability: str, mode: str) -> list[Entry]:
    def key(s: Entry):
        e = score_entry(s.results, lang, ability, mode)
        v = None if e is None else e.value
        return (v is None, -(v or 0.0), s.id)

    return [
        s for s in sorted(data.submissions, key=key) if cells_for(s.results, lang, ability, mode)
    ]


def split_baselines(subs: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(models, trivial baselines), each in the given order."""
    return (
        [s for s in subs if not is_trivial_baseline(s.results)],
        [s for s in subs if is_trivial_baseline(s.results)],
    )


def score_cell(s: Entry, lang: str, ability: str, mode: str, metric: str = "score") -> Cell:
    e = score_entry(s.results, lang, ability, mode, metric)
    if e is None or e.value is None:
        return Cell.missing(None if e is None else e.note)
    return Cell.rate(e.value, e.ci)


def reported_langs(data: SiteData, lang: str) -> list[tuple[Cell, ReportedLang]]:
    out = []
    for rep in data.reported:
        for m in rep.file.models:
            lr = m.lang(lang)
            if lr is not None:
                out.append((reported_cell(m, rep.file.source.citation), lr))
    return out


def reported_rows(
    data: SiteData, lang: str, cells: Callable[[ReportedLang], dict[str, Cell] | None]
) -> tuple[Row, ...]:
    """The paper's rows of a table, labelled as reported; `cells` gives a model's cells beside
    its name, or None where the paper has no numbers for that table."""
    rows = []
    for cell, lr in reported_langs(data, lang):
        values = cells(lr)
        if values is not None:
            rows.append(Row({"model": cell, **values}, "lb-reported-row"))
    return tuple(rows)


def _reported_rejection(lr: ReportedLang) -> dict[str, Cell] | None:
    rej = lr.rejection
    if rej is None:
        return None
    return {"rej_rgb": Cell.rate(frac(rej.rej)), "rej_star": paper_judged_cell(frac(rej.rej_star))}


def _reported_counterfactual(lr: ReportedLang) -> dict[str, Cell] | None:
    cf = lr.counterfactual
    if cf is None:
        return None
    return {
        "accuracy": Cell.rate(frac(cf.acc_doc)),
        "ed": Cell.rate(frac(cf.ed)),
        "ed_star": paper_judged_cell(frac(cf.ed_star)),
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
    row["score_strict"] = score_cell(s, lang, "rejection", "strict")
    shown = score_entry(s.results, lang, "rejection", "strict", "refusal_answer_shown")
    row["shown"] = Cell.rate(shown.value if shown else None)
    row["n_shown"] = Cell.text(
        shown.n_questions if shown else None, shown.n_questions if shown else -1
    )
    row["rej_star"] = judged_cell(s.judges, lang, "rej_star")
    cs = cells_for(s.results, lang, "rejection", "rgb")
    row["n"] = Cell.text(cs[0].n if cs else None, cs[0].n if cs else -1)
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def rejection_table(data: SiteData, lang: str, prefix: str) -> Table:
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
        Column(
            "rej_star",
            "Rej* (LLM judge)",
            True,
            "Refusal judged by an LLM with the reference prompt (reject_evalue.py); the judge is "
            "named in every cell (the paper's: ChatGPT)",
        ),
        Column("n", "n", True),
    )
    models, baselines = split_baselines(ordered(data, lang, "rejection", "strict"))
    return Table(
        id=f"{lang}-rejection",
        title=f"Negative rejection, {LANG_NAMES[lang]}",
        columns=cols,
        rows=tuple(_rejection_row(s, lang, prefix) for s in models),
        baseline_rows=tuple(_rejection_row(s, lang, prefix) for s in baselines),
        reported_rows=reported_rows(data, lang, _reported_rejection),
        note="Rates in %, 95% CI underneath.",
    )


def _counterfactual_row(s: Entry, lang: str, mode: str, prefix: str) -> Row:
    c = cells_for(s.results, lang, "counterfactual", mode)[0]
    fa = score_entry(s.results, lang, "counterfactual", mode, "ed_false_alarm")
    row = {
        "model": model_cell(s, prefix, lang),
        "accuracy": Cell.rate(c.accuracy, c.accuracy_ci),
        "ed": Cell.rate(c.ed, c.ed_ci),
        "ed_star": judged_cell(s.judges, lang, "ed_star"),
        "fa": Cell.rate(fa.value if fa else None, fa.ci if fa else None),
        "cr": Cell.rate(c.cr, c.cr_ci),
        "cr_all": Cell.rate(c.cr_all),
        "score": score_cell(s, lang, "counterfactual", mode),
        "n": Cell.text(c.n, c.n),
    }
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def counterfactual_table(data: SiteData, lang: str, mode: str, prefix: str) -> Table:
    cols = (
        Column("model", "Model"),
        Column("accuracy", "Accuracy", True, "Correct answers despite the false passages"),
        Column("ed", "ED", True, "Error detection rate"),
        Column(
            "ed_star",
            "ED* (LLM judge)",
            True,
            "Error detection judged by an LLM with the reference prompt (fact_evalue.py); the "
            "judge is named in every cell (the paper's: ChatGPT); the same in both modes",
        ),
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
    models, baselines = split_baselines(ordered(data, lang, "counterfactual", mode))
    return Table(
        id=f"{lang}-counterfactual-{mode}",
        title=f"Counterfactual robustness, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=cols,
        rows=tuple(_counterfactual_row(s, lang, mode, prefix) for s in models),
        baseline_rows=tuple(_counterfactual_row(s, lang, mode, prefix) for s in baselines),
        reported_rows=reported_rows(data, lang, _reported_counterfactual) if mode == "rgb" else (),
        note="Rates in %, 95% CI underneath.",
    )

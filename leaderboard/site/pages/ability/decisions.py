"""The ability pages' shared row helpers and their decision tables (rejection, counterfactual):
both modes side by side, the strict score with its terms, the trivial baselines in a band under the
measured rows and the paper's reported rows last."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import cells_for, is_trivial_baseline, score_entry
from leaderboard.board.reported import ReportedLang, frac
from leaderboard.site.pages.ability.outcome_cells import answer_rate_cell
from leaderboard.site.render.columns import columns
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import (
    judged_cell,
    model_cell,
    paper_judged_cell,
    reported_cell,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table

# the decision tables' columns (render.columns), between the model and TAIL
REJECTION = ("rej_rgb", "rej_strict", "over_rgb", "over_strict", "score_strict", "shown", "n_shown")
REJECTION += ("rej_star",)
COUNTERFACTUAL = ("accuracy", "ed", "ed_star", "fa", "cr", "cr_all")
TAIL = ("out.answer_rate", "col.n")


def names(lg: str, lang: str, ability: str, mode: str | None = None) -> dict[str, str]:
    """The display names of a page's language, ability and mode in interface language `lg`."""
    names = {"ability": ui(lg, f"ability.{ability}"), "lang": ui(lg, f"lang.{lang}")}
    return names | ({"mode": ui(lg, f"mode.{mode}")} if mode else {})


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
    return Cell.score(e)


def reported_langs(data: SiteData, lang: str, lg: str = DEFAULT) -> list[tuple[Cell, ReportedLang]]:
    out = []
    for rep in data.reported:
        for m in rep.file.models:
            lr = m.lang(lang)
            if lr is not None:
                out.append((reported_cell(m, rep.file.source.citation, lg), lr))
    return out


def reported_rows(
    data: SiteData,
    lang: str,
    cells: Callable[[ReportedLang, str], dict[str, Cell] | None],
    lg: str = DEFAULT,
) -> tuple[Row, ...]:
    """The paper's rows of a table, labelled as reported; `cells` gives a model's cells beside
    its name (in interface language `lg`), or None where the paper has no numbers for that
    table."""
    rows = []
    for cell, lr in reported_langs(data, lang, lg):
        values = cells(lr, lg)
        if values is not None:
            rows.append(Row({"model": cell, **values}, "lb-reported-row"))
    return tuple(rows)


def _reported_rejection(lr: ReportedLang, lg: str) -> dict[str, Cell] | None:
    rej = lr.rejection
    if rej is None:
        return None
    star = paper_judged_cell(frac(rej.rej_star), lg)
    return {"rej_rgb": Cell.rate(frac(rej.rej)), "rej_star": star}


def _reported_counterfactual(lr: ReportedLang, lg: str) -> dict[str, Cell] | None:
    cf = lr.counterfactual
    if cf is None:
        return None
    return {
        "accuracy": Cell.rate(frac(cf.acc_doc)),
        "ed": Cell.rate(frac(cf.ed)),
        "ed_star": paper_judged_cell(frac(cf.ed_star), lg),
        "cr": Cell.rate(frac(cf.cr)),
        "acc_nodoc": Cell.rate(frac(cf.acc)),
    }


def _rejection_row(s: Entry, lang: str, prefix: str, lg: str) -> Row:
    row = {"model": model_cell(s, prefix, lang, lg=lg)}
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
    row["rej_star"] = judged_cell(s.judges, lang, "rej_star", lg)
    row["answer_rate"] = answer_rate_cell(s, lang, "rejection", "strict")
    cs = cells_for(s.results, lang, "rejection", "rgb")
    row["n"] = Cell.text(cs[0].n if cs else None, cs[0].n if cs else -1)
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def rejection_table(data: SiteData, lang: str, prefix: str, lg: str = DEFAULT) -> Table:
    """Both modes' refusal and over-refusal rates, the strict score and its terms, Rej*."""
    cols = columns(lg, "col.model", *(f"decision.{k}" for k in REJECTION), *TAIL)
    title = ui(lg, "decision.rejection_title", **names(lg, lang, "rejection"))
    reported = reported_rows(data, lang, _reported_rejection, lg)
    row = partial(_rejection_row, lang=lang, prefix=prefix, lg=lg)
    return _decision_table(
        data, lang, "rejection", "strict", f"{lang}-rejection", title, cols, row, reported, lg
    )


def _counterfactual_row(s: Entry, lang: str, mode: str, prefix: str, lg: str) -> Row:
    c = cells_for(s.results, lang, "counterfactual", mode)[0]
    fa = score_entry(s.results, lang, "counterfactual", mode, "ed_false_alarm")
    row = {
        "model": model_cell(s, prefix, lang, lg=lg),
        "accuracy": Cell.rate(c.accuracy, c.accuracy_ci),
        "ed": Cell.rate(c.ed, c.ed_ci),
        "ed_star": judged_cell(s.judges, lang, "ed_star", lg),
        "fa": Cell.score(fa),
        "cr": Cell.rate(c.cr, c.cr_ci),
        "cr_all": Cell.rate(c.cr_all),
        "score": score_cell(s, lang, "counterfactual", mode),
        "answer_rate": answer_rate_cell(s, lang, "counterfactual", mode),
        "n": Cell.text(c.n, c.n),
    }
    return Row(row, "lb-baseline-row" if is_trivial_baseline(s.results) else "")


def counterfactual_table(
    data: SiteData, lang: str, mode: str, prefix: str, lg: str = DEFAULT
) -> Table:
    """Accuracy, ED (and ED*), false alarms, CR and the score of one mode; the paper's rows in
    the reference mode."""
    cols = columns(lg, "col.model", *(f"decision.{k}" for k in COUNTERFACTUAL))
    cols += columns(lg, "abpage.score", "decision.acc_nodoc", *TAIL)
    reported = reported_rows(data, lang, _reported_counterfactual, lg) if mode == "rgb" else ()
    title = ui(lg, "abpage.table_title", **names(lg, lang, "counterfactual", mode))
    row = partial(_counterfactual_row, lang=lang, mode=mode, prefix=prefix, lg=lg)
    table_id = f"{lang}-counterfactual-{mode}"
    return _decision_table(
        data, lang, "counterfactual", mode, table_id, title, cols, row, reported, lg
    )


def _decision_table(
    data: SiteData,
    lang: str,
    ability: str,
    mode: str,
    table_id: str,
    title: str,
    cols: tuple[Column, ...],
    row: Callable[[Entry], Row],
    reported: tuple[Row, ...],
    lg: str,
) -> Table:
    """A decision table: the entries measured on `ability` ordered by their `mode` score, the
    trivial baselines in their band, the paper's rows last."""
    models, baselines = split_baselines(ordered(data, lang, ability, mode))
    return Table(
        id=table_id,
        title=title,
        columns=cols,
        rows=tuple(row(s) for s in models),
        baseline_rows=tuple(row(s) for s in baselines),
        reported_rows=reported,
        note=ui(lg, "decision.rates_note"),
        ui=lg,
    )

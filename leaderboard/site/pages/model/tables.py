"""The tables of a model page: scores (both modes side by side), every cell, and the LLM judges'
Rej* and ED* with their agreement with strict mode; labels in the page's interface language."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.load import Entry
from leaderboard.board.ranking import score_entry, zh_minus_en
from leaderboard.core.types import ABILITIES, LANGS, MODES, PROBES
from leaderboard.site.pages.zh_en.cells import (
    ability_label,
    better_cell,
    matched_abilities,
    matched_cells,
)
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, table, ui
from leaderboard.site.render.page import definition_text, entry_name, judged_cell
from leaderboard.site.render.tables import Cell, Column, Row, Table

# the scores and cells tables' columns after language and ability (render.columns model.<key>)
SCORES = ("metric", "rgb", "strict", "questions", "complete")
CELLS = ("noise_rate", "mode", "accuracy", "rejection", "over_refusal", "ed", "cr", "f1")
CELLS += ("n_expected", "errors", "data", "chars")


def model_table(
    sub: Entry,
    part: str,
    title: str,
    cols: Sequence[Column],
    rows: Sequence[Row],
    lg: str,
    note: str | None = None,
    filterable: bool = True,
) -> Table:
    """A table of a model page: id model-<entry>-<part> (also its download's name), titled by
    message `title` with the entry's name, with message `note` under it."""
    return Table(
        id=f"model-{sub.id}-{part}",
        title=ui(lg, title, name=entry_name(sub, lg)),
        columns=tuple(cols),
        rows=tuple(rows),
        note=ui(lg, note) if note else "",
        filterable=filterable,
        ui=lg,
    )


def ability_name(ability: str, lg: str = DEFAULT) -> str:
    """An ability's (or probe's) display name; an unknown one as written in the results."""
    key = f"ability.{ability}"
    return ui(lg, key) if key in table(DEFAULT) else ability


def code_label(lg: str, group: str, code: str) -> str:
    """A code the results files use (a language, mode or metric key) as a page in `lg` shows it:
    the English pages show the code, another language its word from the message tables
    (`group`.<code>), or the code when they have none."""
    key = f"{group}.{code}"
    return ui(lg, key) if lg != DEFAULT and key in table(DEFAULT) else code


def report_card(sub: Entry, lg: str = DEFAULT) -> Table:
    """One row per ability (and the overall, or the abilities matched in both languages):
    zh | en | zh − en in strict mode (the ranked one) with CIs and n, the reference (rgb)
    scores beside them."""
    rows = []
    for a in ("overall", *ABILITIES):
        got = {(g, m): score_entry(sub.results, g, a, m) for g in LANGS for m in MODES}
        if not any(e is not None and e.value is not None for e in got.values()):
            continue
        matched = matched_abilities(sub, "strict") if a == "overall" else None
        d = zh_minus_en(sub.results, a, "strict")
        cells = {"ability": Cell.text(ability_label(lg, a, matched))}
        for lang in LANGS:
            for mode in MODES:
                e = got[(lang, mode)]
                if e is None or e.value is None:
                    cells[f"{lang}_{mode}"] = Cell.missing(e.note if e else "not measured")
                else:
                    cells[f"{lang}_{mode}"] = Cell.score(e)
        if matched is not None:  # the strict cells of the abilities matched in both languages
            got_matched = matched_cells(sub, matched, "strict", lg)
            cells |= {f"{g}_{m}": got_matched[g] for g in LANGS for m in MODES}
        cells["diff"] = Cell.score(d)
        cells["better"] = better_cell(lg, d.value if d else None, d.ci if d else None)
        n = [got[(lang, "strict")] for lang in LANGS]
        cells["n"] = Cell.text(" / ".join(str(e.n_questions) if e else "—" for e in n))
        if matched is not None:
            cells["n"] = got_matched["n"]
        rows.append(Row(cells))
    strict, rgb = ui(lg, "card.strict"), ui(lg, "card.rgb")
    cols = (
        column("model.ability", lg),
        *(column("card.score", lg, lang=g, mode="strict", mode_name=strict) for g in LANGS),
        *columns(lg, "zhen.diff", "zhen.better", "card.n"),
        *(column("card.score", lg, lang=g, mode="rgb", mode_name=rgb) for g in LANGS),
    )
    return model_table(sub, "card", "card.title", cols, rows, lg, "card.note", filterable=False)


def scores_table(sub: Entry, lg: str = DEFAULT) -> Table:
    """One row per (language, ability, metric), the two scoring modes side by side."""
    order = {k: i for i, k in enumerate(("zh", "en", "all"))}
    aorder = {k: i for i, k in enumerate(("overall", *ABILITIES))}
    groups: dict[tuple[str, str, str], dict[str, object]] = {}
    for e in sub.results.scores:
        groups.setdefault((e.lang, e.ability, e.metric), {})[e.mode] = e
    rows = []
    for key in sorted(
        groups, key=lambda k: (order.get(k[0], 9), aorder.get(k[1], 9), k[2] != "score", k[2])
    ):
        lang, ability, metric = key
        by_mode = groups[key]
        first = next(iter(by_mode.values()))
        complete = all(e.complete for e in by_mode.values())
        cells = {
            "lang": Cell.text(code_label(lg, "langcode", lang)),
            "ability": Cell.text(ability_name(ability, lg)),
            "metric": Cell(
                metric,
                f'<span title="{esc(definition_text(first, lg))}">'
                f"{esc(code_label(lg, 'metric', metric))}</span>",
                metric,
            ),
            "n": Cell.text(first.n_questions, first.n_questions),
            "complete": Cell.text(ui(lg, f"model.complete_{'yes' if complete else 'no'}")),
        }
        for mode in MODES:
            e = by_mode.get(mode)
            cells[mode] = Cell.score(e)
        rows.append(Row(cells))
    cols = columns(lg, "col.lang", "model.ability", *(f"model.{k}" for k in SCORES))
    return model_table(sub, "scores", "model.scores_title", cols, rows, lg, "model.scores_note")


def cells_table(sub: Entry, lg: str = DEFAULT) -> Table:
    rows = []
    partial_file = ui(lg, "model.partial_file")
    for c in sorted(
        sub.results.cells,
        key=lambda c: (
            LANGS.index(c.lang),
            (ABILITIES + PROBES).index(c.ability),
            c.noise_rate,
            MODES.index(c.mode),
        ),
    ):
        rows.append(
            Row(
                {
                    "lang": Cell.text(c.lang),
                    "ability": Cell.text(
                        c.ability if lg == DEFAULT else ability_name(c.ability, lg)
                    ),
                    "noise_rate": Cell.text(f"{c.noise_rate:.1f}", c.noise_rate),
                    "mode": Cell.text(code_label(lg, "modecode", c.mode)),
                    "accuracy": Cell.rate(c.accuracy, c.accuracy_ci),
                    "rejection": Cell.rate(c.rejection_rate, c.rejection_rate_ci),
                    "over_refusal": Cell.rate(c.over_refusal_rate),
                    "ed": Cell.rate(c.ed, c.ed_ci),
                    "cr": Cell.rate(c.cr, c.cr_ci),
                    "f1": Cell.rate(c.token_f1, c.token_f1_ci),
                    "n": Cell.text(f"{c.n}/{c.expected_n}", c.n),
                    "errors": Cell.text(c.n_errors, c.n_errors),
                    "data": Cell.text(c.data_file + ("" if c.data_complete else partial_file)),
                    "chars": Cell.text(f"{c.mean_output_chars:.0f}", c.mean_output_chars),
                }
            )
        )
    cols = columns(lg, "col.lang", "model.ability", *(f"model.{k}" for k in CELLS))
    return model_table(sub, "cells", "model.cells_title", cols, rows, lg)


def judge_table(sub: Entry, lg: str = DEFAULT) -> Table:
    """Rej* and ED* by every LLM judge of this submission, with kappa against strict mode."""
    rows = []
    for judge in sub.judges:
        for rate in judge.rates:
            kappa = next(
                (
                    k
                    for k in judge.agreement
                    if k.lang == rate.lang and k.task == rate.task and k.against == "strict"
                ),
                None,
            )
            if kappa is None or kappa.kappa is None:
                text = ui(lg, "model.kappa_undefined")
            else:
                text = f"{kappa.kappa:.2f}"
            if kappa is not None and kappa.kappa_ci is not None:
                text += f" [{kappa.kappa_ci[0]:.2f}, {kappa.kappa_ci[1]:.2f}]"
            rows.append(
                Row(
                    {
                        "lang": Cell.text(rate.lang),
                        "metric": Cell.text("Rej*" if rate.metric == "rej_star" else "ED*"),
                        "value": judged_cell((judge,), rate.lang, rate.metric, lg),
                        "kappa": Cell.text(text, kappa.kappa if kappa and kappa.kappa else -2.0),
                    }
                )
            )
    cols = columns(lg, "col.lang", "model.metric", "model.judged", "model.kappa")
    return model_table(sub, "judge", "model.judge_title", cols, rows, lg, "model.judge_note")

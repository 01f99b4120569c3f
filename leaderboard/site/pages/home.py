"""The ranking pages: the home page (reference mode, with the paper's reported numbers beside,
never ranked) and the same ranking in strict mode.
"""

from __future__ import annotations

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import coverage, rank_ranges, score_entry, unverified_reasons
from leaderboard.board.reported import frac
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.page import (
    LANG_NAMES,
    MODE_NAMES,
    SHORT_NAMES,
    Output,
    badge,
    definitions,
    front_matter,
    model_cell,
    model_size_and_quant,
    prefix_for,
    reported_cell,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table


def _ranking_columns(defs: dict[str, str], lang: str, parts: tuple[str, ...]) -> list[Column]:
    cols = [
        Column(
            "rank", "Rank", True, "Ranks not excluded by paired 95% comparisons on shared questions"
        ),
        Column("model", "Model"),
        Column("overall", "Overall", True, defs.get("overall")),
    ]
    cols += [Column(p, SHORT_NAMES[p], True, defs.get(p) if lang != "all" else None) for p in parts]
    cols += [
        Column("n", "n", True, "Questions scored"),
        Column("coverage", "Coverage", True, "Instances scored / instances in the splits"),
        Column("size", "Size"),
        Column("quant", "Quantization"),
    ]
    return cols


def _coverage_cell(s: Entry, lang: str, mode: str) -> tuple[Cell, bool]:
    """The coverage cell and whether the model's results are partial for this table."""
    cov = coverage(s.results, None if lang == "all" else lang, mode)
    cov_html = esc(pct(cov.fraction, 0) + "%")
    if cov.partial:
        cov_html += " " + badge("partial", "partial", "; ".join(cov.reasons))
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


def _ranking_row(
    s: Entry,
    label: str,
    best: int | None,
    lang: str,
    mode: str,
    parts: tuple[str, ...],
    prefix: str,
) -> Row:
    unverified = unverified_reasons(s.results)
    rank_html = esc(label)
    if unverified:
        label = "unverified"
        rank_html = badge("unverified", "unverified", "; ".join(unverified))
    cells: dict[str, Cell] = {
        "rank": Cell(label, rank_html, 10_000 if best is None else best),
        "model": model_cell(s, prefix, lang),
    }
    for p in ("overall", *parts):
        e = (
            score_entry(s.results, lang, p, mode)
            if p not in LANGS
            else score_entry(s.results, p, "overall", mode)
        )
        cells[p] = Cell.rate(None if e is None else e.value, None if e is None else e.ci)
    overall = score_entry(s.results, lang, "overall", mode)
    cells["n"] = Cell.text(
        overall.n_questions if overall else None, overall.n_questions if overall else -1
    )
    cells["coverage"], partial = _coverage_cell(s, lang, mode)
    size, quant = model_size_and_quant(s)
    cells["size"] = Cell.text(size)
    cells["quant"] = Cell.text(quant)
    return Row(cells, "lb-partial-row" if partial else "")


def ranking_table(data: SiteData, lang: str, mode: str, prefix: str) -> Table:
    subs = {s.id: s for s in data.submissions}
    items = []
    for s in data.submissions:
        e = score_entry(s.results, lang, "overall", mode)
        ranked = e is not None and not unverified_reasons(s.results)
        items.append((s.id, e.value if ranked else None))  # type: ignore[union-attr]
    paired = data.comparisons.significance(lang, mode) if data.comparisons else {}
    # per language: one column per ability; combined: the two languages' overall scores
    parts = tuple(ABILITIES if lang != "all" else LANGS)
    cols = _ranking_columns(definitions(data, mode), lang, parts)
    rows = [
        _ranking_row(subs[r.key], r.label, r.best, lang, mode, parts, prefix)
        for r in rank_ranges(items, paired)
    ]
    return Table(
        id=f"ranking-{lang}-{mode}",
        title=f"Ranking, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        note="Scores in %, 95% CI underneath. Rank ranges from paired comparisons on the shared "
        "questions: best = 1 + models significantly better, worst = n - models significantly "
        "worse. Unverified entries (scripted backend, unpinned weights, uncommitted code) are "
        "never ranked.",
    )


def _reported_rows(data: SiteData) -> list[Row]:
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
                    "model": reported_cell(m, rep.file.source.citation),
                    "lang": Cell.text(lang),
                    "noise": Cell.rate(frac(sum(noise) / len(noise)) if noise else None),
                    "rej": Cell.rate(frac(lr.rejection.rej) if lr.rejection else None),
                    "integration": Cell.rate(frac(sum(integ) / len(integ)) if integ else None),
                    "ed": Cell.rate(frac(cf.ed) if cf else None),
                    "cr": Cell.rate(frac(cf.cr) if cf else None),
                }
                rows.append(Row(cells, "lb-reported-row"))
    return rows


def reported_table(data: SiteData, prefix: str) -> Table | None:
    """The paper's headline numbers, in their own table: not comparable, never ranked."""
    rows = _reported_rows(data)
    if not rows:
        return None
    return Table(
        id="reported-paper",
        title="Reported in the RGB paper",
        columns=(
            Column("model", "Model"),
            Column("lang", "Lang"),
            Column("noise", "Noise (mean acc.)", True, "Mean accuracy over noise rates 0-0.8"),
            Column("rej", "Rejection (Rej)", True, "Exact-phrase refusal rate"),
            Column(
                "integration",
                "Integration (mean acc.)",
                True,
                "Mean accuracy over noise rates 0-0.4",
            ),
            Column("ed", "Counterfactual ED", True, "Error detection rate"),
            Column("cr", "Counterfactual CR", True, "Error correction rate"),
        ),
        rows=(),
        reported_rows=tuple(rows),
        note="Reported in the paper, not measured here: other data files, code and decoding.",
    )


HOME_INTRO = """
**RGB** (Chen et al., AAAI 2024) tests whether a language model answers correctly from retrieved
passages, in Chinese and in English, along four abilities: **noise robustness** (answer despite
irrelevant passages), **negative rejection** (refuse when no passage holds the answer),
**information integration** (combine facts from several passages) and **counterfactual robustness**
(notice passages that contradict what is true). Every number here was measured by this project's
runner with greedy decoding, and is shown with a 95% confidence interval (Wilson, adjusted for
the repeated questions). Ranks are ranges: two models share ranks unless a paired comparison on
the questions both answered tells them apart.
"""

HOW_TO_SUBMIT = """
## How to submit

1. Describe your model in `submissions/<id>/model.yaml` (copy an existing submission).
2. Fetch the data and run it: `rgb-leaderboard data fetch`, then
   `rgb-leaderboard run submissions/<id>/model.yaml` (rerunning resumes where it stopped).
3. Open a pull request with `model.yaml`, `results.json` and `predictions.jsonl`; CI validates
   them and rebuilds this site.

See the [methodology](methodology.md) for how answers are scored in both modes.
"""


def home_page(data: SiteData, out: Output, mode: str = "rgb") -> str:
    path = "index.md" if mode == "rgb" else "ranking-strict.md"
    prefix = prefix_for(path)
    other = (
        "Scores use the reference (rgb) scoring. The same ranking under the stricter scoring is on "
        "[the strict-mode page](ranking-strict.md)."
        if mode == "rgb"
        else "Scores use the strict scoring (see [methodology](methodology.md)); the home page "
        "uses the reference (rgb) scoring."
    )
    title = (
        "RGB bilingual RAG robustness leaderboard" if mode == "rgb" else "Ranking in strict mode"
    )
    parts = [
        front_matter(search_exclude=mode != "rgb") + f"# {title}\n",
        HOME_INTRO if mode == "rgb" else "",
        other + "\n",
    ]
    if not data.submissions:
        parts.append("\n*No measured results yet.*\n")
    for lang in (*LANGS, "all"):
        parts.append(f"\n## {LANG_NAMES[lang]}\n")
        parts.append(out.table(ranking_table(data, lang, mode, prefix), prefix))
    if mode == "rgb":
        rep = reported_table(data, prefix)
        if rep is not None:
            parts.append("\n## Reported in the RGB paper (not ranked)\n")
            parts.append(
                "These rows are the paper's own numbers, labelled *reported in paper*. They were "
                "produced on the original data files with sampled decoding and are not ranked with "
                "the measured results above.\n"
            )
            parts.append(out.table(rep, prefix))
        parts.append(HOW_TO_SUBMIT)
    return "\n".join(parts)

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
    unverified_reasons,
)
from leaderboard.board.reported import frac
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.page import (
    LANG_NAMES,
    MODE_NAMES,
    PARTIAL_TIP,
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

RANKED_MODE = "strict"
OTHER_MODE = {"strict": "rgb", "rgb": "strict"}


def _ranking_columns(
    defs: dict[str, str], lang: str, parts: tuple[str, ...], mode: str
) -> list[Column]:
    other = OTHER_MODE[mode]
    cols = [
        Column(
            "rank", "Rank", True, "Ranks not excluded by paired 95% comparisons on shared questions"
        ),
        Column("model", "Model"),
        Column("overall", "Overall", True, defs.get("overall")),
        Column(
            "overall_other",
            f"Overall ({other})",
            True,
            f"The overall score in {MODE_NAMES[other]}, for comparison",
        ),
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
        cov_html += " " + badge("partial", "partial", PARTIAL_TIP)
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
    return Cell.rate(e.value, e.ci)


def _ranking_row(
    s: Entry,
    label: str,
    best: int | None,
    lang: str,
    mode: str,
    parts: tuple[str, ...],
    prefix: str,
) -> Row:
    # a baseline is labelled as such in its band; "unverified" is for entries that claim a model
    unverified = () if is_trivial_baseline(s.results) else unverified_reasons(s.results)
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
        cells[p] = _score_cell(e)
    cells["overall_other"] = _score_cell(score_entry(s.results, lang, "overall", OTHER_MODE[mode]))
    overall = score_entry(s.results, lang, "overall", mode)
    cells["n"] = Cell.text(
        overall.n_questions if overall else None, overall.n_questions if overall else -1
    )
    cells["coverage"], partial = _coverage_cell(s, lang, mode)
    size, quant = model_size_and_quant(s)
    cells["size"] = Cell.text(size)
    cells["quant"] = Cell.text(quant)
    if is_trivial_baseline(s.results):
        return Row(cells, "lb-baseline-row")
    return Row(cells, "lb-partial-row" if partial else "")


def _overall_value(s: Entry, lang: str, mode: str):
    e = score_entry(s.results, lang, "overall", mode)
    return None if e is None else e.value, None if e is None else e.ci


def ranking_table(data: SiteData, lang: str, mode: str, prefix: str) -> Table:
    """Models ranked by their overall score of `lang` (unranked, last, where it is missing or the
    entry is unverified); the trivial baselines in the band under them, never ranked."""
    models = [s for s in data.submissions if not is_trivial_baseline(s.results)]
    baselines = [s for s in data.submissions if is_trivial_baseline(s.results)]
    subs = {s.id: s for s in models}
    items = []
    for s in models:
        value = _overall_value(s, lang, mode)[0]
        items.append((s.id, None if unverified_reasons(s.results) else value))
    paired = data.comparisons.significance(lang, mode) if data.comparisons else {}
    # per language: one column per ability; combined: the two languages' overall scores
    parts = tuple(ABILITIES if lang != "all" else LANGS)
    cols = _ranking_columns(definitions(data, mode), lang, parts, mode)
    rows = [
        _ranking_row(subs[r.key], r.label, r.best, lang, mode, parts, prefix)
        for r in rank_ranges(items, paired)
    ]
    band = sorted(baselines, key=lambda s: (-(_overall_value(s, lang, mode)[0] or -1.0), s.id))
    ranked = "Ranking" if mode == RANKED_MODE else "Reference-mode scores"
    return Table(
        id=f"ranking-{lang}-{mode}",
        title=f"{ranked}, {LANG_NAMES[lang]}, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        baseline_rows=tuple(
            _ranking_row(s, "baseline", None, lang, mode, parts, prefix) for s in band
        ),
        note="Scores in %, 95% CI underneath. Rank ranges from paired comparisons on the shared "
        "questions: best = 1 + models significantly better, worst = n - models significantly "
        "worse. An overall score needs every ability measured in full on the official data; "
        "without it, or when the entry is unverified (unpinned weights, uncommitted code), the "
        "entry is listed unranked with the reason.",
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

The ranking uses the **strict** scores, built so that no trivial strategy (refusing everything,
claiming an error everywhere, copying the passages) wins; the reference (rgb) overall, which
reproduces the paper's metric, stands beside every row. The **trivial baselines** band under each
ranking shows what such strategies score: the floor a model has to beat.
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


def home_page(data: SiteData, out: Output, mode: str = RANKED_MODE) -> str:
    """The home page (mode strict, the ranking) or the reference-mode page (mode rgb)."""
    ranked = mode == RANKED_MODE
    path = "index.md" if ranked else "ranking-rgb.md"
    prefix = prefix_for(path)
    other = (
        "Ranked by the strict scores (see [methodology](methodology.md)). The same entries in "
        "the reference (rgb) scoring, as in the paper: [reference-mode page](ranking-rgb.md)."
        if ranked
        else "Reference (rgb) scoring, the paper's metric, for comparison: the leaderboard ranks "
        "by the strict scores on the [home page](index.md)."
    )
    title = (
        "RGB bilingual RAG robustness leaderboard" if ranked else "Scores in reference (rgb) mode"
    )
    parts = [
        front_matter(search_exclude=not ranked) + f"# {title}\n",
        HOME_INTRO if ranked else "",
        other + "\n",
    ]
    if not data.submissions:
        parts.append("\n*No measured results yet.*\n")
    for lang in (*LANGS, "all"):
        parts.append(f"\n## {LANG_NAMES[lang]}\n")
        parts.append(out.table(ranking_table(data, lang, mode, prefix), prefix))
    if ranked:
        rep = reported_table(data, prefix)
        if rep is not None:
            parts.append("\n## Reported in the RGB paper (not ranked)\n")
            parts.append(
                "These rows are the paper's own numbers, labelled *reported in paper*. They were "
                "produced on the original data files with sampled decoding and the reference "
                "(rgb) scoring, and are not ranked with the measured results above.\n"
            )
            parts.append(out.table(rep, prefix))
        parts.append(HOW_TO_SUBMIT)
    return "\n".join(parts)

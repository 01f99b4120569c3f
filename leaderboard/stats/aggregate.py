"""Ability scores and overall scores built from cells, with their definitions.

The `definition` strings below are what the site shows, so they are the documentation of record.
A score's CI is a Wilson interval at an effective n read off the mean of its cells' bootstrap
replicates, which share draws per data file (leaderboard.stats.cells), so means over noise rates
resample questions, not answers (leaderboard.stats.intervals says why).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from leaderboard.core.schema import DIFF_LANG, CellMetrics, ScoreEntry
from leaderboard.core.types import ABILITIES, DEFAULT_NOISE_RATES, LANGS, MODES, Ability, Lang, Mode
from leaderboard.stats.cells import Cell, cr_empty
from leaderboard.stats.intervals import bounds_for, newcombe_difference, score_interval

DEFINITIONS: dict[tuple[str, Mode], str] = {
    (
        "noise",
        "rgb",
    ): "Mean accuracy over noise rates 0, 0.2, 0.4, 0.6, 0.8 (reference labels: every "
    "answer element found as a lowercase substring).",
    (
        "noise",
        "strict",
    ): "Mean accuracy over noise rates 0, 0.2, 0.4, 0.6, 0.8 (normalised matching with "
    "number and word boundaries).",
    ("rejection", "rgb"): "Share of answers at noise rate 1.0 containing the instructed phrase "
    "(信息不足 / 'insufficient information'), as the paper's Rej.",
    ("rejection", "strict"): "Share of answers at noise rate 1.0 that refuse (phrase tables and zh "
    "negation+verb patterns), whatever else they say.",
    ("integration", "rgb"): "Mean accuracy over noise rates 0, 0.2, 0.4 on multi-part questions "
    "(reference labels).",
    ("integration", "strict"): "Mean accuracy over noise rates 0, 0.2, 0.4 on multi-part questions "
    "(every part must match, normalised).",
    (
        "counterfactual",
        "rgb",
    ): "Mean of ED (share saying the documents have factual errors) and the "
    "reference CR (share of those with no missed answer element).",
    (
        "counterfactual",
        "strict",
    ): "Mean of ED (share flagging factual errors) and CR over all items "
    "(share that both flag the error and give the true answer).",
    ("overall", "rgb"): "Mean of the available ability scores of this language (reference labels).",
    ("overall", "strict"): "Mean of the available ability scores of this language (strict labels).",
}
COMPANION_DEFINITIONS = {
    "ed": "Error detection rate: share of counterfactual answers that say the documents contain "
    "factual errors.",
    "cr": "Error correction rate (reference definition): among answers that detect the error, "
    "the share with no missed answer element.",
    "cr_all": "Share of all counterfactual answers that detect the error and give the true answer.",
}
ALL_DEFINITION = "Mean of the Chinese and English overall scores."
DIFF_DEFINITION = (
    "zh score minus en score; its CI joins the two languages' Wilson intervals by Newcombe's "
    "method (their question sets are disjoint, so the estimates are independent)."
)

CellsByRate = dict[float, Cell]


@dataclass
class Value:
    """A score with its bootstrap replicates (None without resamples) and what it rests on."""

    value: float | None
    reps: np.ndarray | None
    questions: set[tuple[str, int]]
    complete: bool


def _cell_complete(c: CellMetrics) -> bool:
    return c.data_complete and c.n >= c.expected_n


def combine(parts: list[Value], expected: int) -> Value:
    """Mean of the available values (and of their replicates); complete only if all expected are."""
    have = [p for p in parts if p.value is not None]
    if not have:
        return Value(None, None, set(), False)
    reps = None
    if all(p.reps is not None for p in have):
        with warnings.catch_warnings():  # an all-NaN replicate column stays NaN (ignored by the CI)
            warnings.simplefilter("ignore", RuntimeWarning)
            reps = np.nanmean(np.vstack([p.reps for p in have]), axis=0)
    questions = set().union(*(p.questions for p in have))
    complete = len(have) == expected and all(p.complete for p in have)
    return Value(float(np.mean([p.value for p in have])), reps, questions, complete)


def _questions(cells: list[Cell]) -> set[tuple[str, int]]:
    return {
        (c.metrics.data_file, i)
        for c in cells
        for i, p in zip(c.group.ids, c.present, strict=True)
        if p
    }


class _Builder:
    """Values resting on the cells of one ability (their questions, their completeness)."""

    def __init__(self, present: list[Cell], full: bool) -> None:
        self.questions = _questions(present)
        self.full = full
        self.boot = present[0].bootstrapped

    def value(
        self,
        cell: Cell,
        v: float | None,
        name: str,
        denominator: str | None = None,
        empty: float = np.nan,
    ) -> Value:
        reps = cell.replicates(name, denominator, empty) if self.boot else None
        return Value(v, reps, self.questions, self.full)


def _counterfactual(cell: Cell, mode: Mode, b: _Builder) -> dict[str, Value]:
    m = cell.metrics
    ed = b.value(cell, m.ed, "detected")
    cr = b.value(cell, m.cr, "corrected", "detected", cr_empty(mode))
    cr_all = b.value(cell, m.cr_all, "corrected")
    second = cr if mode == "rgb" else cr_all
    if second.value is None:  # strict CR is undefined with no detection; cr_all never is
        second = cr_all
    score = combine([ed, second], 2)
    score.complete = b.full
    return {"score": score, "ed": ed, "cr": cr, "cr_all": cr_all}


def ability_value(ability: Ability, mode: Mode, cells: CellsByRate) -> dict[str, Value]:
    """The ranking score ("score") of one ability and its companion metrics."""
    rates = DEFAULT_NOISE_RATES[ability]
    present = [cells[r] for r in rates if r in cells]
    if not present:
        return {"score": Value(None, None, set(), False)}
    full = len(present) == len(rates) and all(_cell_complete(c.metrics) for c in present)
    b = _Builder(present, full)
    if ability in ("noise", "integration"):
        mean = combine([b.value(c, c.metrics.accuracy, "correct") for c in present], len(present))
        mean.complete = full
        return {"score": mean}
    c = present[0]
    if ability == "rejection":
        return {"score": b.value(c, c.metrics.rejection_rate, "rejected")}
    return _counterfactual(c, mode, b)


def interval(v: Value) -> tuple[float, float] | None:
    """The score's CI: Wilson at its cluster-bootstrap effective n (leaderboard.stats.intervals),
    its questions being the clusters; never collapsed at 0 or 1."""
    if v.value is None:
        return None
    return score_interval(v.value, v.reps, len(v.questions), bounds_for(v.value, v.reps))


def entry(
    lang: str,
    mode: Mode,
    ability: str,
    metric: str,
    v: Value,
    definition: str,
    ci: tuple[float, float] | None = None,
) -> ScoreEntry:
    return ScoreEntry(
        lang=lang,  # type: ignore[arg-type]
        mode=mode,
        ability=ability,  # type: ignore[arg-type]
        metric=metric,
        value=v.value,
        ci=ci if ci is not None else interval(v),
        n_questions=len(v.questions),
        complete=v.complete,
        definition=definition,
    )


def _language_entries(
    lang: Lang, mode: Mode, cells: dict[tuple[Lang, Ability, Mode], CellsByRate]
) -> tuple[list[ScoreEntry], dict[str, Value]]:
    """Every ability's entries for one language and mode, then its overall score; also the
    ranking values by ability ("overall" included) for the zh - en differences."""
    entries, scores = [], {}
    for ability in ABILITIES:
        values = ability_value(ability, mode, cells.get((lang, ability, mode), {}))
        for metric, v in values.items():
            definition = (
                DEFINITIONS[(ability, mode)] if metric == "score" else COMPANION_DEFINITIONS[metric]
            )
            entries.append(entry(lang, mode, ability, metric, v, definition))
        scores[ability] = values["score"]
    overall = combine(list(scores.values()), len(ABILITIES))
    entries.append(entry(lang, mode, "overall", "score", overall, DEFINITIONS[("overall", mode)]))
    scores["overall"] = overall
    return entries, scores


def difference(zh: Value, en: Value) -> Value:
    """zh - en. Replicate k of each language comes from draws seeded by its own data files, so
    the pairs are independent draws and their differences bootstrap the difference directly
    (no normal approximation, asymmetric where the scores sit near 0 or 1)."""
    if zh.value is None or en.value is None:
        return Value(None, None, set(), False)
    reps = zh.reps - en.reps if zh.reps is not None and en.reps is not None else None
    both = zh.complete and en.complete
    return Value(zh.value - en.value, reps, zh.questions | en.questions, both)


def _difference_entries(mode: Mode, by_lang: dict[Lang, dict[str, Value]]) -> list[ScoreEntry]:
    if not all(lang in by_lang for lang in LANGS):
        return []
    out = []
    for ability in ("overall", *ABILITIES):
        zh, en = by_lang["zh"][ability], by_lang["en"][ability]
        d = difference(zh, en)
        if d.value is not None:
            ci_zh, ci_en = interval(zh), interval(en)
            ci = None
            if ci_zh is not None and ci_en is not None:
                ci = newcombe_difference(zh.value, ci_zh, en.value, ci_en)  # type: ignore[arg-type]
            out.append(entry(DIFF_LANG, mode, ability, "score", d, DIFF_DEFINITION, ci))
    return out


def score_entries(
    cells: dict[tuple[Lang, Ability, Mode], CellsByRate], langs: list[Lang]
) -> list[ScoreEntry]:
    """Ability, per-language overall, all-language overall and zh - en entries, per mode."""
    entries: list[ScoreEntry] = []
    for mode in MODES:
        by_lang: dict[Lang, dict[str, Value]] = {}
        for lang in langs:
            lang_entries, by_lang[lang] = _language_entries(lang, mode, cells)
            entries += lang_entries
        overall = [v["overall"] for v in by_lang.values()]
        both = combine(overall, len(LANGS))
        entries.append(entry("all", mode, "overall", "score", both, ALL_DEFINITION))
        entries += _difference_entries(mode, by_lang)
    return entries

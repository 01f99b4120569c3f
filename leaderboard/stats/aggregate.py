"""Ability scores and overall scores built from cells, with their definitions.

The `definition` strings below are what the site shows, so they are the documentation of record.
A score's CI is a Wilson interval at an effective n read off the mean of its cells' bootstrap
replicates, which share draws per data file (leaderboard.stats.cells), so means over noise rates
resample questions, not answers (leaderboard.stats.intervals says why).
"""

from __future__ import annotations

import numpy as np

from leaderboard.core.schema import DIFF_LANG, CellMetrics, ScoreEntry
from leaderboard.core.types import ABILITIES, DEFAULT_NOISE_RATES, LANGS, MODES, Ability, Lang, Mode
from leaderboard.stats import decision
from leaderboard.stats.cells import Cell, cr_empty
from leaderboard.stats.intervals import bounds_for, newcombe_difference, score_interval
from leaderboard.stats.values import Value, combine, questions

DEFINITIONS: dict[tuple[str, Mode], str] = {
    (
        "noise",
        "rgb",
    ): "Mean accuracy over noise rates 0, 0.2, 0.4, 0.6, 0.8 (reference labels: every "
    "answer element found as a lowercase substring).",
    ("rejection", "rgb"): "Share of answers at noise rate 1.0 containing the instructed phrase "
    "(信息不足 / 'insufficient information'), as the paper's Rej.",
    ("integration", "rgb"): "Mean accuracy over noise rates 0, 0.2, 0.4 on multi-part questions "
    "(reference labels).",
    (
        "counterfactual",
        "rgb",
    ): "Mean of ED (share saying the documents have factual errors) and the "
    "reference CR (share of those with no missed answer element).",
    **{(ability, "strict"): text for ability, text in decision.DEFINITIONS.items()},
    ("overall", "rgb"): "Mean of the four ability scores of this language (reference labels); "
    "only when all four are measured in full on the official data.",
    ("overall", "strict"): "Mean of the four strict ability scores of this language; only when "
    "all four are measured in full on the official data. The ranked score.",
}
COMPANION_DEFINITIONS = {
    "ed": "Error detection rate: share of counterfactual answers that say the documents contain "
    "factual errors.",
    "cr": "Error correction rate (reference definition): among answers that detect the error, "
    "the share with no missed answer element.",
    "cr_all": "Share of all counterfactual answers that detect the error and give the true answer.",
    **decision.COMPANIONS,
}
ALL_DEFINITION = "Mean of the Chinese and English overall scores (only when both exist)."
DIFF_DEFINITION = (
    "zh score minus en score; its CI joins the two languages' Wilson intervals by Newcombe's "
    "method (their question sets are disjoint, so the estimates are independent)."
)
DIFF_OVERALL_DEFINITION = (
    "Mean over the abilities scored in both languages of the zh minus en ability score, so both "
    "sides cover the same abilities; its CI is Wilson at the effective n of the paired "
    "bootstrap replicates of the difference, on the signed scale."
)

CellsByRate = dict[float, Cell]


def _cell_complete(c: CellMetrics) -> bool:
    return c.data_complete and c.n >= c.expected_n


class _Builder:
    """Values resting on the cells of one ability (their questions, their completeness)."""

    def __init__(self, present: list[Cell], full: bool) -> None:
        self.questions = questions(present)
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


def _present(ability: Ability, cells: CellsByRate) -> tuple[list[Cell], bool]:
    """The cells of the protocol's noise rates that were run, and whether all are, in full."""
    rates = DEFAULT_NOISE_RATES[ability]
    present = [cells[r] for r in rates if r in cells]
    full = len(present) == len(rates) and all(_cell_complete(c.metrics) for c in present)
    return present, full


def ability_value(
    ability: Ability, mode: Mode, cells: dict[Ability, CellsByRate]
) -> dict[str, Value]:
    """The ranking score ("score") of one ability and its companion metrics. `cells` holds the
    language's cells by ability: strict rejection and counterfactual also read the noise cells."""
    present, full = _present(ability, cells.get(ability, {}))
    if not present:
        return {"score": Value(None, None, set(), False, "not measured")}
    if mode == "strict":
        noise, noise_full = _present("noise", cells.get("noise", {}))
        if ability == "rejection":
            return decision.rejection(present[0], full, noise, noise_full)
        if ability == "counterfactual":
            reference = _counterfactual(present[0], mode, _Builder(present, full))
            companions = {k: v for k, v in reference.items() if k != "score"}
            return {**decision.counterfactual(present[0], full, noise, noise_full), **companions}
        return decision.answered(present, full)
    b = _Builder(present, full)
    if ability in ("noise", "integration"):
        mean = combine([b.value(c, c.metrics.accuracy, "correct") for c in present], len(present))
        mean.complete = full
        return {"score": mean}
    c = present[0]
    if ability == "rejection":
        return {"score": b.value(c, c.metrics.rejection_rate, "rejected")}
    return _counterfactual(c, mode, b)


def _why_incomplete(lang: Lang, scores: dict[str, Value]) -> str | None:
    """Why a language has no overall score (None when every ability is measured in full)."""
    missing = [a for a in ABILITIES if scores[a].value is None]
    partial = [a for a in ABILITIES if scores[a].value is not None and not scores[a].complete]
    reasons = []
    if missing:
        reasons.append("not measured: " + ", ".join(missing))
    if partial:
        reasons.append("not complete official data: " + ", ".join(partial))
    return f"no {lang} overall: " + "; ".join(reasons) if reasons else None


def overall(lang: Lang, scores: dict[str, Value]) -> Value:
    """Mean of the four ability scores, only when each is measured in full on official data."""
    why = _why_incomplete(lang, scores)
    if why is not None:
        qs = set().union(*(scores[a].questions for a in ABILITIES))
        return Value(None, None, qs, False, why)
    return combine([scores[a] for a in ABILITIES], len(ABILITIES))


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
    note = v.note
    if note is None and v.value is not None and not v.complete:
        note = "not complete official data"
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
        note=note,
    )


def _language_entries(
    lang: Lang, mode: Mode, cells: dict[tuple[Lang, Ability, Mode], CellsByRate]
) -> tuple[list[ScoreEntry], dict[str, Value]]:
    """Every ability's entries for one language and mode, then its overall score; also the
    ranking values by ability ("overall" included) for the zh - en differences."""
    entries, scores = [], {}
    by_ability = {a: cells.get((lang, a, mode), {}) for a in ABILITIES}
    for ability in ABILITIES:
        values = ability_value(ability, mode, by_ability)
        for metric, v in values.items():
            definition = (
                DEFINITIONS[(ability, mode)] if metric == "score" else COMPANION_DEFINITIONS[metric]
            )
            entries.append(entry(lang, mode, ability, metric, v, definition))
        scores[ability] = values["score"]
    total = overall(lang, scores)
    entries.append(entry(lang, mode, "overall", "score", total, DEFINITIONS[("overall", mode)]))
    scores["overall"] = total
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


def overall_difference(diffs: dict[str, Value]) -> Value:
    """zh - en over the same abilities: the mean of the per-ability differences of the abilities
    scored in both languages (a difference of overalls over different abilities compares
    nothing). Complete only when all four are, in both languages."""
    common = [a for a in ABILITIES if diffs[a].value is not None]
    if not common:
        return Value(None, None, set(), False, "no ability scored in both languages")
    mean = combine([diffs[a] for a in common], len(ABILITIES))
    if len(common) < len(ABILITIES):
        mean.note = "over " + ", ".join(common) + " only (the abilities scored in both languages)"
    return mean


def _difference_entries(mode: Mode, by_lang: dict[Lang, dict[str, Value]]) -> list[ScoreEntry]:
    if not all(lang in by_lang for lang in LANGS):
        return []
    diffs = {a: difference(by_lang["zh"][a], by_lang["en"][a]) for a in ABILITIES}
    out = []
    total = overall_difference(diffs)
    if total.value is not None:
        out.append(entry(DIFF_LANG, mode, "overall", "score", total, DIFF_OVERALL_DEFINITION))
    for ability in ABILITIES:
        d, zh, en = diffs[ability], by_lang["zh"][ability], by_lang["en"][ability]
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
        totals = [by_lang[lang]["overall"] for lang in LANGS if lang in by_lang]
        if len(totals) == len(LANGS) and all(t.value is not None for t in totals):
            both = combine(totals, len(LANGS))
        else:
            missing = [
                lang
                for lang in LANGS
                if lang not in by_lang or by_lang[lang]["overall"].value is None
            ]
            both = Value(None, None, set(), False, "no overall score for " + ", ".join(missing))
        entries.append(entry("all", mode, "overall", "score", both, ALL_DEFINITION))
        entries += _difference_entries(mode, by_lang)
    return entries

"""Per-cell metrics, ability scores and overall scores, with cluster-bootstrap confidence intervals.

Cells are (language, ability, noise rate, mode). Ability scores follow the RGB paper's abilities;
the `definition` strings below are what the site shows, so they are the documentation of record.
A generation failure (error set) counts as an incorrect, non-rejecting, non-detecting answer.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.bootstrap import (
    CONFIDENCE,
    METHOD,
    draw_weights,
    mcnemar_exact,
    percentile_ci,
    ratio_replicates,
    rng_for,
)
from leaderboard.errors import ResultsError
from leaderboard.schema import Bootstrap, CellMetrics, ScoreEntry
from leaderboard.scoring import score_both
from leaderboard.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    MODES,
    Ability,
    Lang,
    Mode,
    Score,
    TestInstance,
)

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


@dataclass(frozen=True)
class SplitInfo:
    """The data file behind a (language, ability) split, as the runner resolved it."""

    data_file: str
    data_complete: bool
    expected_n: int


@dataclass(frozen=True)
class ScoredItem:
    instance: TestInstance
    prediction: str
    error: str | None
    scores: dict[Mode, Score]


def _failed(instance: TestInstance, mode: Mode) -> Score:
    return Score(
        labels=(0,) * len(instance.answer),
        correct=False,
        rejected=False,
        error_detected=False,
        token_f1=0.0 if mode == "strict" else None,
    )


def effective_score(item: ScoredItem, mode: Mode) -> Score:
    """The item's score, or an all-wrong one when generation failed (whatever was scored for it)."""
    return _failed(item.instance, mode) if item.error is not None else item.scores[mode]


def scored_items(pairs: Iterable[tuple[TestInstance, str, str | None]]) -> list[ScoredItem]:
    """Score (instance, prediction, error) triples in both modes."""
    out = []
    for inst, pred, err in pairs:
        scores = {m: _failed(inst, m) for m in MODES} if err is not None else score_both(pred, inst)
        out.append(ScoredItem(inst, pred, err, scores))
    return out


def corrected(score: Score, mode: Mode) -> bool:
    """Counterfactual: detected the error and gave the answer (rgb: the reference's `0 not in
    label`)."""
    if not score.error_detected:
        return False
    return 0 not in score.labels if mode == "rgb" else score.correct


# ------------------------------------------------------------------------------------ data layout


@dataclass
class _Group:
    """The question ids of one data file of one language, and their shared bootstrap draws."""

    ids: list[int]
    index: dict[int, int]
    weights: np.ndarray


def _groups(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int,
    seed: int,
) -> dict[tuple[Lang, str], _Group]:
    ids: dict[tuple[Lang, str], set[int]] = defaultdict(set)
    for it in items:
        ids[(it.instance.lang, splits[(it.instance.lang, it.instance.ability)].data_file)].add(
            it.instance.id
        )
    out = {}
    for (lang, data_file), s in sorted(ids.items()):
        ordered = sorted(s)
        rng = rng_for(seed, f"{lang}/{data_file}")
        out[(lang, data_file)] = _Group(
            ordered,
            {i: k for k, i in enumerate(ordered)},
            draw_weights(len(ordered), resamples, rng),
        )
    return out


def _check(items: Sequence[ScoredItem], splits: Mapping[tuple[Lang, Ability], SplitInfo]) -> None:
    seen: set[str] = set()
    for it in items:
        key = it.instance.key
        if key in seen:
            raise ResultsError(f"instance {key} is scored twice; keep one prediction per instance")
        seen.add(key)
        if (it.instance.lang, it.instance.ability) not in splits:
            raise ResultsError(
                f"instance {key}: no data split for {it.instance.lang}/{it.instance.ability} was "
                "given to compute_metrics; pass its SplitInfo (data file, completeness, expected n)"
            )


# ------------------------------------------------------------------------------------------ cells


@dataclass
class _Cell:
    """One cell's per-id vectors (aligned with its group's ids) and the resulting schema row."""

    metrics: CellMetrics
    group: _Group
    present: np.ndarray
    values: dict[str, np.ndarray]

    def replicates(
        self, name: str, denominator: str | None = None, empty: float = np.nan
    ) -> np.ndarray:
        den = self.present if denominator is None else self.values[denominator]
        return ratio_replicates(self.group.weights, self.values[name], den, empty)


def _mean(x: np.ndarray, m: np.ndarray) -> float:
    return float(x[m > 0].mean()) if m.any() else float("nan")


def _cell(
    lang: Lang,
    ability: Ability,
    rate: float,
    mode: Mode,
    cell_items: list[ScoredItem],
    group: _Group,
    split: SplitInfo,
) -> _Cell:
    n_ids = len(group.ids)
    present = np.zeros(n_ids)
    names = ("correct", "rejected", "detected", "corrected", "f1")
    vals = {k: np.zeros(n_ids) for k in names}
    for it in cell_items:
        k = group.index[it.instance.id]
        s = effective_score(it, mode)
        present[k] = 1
        vals["correct"][k] = s.correct
        vals["rejected"][k] = s.rejected
        vals["detected"][k] = s.error_detected
        vals["corrected"][k] = corrected(s, mode)
        vals["f1"][k] = s.token_f1 or 0.0
    cell = _Cell(None, group, present, vals)  # type: ignore[arg-type]
    n = len(cell_items)
    w = group.weights.shape[0] > 0

    def ci(name: str, den: str | None = None, empty: float = np.nan):
        return percentile_ci(cell.replicates(name, den, empty)) if w else None

    fact = ability == "counterfactual"
    n_detected = int(vals["detected"].sum())
    cr_empty = (
        0.0 if mode == "rgb" else np.nan
    )  # the reference reports CR = 0 when nothing was detected
    cr_value = (
        vals["corrected"].sum() / n_detected if n_detected else (0.0 if mode == "rgb" else None)
    )
    cell.metrics = CellMetrics(
        lang=lang,
        ability=ability,
        noise_rate=rate,
        mode=mode,
        n=n,
        n_errors=sum(it.error is not None for it in cell_items),
        expected_n=split.expected_n,
        data_file=split.data_file,
        data_complete=split.data_complete,
        accuracy=_mean(vals["correct"], present),
        accuracy_ci=ci("correct"),
        rejection_rate=_mean(vals["rejected"], present),
        rejection_rate_ci=ci("rejected"),
        over_refusal_rate=_mean(vals["rejected"], present) if rate < 1 and not fact else None,
        ed=_mean(vals["detected"], present) if fact else None,
        ed_ci=ci("detected") if fact else None,
        cr=float(cr_value) if fact and cr_value is not None else None,
        cr_ci=ci("corrected", "detected", cr_empty) if fact else None,
        cr_all=_mean(vals["corrected"], present) if fact else None,
        mean_output_chars=float(np.mean([len(it.prediction) for it in cell_items])),
        token_f1=_mean(vals["f1"], present) if mode == "strict" else None,
        token_f1_ci=ci("f1") if mode == "strict" else None,
    )
    return cell


# ---------------------------------------------------------------------------------------- scores


@dataclass
class _Value:
    """A score with its bootstrap replicates (None without resamples) and what it rests on."""

    value: float | None
    reps: np.ndarray | None
    questions: set[tuple[str, int]]
    complete: bool


def _cell_complete(c: CellMetrics) -> bool:
    return c.data_complete and c.n >= c.expected_n


def _combine(parts: list[_Value], expected: int) -> _Value:
    """Mean of the available values (and of their replicates); complete only if all expected are."""
    have = [p for p in parts if p.value is not None]
    if not have:
        return _Value(None, None, set(), False)
    reps = None
    if all(p.reps is not None for p in have):
        with warnings.catch_warnings():  # an all-NaN replicate column stays NaN (ignored by the CI)
            warnings.simplefilter("ignore", RuntimeWarning)
            reps = np.nanmean(np.vstack([p.reps for p in have]), axis=0)
    questions = set().union(*(p.questions for p in have))
    complete = len(have) == expected and all(p.complete for p in have)
    return _Value(float(np.mean([p.value for p in have])), reps, questions, complete)


def _ability_value(ability: Ability, mode: Mode, cells: dict[float, _Cell]) -> dict[str, _Value]:
    """The ranking score ("score") of one ability and its companion metrics."""
    rates = DEFAULT_NOISE_RATES[ability]
    present = [cells[r] for r in rates if r in cells]
    full = len(present) == len(rates) and all(_cell_complete(c.metrics) for c in present)

    def qs(cs: list[_Cell]) -> set[tuple[str, int]]:
        return {
            (c.metrics.data_file, i)
            for c in cs
            for i, p in zip(c.group.ids, c.present, strict=True)
            if p
        }

    def val(v: float | None, reps: np.ndarray | None) -> _Value:
        return _Value(v, reps, qs(present), full)

    boot = bool(present) and present[0].group.weights.shape[0] > 0
    if not present:
        return {"score": _Value(None, None, set(), False)}
    if ability in ("noise", "integration"):
        parts = [
            val(c.metrics.accuracy, c.replicates("correct") if boot else None) for c in present
        ]
        mean = _combine(parts, len(parts))
        mean.complete = full
        return {"score": mean}
    c = present[0]
    if ability == "rejection":
        return {"score": val(c.metrics.rejection_rate, c.replicates("rejected") if boot else None)}
    cr_empty = 0.0 if mode == "rgb" else np.nan
    ed = val(c.metrics.ed, c.replicates("detected") if boot else None)
    cr = val(c.metrics.cr, c.replicates("corrected", "detected", cr_empty) if boot else None)
    cr_all = val(c.metrics.cr_all, c.replicates("corrected") if boot else None)
    second = cr if mode == "rgb" else cr_all
    if second.value is None:  # strict CR is undefined with no detection; cr_all never is
        second = cr_all
    score = _combine([ed, second], 2)
    score.complete = full
    return {"score": score, "ed": ed, "cr": cr, "cr_all": cr_all}


def _entry(
    lang: str, mode: Mode, ability: str, metric: str, v: _Value, definition: str
) -> ScoreEntry:
    return ScoreEntry(
        lang=lang,  # type: ignore[arg-type]
        mode=mode,
        ability=ability,  # type: ignore[arg-type]
        metric=metric,
        value=v.value,
        ci=percentile_ci(v.reps) if v.value is not None else None,
        n_questions=len(v.questions),
        complete=v.complete,
        definition=definition,
    )


# ---------------------------------------------------------------------------------------- public


def compute_metrics(
    items: Sequence[ScoredItem],
    splits: Mapping[tuple[Lang, Ability], SplitInfo],
    resamples: int = 1000,
    seed: int = 2333,
) -> tuple[list[CellMetrics], list[ScoreEntry], Bootstrap]:
    """Cells for every (lang, ability, noise rate, mode) present, ability/overall scores, bootstrap
    info."""
    _check(items, splits)
    groups = _groups(items, splits, resamples, seed)
    by_cell: dict[tuple[Lang, Ability, float], list[ScoredItem]] = defaultdict(list)
    for it in items:
        by_cell[(it.instance.lang, it.instance.ability, float(it.instance.noise_rate))].append(it)
    order = {a: i for i, a in enumerate(ABILITIES)}
    keys = sorted(by_cell, key=lambda k: (LANGS.index(k[0]), order[k[1]], k[2]))
    cells: dict[tuple[Lang, Ability, Mode], dict[float, _Cell]] = defaultdict(dict)
    rows: list[CellMetrics] = []
    for mode in MODES:
        for lang, ability, rate in keys:
            split = splits[(lang, ability)]
            c = _cell(
                lang,
                ability,
                rate,
                mode,
                by_cell[(lang, ability, rate)],
                groups[(lang, split.data_file)],
                split,
            )
            cells[(lang, ability, mode)][rate] = c
            rows.append(c.metrics)
    entries: list[ScoreEntry] = []
    langs = [lang for lang in LANGS if any(k[0] == lang for k in keys)]
    for mode in MODES:
        overall: list[_Value] = []
        for lang in langs:
            abilities = []
            for ability in ABILITIES:
                values = _ability_value(ability, mode, cells.get((lang, ability, mode), {}))
                for metric, v in values.items():
                    definition = (
                        DEFINITIONS[(ability, mode)]
                        if metric == "score"
                        else COMPANION_DEFINITIONS[metric]
                    )
                    entries.append(_entry(lang, mode, ability, metric, v, definition))
                abilities.append(values["score"])
            lang_value = _combine(abilities, len(ABILITIES))
            overall.append(lang_value)
            entries.append(
                _entry(lang, mode, "overall", "score", lang_value, DEFINITIONS[("overall", mode)])
            )
        both = _combine(overall, len(LANGS))
        entries.append(_entry("all", mode, "overall", "score", both, ALL_DEFINITION))
    boot = Bootstrap(method=METHOD, resamples=resamples, seed=seed, confidence=CONFIDENCE)
    return rows, entries, boot


# -------------------------------------------------------------------------------- paired compare


@dataclass(frozen=True)
class PairedComparison:
    """Model A versus model B on the instances both answered (difference = A - B)."""

    mode: Mode
    n: int  # matched instances
    n_only_a: int  # instances only A answered (ignored)
    n_only_b: int
    rate_a: float | None
    rate_b: float | None
    diff: float | None
    ci: tuple[float, float] | None
    a_only: int  # A succeeds, B fails (discordant)
    b_only: int
    p_value: float  # exact McNemar on the discordant pairs
    resamples: int
    seed: int


def success(item: ScoredItem, mode: Mode) -> bool:
    """The per-instance outcome compared: what each ability's score counts.

    noise / integration: correct; rejection: rejected; counterfactual: detected the error and
    corrected it (so the comparison is on one binary outcome McNemar can test).
    """
    s = effective_score(item, mode)
    ability = item.instance.ability
    if ability == "rejection":
        return s.rejected
    if ability == "counterfactual":
        return corrected(s, mode)
    return s.correct


def _cluster(inst: TestInstance) -> tuple[str, str, int]:
    family = "refine" if inst.ability in ("noise", "rejection") else inst.ability
    return inst.lang, family, inst.id


def paired_compare(
    a: Sequence[ScoredItem],
    b: Sequence[ScoredItem],
    mode: Mode,
    resamples: int = 2000,
    seed: int = 2333,
) -> PairedComparison:
    """Paired difference of success rates with a cluster-bootstrap CI, and the exact McNemar
    p-value."""
    amap = {it.instance.key: it for it in a}
    bmap = {it.instance.key: it for it in b}
    keys = sorted(amap.keys() & bmap.keys())
    sa = np.array([success(amap[k], mode) for k in keys], dtype=float)
    sb = np.array([success(bmap[k], mode) for k in keys], dtype=float)
    a_only = int(((sa == 1) & (sb == 0)).sum())
    b_only = int(((sa == 0) & (sb == 1)).sum())
    ci = None
    if keys and resamples > 0:
        clusters = sorted({_cluster(amap[k].instance) for k in keys})
        index = {c: i for i, c in enumerate(clusters)}
        diff_sum = np.zeros(len(clusters))
        count = np.zeros(len(clusters))
        for k, x, y in zip(keys, sa, sb, strict=True):
            j = index[_cluster(amap[k].instance)]
            diff_sum[j] += x - y
            count[j] += 1
        weights = draw_weights(len(clusters), resamples, rng_for(seed, "paired"))
        ci = percentile_ci(ratio_replicates(weights, diff_sum, count))
    return PairedComparison(
        mode=mode,
        n=len(keys),
        n_only_a=len(amap.keys() - bmap.keys()),
        n_only_b=len(bmap.keys() - amap.keys()),
        rate_a=float(sa.mean()) if keys else None,
        rate_b=float(sb.mean()) if keys else None,
        diff=float(sa.mean() - sb.mean()) if keys else None,
        ci=ci,
        a_only=a_only,
        b_only=b_only,
        p_value=mcnemar_exact(a_only, b_only),
        resamples=resamples,
        seed=seed,
    )

"""P@k, R@k, MRR and NDCG@k with ir-measures (trec_eval definitions), bootstrap CIs over questions
and the paired comparison of two retrievers.

The run handed to ir-measures scores each ranked passage by (length - position), not by the
retriever's raw score: trec_eval re-sorts by score and breaks ties by doc id, which would silently
reorder tied passages; this way the evaluated order is exactly the retriever's. Questions without a
relevant passage (corpus setting: no chunk holds an answer string) have no defined recall or MRR:
they are left out and counted. CIs resample questions (the clusters: one value per question per
metric), drawn as in leaderboard.stats.bootstrap (the same weight-matrix scheme, restated here
because retrieval and stats are one layer and do not import each other); the draws are shared by
every metric of a result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.stats.bootstrap import (
    CONFIDENCE,
    draw_weights,
    percentile_ci,
    ratio_replicates,
    rng_for,
)

KS = (1, 3, 5, 10)
METRICS = (
    *(f"P@{k}" for k in KS),
    *(f"R@{k}" for k in KS),
    "MRR",
    *(f"NDCG@{k}" for k in KS),
)
RESAMPLES = 2000
SEED = 2333
METHOD = "percentile bootstrap, resampling questions (one set of draws per result)"


def mean_replicates(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each replicate's mean of the per-question values (the questions are the clusters)."""
    return ratio_replicates(weights, values, np.ones(len(values)))


def _ir_name(metric: str, rel: int) -> str:
    """Our metric name -> ir-measures' (binary metrics at relevance level `rel`)."""
    r = "" if rel == 1 else f"(rel={rel})"
    if metric == "MRR":
        return f"RR{r}"
    kind, k = metric.split("@")
    if kind == "NDCG":
        return f"nDCG@{k}"
    return f"{kind}{r}@{k}"


def per_question(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Sequence[str]],
    rel: int = 1,
) -> tuple[dict[str, dict[str, float]], list[str]]:
    """metric -> question id -> value, for questions with at least one passage of grade >= rel;
    and the ids left out for having none."""
    import ir_measures  # deferred: loads pytrec_eval's C extension

    evaluated = [q for q in run if any(g >= rel for g in qrels.get(q, {}).values())]
    skipped = [q for q in run if q not in set(evaluated)]
    names = {m: _ir_name(m, rel) for m in METRICS}
    measures = {ir_measures.parse_measure(n): m for m, n in names.items()}
    ir_run = {q: {d: float(len(run[q]) - i) for i, d in enumerate(run[q])} for q in evaluated}
    ir_qrels = {q: {d: int(g) for d, g in qrels[q].items()} for q in evaluated}
    out: dict[str, dict[str, float]] = {m: {} for m in METRICS}
    for q in evaluated:  # a question whose run is empty still counts, with zeros
        for m in METRICS:
            out[m][q] = 0.0
    if evaluated:
        for row in ir_measures.iter_calc(list(measures), ir_qrels, ir_run):
            out[measures[row.measure]][row.query_id] = float(row.value)
    return out, skipped


@dataclass(frozen=True)
class Summary:
    mean: float | None
    ci: tuple[float, float] | None


def summarise(
    values: Mapping[str, Mapping[str, float]], resamples: int = RESAMPLES, seed: int = SEED
) -> dict[str, Summary]:
    """Mean and percentile-bootstrap CI of each metric; one set of question draws for all."""
    qids = sorted(next(iter(values.values()), {}))
    weights = draw_weights(len(qids), resamples, rng_for(seed, "retrieval"))
    out = {}
    for metric, per_q in values.items():
        x = np.array([per_q[q] for q in qids], dtype=float)
        if not qids:
            out[metric] = Summary(None, None)
            continue
        reps = mean_replicates(weights, x) if resamples > 0 else None
        out[metric] = Summary(float(x.mean()), percentile_ci(reps))
    return out


@dataclass(frozen=True)
class PairedResult:
    """Retriever A minus retriever B on the questions both were evaluated on."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    diff: float
    ci: tuple[float, float] | None
    p_value: float  # two-sided paired permutation (sign-flip) test
    a_better: int
    b_better: int
    ties: int
    resamples: int
    seed: int
    confidence: float = CONFIDENCE


def paired(
    a: Mapping[str, float],
    b: Mapping[str, float],
    metric: str,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> PairedResult:
    """Bootstrap CI of the mean per-question difference and a sign-flip permutation p-value."""
    qids = sorted(a.keys() & b.keys())
    if not qids:
        raise ValueError("the two results share no evaluated question")
    d = np.array([a[q] - b[q] for q in qids], dtype=float)
    weights = draw_weights(len(qids), resamples, rng_for(seed, "retrieval-paired"))
    ci = percentile_ci(mean_replicates(weights, d))
    signs = rng_for(seed, "retrieval-permutation").choice((-1.0, 1.0), size=(resamples, len(qids)))
    null = np.abs((signs * d).mean(axis=1))
    observed = abs(d.mean())
    p = float((1 + np.sum(null >= observed - 1e-12)) / (1 + resamples))
    return PairedResult(
        metric=metric,
        n=len(qids),
        mean_a=float(np.mean([a[q] for q in qids])),
        mean_b=float(np.mean([b[q] for q in qids])),
        diff=float(d.mean()),
        ci=ci,
        p_value=min(1.0, p),
        a_better=int((d > 1e-12).sum()),
        b_better=int((d < -1e-12).sum()),
        ties=int((np.abs(d) <= 1e-12).sum()),
        resamples=resamples,
        seed=seed,
    )


def unpaired_diff(
    a: Mapping[str, float], b: Mapping[str, float], resamples: int = RESAMPLES, seed: int = SEED
) -> Summary:
    """mean(a) - mean(b) for two different question sets (zh versus en): each side resampled with
    its own draws, replicate k of a minus replicate k of b."""
    if not a or not b:
        return Summary(None, None)
    xa = np.array([a[q] for q in sorted(a)], dtype=float)
    xb = np.array([b[q] for q in sorted(b)], dtype=float)
    wa = draw_weights(len(xa), resamples, rng_for(seed, "retrieval-a"))
    wb = draw_weights(len(xb), resamples, rng_for(seed, "retrieval-b"))
    reps = mean_replicates(wa, xa) - mean_replicates(wb, xb)
    return Summary(float(xa.mean() - xb.mean()), percentile_ci(reps))

"""Results assembly: score every planned prediction (both modes), compute metrics, and gather
the facts of the run (`provenance.RunFacts`) that `provenance.build_provenance` turns into the
block making a results.json reproducible from its submission alone.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from leaderboard.backends.base import Backend
from leaderboard.backends.registry import backend_traits
from leaderboard.core.checkout import repo_relative
from leaderboard.core.schema import CellMetrics, ConflictCoverage, PredictionRecord, Results
from leaderboard.core.submission import Submission
from leaderboard.core.types import PROBES, TestInstance
from leaderboard.data.records import kind_for_ability, load_records
from leaderboard.data.splits import SplitSource
from leaderboard.protocol.conflicts import condition_ids
from leaderboard.protocol.corpus import corpus_from_records
from leaderboard.run import provenance as prov
from leaderboard.run.chain_retriever import probes_provenance
from leaderboard.run.generate import GenStats
from leaderboard.run.plan import Plan, PlannedSplit
from leaderboard.scoring.audit import answer_in_passages
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results

BOOTSTRAP_SEED = 2333


def shown_instance(
    instance: TestInstance, rec: PredictionRecord, corpus: Mapping[str, str] | None
) -> TestInstance:
    """The instance as scored: for a `system` prediction, with the passages the system says it
    used (looked up by id in the exported corpus; unknown ids count as no passage). The one
    home of this rule: results.json, `verify`, the disagreement audit and the systems' paired
    comparisons all judge a system's answer on these passages."""
    if rec.passage_ids is None or corpus is None:
        return instance
    ids = [i for i in rec.passage_ids if i in corpus]
    return dataclasses.replace(instance, docs=tuple(corpus[i] for i in ids), sources=tuple(ids))


def chain_corpus(source: SplitSource) -> dict[str, str]:
    """Passage id -> text of the corpus `corpus export` writes for one chain split's data file."""
    records = load_records(source.path, kind=kind_for_ability("chain"))
    return {p.id: p.text for p in corpus_from_records(records, source.lang)}


def system_corpus(sub: Submission, plan: Plan) -> dict[str, str] | None:
    """Passage id -> text of the corpora `corpus export` writes for the chain's data files, to
    resolve the ids a `system` submission returned (None for any other backend)."""
    if not backend_traits(sub.backend).retrieves_itself:
        return None
    out: dict[str, str] = {}
    for s in plan.splits:
        if s.ability == "chain":
            out |= chain_corpus(s.source)
    return out


def _score(
    plan: Plan, records: dict[str, PredictionRecord], corpus: Mapping[str, str] | None = None
) -> list:
    """Both scoring modes for every planned instance that has a prediction (errors included),
    with the answer's mean log-probability where it was recorded (for risk-coverage)."""
    keys = [it.instance.key for it in plan.items if it.instance.key in records]
    items = scored_items(
        (
            shown_instance(it.instance, records[it.instance.key], corpus),
            records[it.instance.key].prediction,
            records[it.instance.key].error,
        )
        for it in plan.items
        if it.instance.key in records
    )
    return [
        dataclasses.replace(item, mean_logprob=records[key].mean_logprob)
        if records[key].mean_logprob is not None
        else item
        for item, key in zip(items, keys, strict=True)
    ]


def planned_answers(sub: Submission, plan: Plan, records: dict[str, PredictionRecord]) -> list:
    """Every planned answer as (instance with the passages shown, prediction, generation error),
    unscored: what `verify` hands the statement judge's check without scoring again."""
    corpus = system_corpus(sub, plan)
    return [
        (
            shown_instance(it.instance, records[key], corpus),
            records[key].prediction,
            records[key].error,
        )
        for it in plan.items
        if (key := it.instance.key) in records
    ]


def score_planned(sub: Submission, plan: Plan, records: dict[str, PredictionRecord]) -> list:
    """Every planned answer scored as results.json scores it (a system's answers against the
    passages it says it used): what `grounding --answers` lists answer by answer."""
    return _score(plan, records, system_corpus(sub, plan))


def _split_infos(plan: Plan) -> dict[tuple[str, str], object]:
    return {
        (s.lang, s.ability): SplitInfo(
            s.source.name,
            bool(s.source.complete),
            int(s.source.expected_n),
            answer_shown=_answer_shown(s),
        )
        for s in plan.splits
    }


def _answer_shown(split: PlannedSplit) -> frozenset[int]:
    """Rejection instances whose passages (all noise) hold the whole answer after all."""
    if split.ability != "rejection":
        return frozenset()
    return frozenset(
        it.instance.id
        for it in split.items
        if answer_in_passages(it.instance.answer, it.instance.docs, it.instance.lang)
    )


def _partial_reasons(
    plan: Plan, records: dict[str, PredictionRecord], cells: list[CellMetrics]
) -> list[str]:
    if plan.conflicts is not None:
        return _conflict_coverage(plan, records)
    reasons = [repo_relative(r) for r in plan.partial_reasons]
    missing = [it.instance.key for it in plan.items if it.instance.key not in records]
    if missing:
        reasons.append(f"{len(missing)} planned instances have no prediction (first: {missing[0]})")
    for c in cells:
        if c.mode == "rgb" and c.n < c.expected_n:
            reasons.append(f"{c.lang}/{c.ability}/{c.noise_rate:.1f}: n={c.n} of {c.expected_n}")
    return reasons


def _answered_by_condition(
    plan: Plan, records: dict[str, PredictionRecord]
) -> dict[tuple[str, str], int]:
    """(language, condition) -> how many of a conflict plan's instances have an answer."""
    return dict(
        Counter(
            (it.instance.lang, it.instance.condition)
            for it in plan.items
            if it.instance.key in records
        )
    )


def _conflict_coverage(plan: Plan, records: dict[str, PredictionRecord]) -> list[str]:
    """What a conflict folder's answers lack of the instruction's whole panel, in the languages
    it has answers in: one line per (language, condition) short of its eligible questions."""
    answered = _answered_by_condition(plan, records)
    langs = {lang for lang, _ in answered}
    return [
        f"{lang}/conflict/{cond}: n={answered.get((lang, cond), 0)} of {n}"
        for (lang, cond), n in plan.expected.items()
        if lang in langs and answered.get((lang, cond), 0) < n
    ]


def _probes_extra(sub: Submission, plan: Plan) -> dict[str, object]:
    """How the probe instances were built, when the results hold any."""
    langs = sorted({s.lang for s in plan.splits if s.ability in PROBES})
    if not langs:
        return {}
    own = backend_traits(sub.backend).retrieves_itself
    return {"probes": probes_provenance(langs, sub.run.passage_num, own)}  # type: ignore[arg-type]


def _data_choices(plan: Plan) -> dict[str, object]:
    """What `verify` rebuilds the instances with: the partial-data choice, the limit and, for an
    alternative of the instruction track only, its id (the official runs' records stay as
    they were)."""
    choices: dict[str, object] = {
        "allow_partial_data": plan.allow_partial_data,
        "limit": plan.limit,
    }
    if plan.instruction is not None:
        choices["instruction"] = plan.instruction
    if plan.conflicts is not None:
        # every condition the folder may hold: its answers are rebuilt over all of them
        choices["conflicts"] = list(condition_ids())
    return choices


def assemble_results(
    sub: Submission,
    plan: Plan,
    records: dict[str, PredictionRecord],
    fp: str,
    stats: GenStats,
    backend: Backend | None,
    previous: Results | None,
    *,
    started: str,
    wall_s: float,
    command: str | None,
    resamples: int,
    data_parallel: dict[str, object] | None = None,
    out_dir: Path | None = None,
    shards: Sequence[Results] = (),
) -> Results:
    """Score every prediction in the plan (both modes), compute metrics, attach provenance."""
    scored = score_planned(sub, plan, records)
    metrics = compute_results(scored, _split_infos(plan), resamples=resamples, seed=BOOTSTRAP_SEED)
    cells, scores, bootstrap = metrics.cells, metrics.scores, metrics.bootstrap
    reasons = _partial_reasons(plan, records, cells)
    in_plan = [records[it.instance.key] for it in plan.items if it.instance.key in records]
    # the files of the splits the results hold predictions of: what `verify` rebuilds from, so a
    # run narrowed by --languages/--abilities over a folder of other predictions records the same
    used = {(r.lang, r.ability) for r in in_plan}
    facts = prov.RunFacts(
        sub=sub,
        fingerprint=fp,
        records=in_plan,
        data_files={
            s.source.name: (s.source.blob_id or f"unverified:{s.source.file_blob_id}")
            for s in plan.splits
            if (s.lang, s.ability) in used
        },
        skipped=tuple(repo_relative(s) for s in plan.skipped),
        data_choices=_data_choices(plan),
        probes=_probes_extra(sub, plan),
        stats=stats,
        backend=backend,
        previous=previous,
        started=started,
        wall_s=wall_s,
        command=command,
        bootstrap_seed=BOOTSTRAP_SEED,
        data_parallel=data_parallel,
        out_dir=out_dir,
        shards=tuple(shards),
    )
    provenance = prov.build_provenance(facts)
    return Results(
        submission_id=sub.id,
        display_name=sub.display_name,
        partial=bool(reasons),
        partial_reasons=reasons,
        provenance=provenance,
        bootstrap=bootstrap,
        cells=cells,
        scores=scores,
        probes=metrics.probes,
        outcomes=metrics.outcomes,
        truthfulness=metrics.truthfulness,
        risk_coverage=metrics.risk_coverage,
        conflicts=metrics.conflicts,
        conflict_effects=metrics.conflict_effects,
        conflict_coverage=_conflict_coverage_rows(plan, records),
        grounding=metrics.grounding,
        grounding_scores=metrics.grounding_scores,
        conflict_grounding=metrics.conflict_grounding,
        conflict_grounding_scores=metrics.conflict_grounding_scores,
    )


def _conflict_coverage_rows(
    plan: Plan, records: dict[str, PredictionRecord]
) -> list[ConflictCoverage]:
    """Per (language, condition) of a conflict folder's panel, in the languages it has answers
    in: eligible questions, those left out, the answers held."""
    if plan.conflicts is None:
        return []
    answered = _answered_by_condition(plan, records)
    langs = {lang for lang, _ in answered}
    left: dict[tuple[str, str], int] = {}
    for o in plan.left_out:
        left[(o.lang, o.condition)] = left.get((o.lang, o.condition), 0) + 1
    return [
        ConflictCoverage(
            lang=lang,  # type: ignore[arg-type]
            condition=cond,
            eligible=n,
            left_out=left.get((lang, cond), 0),
            answered=answered.get((lang, cond), 0),
        )
        for (lang, cond), n in plan.expected.items()
        if lang in langs
    ]

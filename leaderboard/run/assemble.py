"""Results assembly: score every planned prediction (both modes), compute metrics and attach the
provenance that makes a results.json reproducible from its submission alone.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from pathlib import Path

from leaderboard import __version__
from leaderboard.backends.base import Backend, description_dict
from leaderboard.backends.environment import device_name
from leaderboard.core.schema import CellMetrics, PredictionRecord, Provenance, Results
from leaderboard.core.submission import Submission
from leaderboard.core.types import PROBES
from leaderboard.core.versions import versions
from leaderboard.data.records import kind_for_ability, load_records
from leaderboard.protocol.corpus import corpus_from_records
from leaderboard.run import provenance as prov
from leaderboard.run.generate import GenStats
from leaderboard.run.plan import Plan, PlannedSplit
from leaderboard.run.probes import probes_provenance
from leaderboard.scoring.audit import answer_in_passages
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results
from leaderboard.stats.version import scoring_version

BOOTSTRAP_SEED = 2333


def _shown(instance, rec: PredictionRecord, corpus: Mapping[str, str] | None):
    """The instance as scored: for a `system` prediction, with the passages the system says it
    used (looked up by id in the exported corpus; unknown ids count as no passage)."""
    if rec.passage_ids is None or corpus is None:
        return instance
    ids = [i for i in rec.passage_ids if i in corpus]
    return dataclasses.replace(instance, docs=tuple(corpus[i] for i in ids), sources=tuple(ids))


def system_corpus(sub: Submission, plan: Plan) -> dict[str, str] | None:
    """Passage id -> text of the corpora `corpus export` writes for the chain's data files, to
    resolve the ids a `system` submission returned (None for any other backend)."""
    if sub.backend != "system":
        return None
    out: dict[str, str] = {}
    for s in plan.splits:
        if s.ability == "chain":
            records = load_records(s.source.path, kind=kind_for_ability("chain"))
            out |= {p.id: p.text for p in corpus_from_records(records, s.lang)}
    return out


def _score(
    plan: Plan, records: dict[str, PredictionRecord], corpus: Mapping[str, str] | None = None
) -> list:
    """Both scoring modes for every planned instance that has a prediction (errors included)."""
    return scored_items(
        (
            _shown(it.instance, records[it.instance.key], corpus),
            records[it.instance.key].prediction,
            records[it.instance.key].error,
        )
        for it in plan.items
        if it.instance.key in records
    )


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


def backend_info(backend: Backend | None, previous: Results | None) -> dict[str, object]:
    """The backend's own description; with no backend, what the run that generated recorded."""
    if backend is not None:
        return dict(prov.jsonable(description_dict(backend.describe())))  # type: ignore[arg-type]
    if previous is not None:  # nothing generated: keep what the run that generated recorded
        p = previous.provenance
        return {
            "chat_template_sha256": p.chat_template_sha256,
            "chat_template_source": p.chat_template_source,
            "device": p.device,
            "batch_size": p.batch_size,
            "model_revision": p.model_revision,
            **({"described_by_previous_run": True}),
        }
    return {}


def _partial_reasons(
    plan: Plan, records: dict[str, PredictionRecord], cells: list[CellMetrics]
) -> list[str]:
    reasons = [prov.repo_relative(r) for r in plan.partial_reasons]
    missing = [it.instance.key for it in plan.items if it.instance.key not in records]
    if missing:
        reasons.append(f"{len(missing)} planned instances have no prediction (first: {missing[0]})")
    for c in cells:
        if c.mode == "rgb" and c.n < c.expected_n:
            reasons.append(f"{c.lang}/{c.ability}/{c.noise_rate:.1f}: n={c.n} of {c.expected_n}")
    return reasons


def _invocation_extra(stats: GenStats, wall_s: float) -> dict[str, object]:
    """What this invocation did (a resumed run's results cover more than it generated)."""
    return {
        "generated_prompts": stats.generated,
        "recorded": stats.recorded,
        "reused_identical_prompts": stats.reused,
        "errors": stats.errors,
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "overhead_share": round(1 - stats.model_time_s / wall_s, 4) if wall_s > 0 else None,
    }


def _probes_extra(sub: Submission, plan: Plan) -> dict[str, object]:
    """How the probe instances were built, when the results hold any."""
    langs = sorted({s.lang for s in plan.splits if s.ability in PROBES})
    if not langs:
        return {}
    system = sub.backend == "system"
    return {"probes": probes_provenance(langs, sub.run.passage_num, system)}  # type: ignore[arg-type]


def _provenance(
    sub: Submission,
    plan: Plan,
    in_plan: list[PredictionRecord],
    fp: str,
    stats: GenStats,
    info: dict[str, object],
    *,
    started: str,
    wall_s: float,
    command: str | None,
    data_parallel: dict[str, object] | None = None,
    out_dir: Path | None = None,
    previous: Results | None = None,
) -> Provenance:
    commit, dirty = prov.git_state(ignore=out_dir)
    finished = prov.now_iso()
    device = str(info.get("device") or device_name())
    current = (
        {
            "started": started,
            "finished": finished,
            "git_commit": commit,
            "device": device,
            "build": prov.llama_build(info),
            "generated": stats.generated,
            "answers": stats.recorded,
            **prov.peak_memory(),
        }
        if stats.recorded > 0
        else None
    )
    history = prov.invocation_history(
        previous.provenance.model_dump() if previous is not None else None,
        current,
        [r.created for r in in_plan],
    )
    # the files of the splits the results hold predictions of: what `verify` rebuilds from, so a
    # run narrowed by --languages/--abilities over a folder of other predictions records the same
    used = {(r.lang, r.ability) for r in in_plan}
    sources = {
        s.source.name: (s.source.blob_id or f"unverified:{s.source.file_blob_id}")
        for s in plan.splits
        if (s.lang, s.ability) in used
    }
    tps = (
        (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
        if stats.model_time_s > 0
        else None
    )
    return Provenance(
        package_version=__version__,
        git_commit=commit,
        git_dirty=dirty,
        command=prov.repo_relative(command or " ".join(sys.argv)),
        data_blob_ids=sources,
        model=sub.model,
        model_revision=str(info.get("model_revision") or prov.resolved_revision(sub) or "") or None,
        backend=sub.backend,
        dtype=sub.dtype,
        quantization=sub.quantization.describe(),
        chat_template_sha256=info.get("chat_template_sha256"),  # type: ignore[arg-type]
        chat_template_source=info.get("chat_template_source"),  # type: ignore[arg-type]
        generation=prov.jsonable(sub.generation.model_dump()),  # type: ignore[arg-type]
        seeds={"generation": sub.generation.seed, "bootstrap": BOOTSTRAP_SEED},
        batch_size=info.get("batch_size") or sub.batch_size,  # type: ignore[arg-type]
        fingerprint=fp,
        versions=versions(),
        device=device,
        started=started,
        finished=finished,
        wall_time_s=round(wall_s, 3),
        generation_time_s=round(stats.model_time_s, 3),
        prompt_tokens=sum(r.prompt_tokens or 0 for r in in_plan),
        completion_tokens=sum(r.completion_tokens or 0 for r in in_plan),
        tokens_per_s=round(tps, 2) if tps is not None else None,
        scoring_version=scoring_version(),
        extra={
            "hub_id": sub.hub_id,
            "revision_pinned": sub.revision_pinned,
            "fingerprint_inputs": prov.jsonable(prov.fingerprint_inputs(sub)),
            "this_invocation": _invocation_extra(stats, wall_s),
            # every invocation that generated answers, and on which machine (a resumed run)
            prov.HISTORY_KEY: history,
            "predictions_in_results": len(in_plan),
            "sum_latency_s": round(sum(r.latency_s or 0.0 for r in in_plan), 3),
            "skipped_splits": [prov.repo_relative(s) for s in plan.skipped],
            "backend": info,
            **_probes_extra(sub, plan),
            **({"data_parallel": data_parallel} if data_parallel is not None else {}),
        },
    )


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
) -> Results:
    """Score every prediction in the plan (both modes), compute metrics, attach provenance."""
    scored = _score(plan, records, system_corpus(sub, plan))
    metrics = compute_results(scored, _split_infos(plan), resamples=resamples, seed=BOOTSTRAP_SEED)
    cells, scores, bootstrap = metrics.cells, metrics.scores, metrics.bootstrap
    reasons = _partial_reasons(plan, records, cells)
    info = backend_info(backend, previous)
    in_plan = [records[it.instance.key] for it in plan.items if it.instance.key in records]
    provenance = _provenance(
        sub,
        plan,
        in_plan,
        fp,
        stats,
        info,
        started=started,
        wall_s=wall_s,
        command=command,
        data_parallel=data_parallel,
        out_dir=out_dir,
        previous=previous,
    )
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
    )

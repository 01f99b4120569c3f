"""What a run records about itself: results.json's provenance block (`build_provenance`, from one
`RunFacts`: the one place it is built). The checkout the code came from and repository-relative
paths are `core.checkout`'s, the fingerprint `run.fingerprint`'s, the invocation history
`run.invocations`'.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard import __version__
from leaderboard.backends.base import Backend, BackendDescription
from leaderboard.backends.environment import device_name
from leaderboard.core.checkout import git_state, now_iso, repo_relative
from leaderboard.core.schema import PredictionRecord, Provenance, Results
from leaderboard.core.submission import Submission
from leaderboard.core.versions import versions
from leaderboard.run.fingerprint import fingerprint_inputs, jsonable, resolved_revision
from leaderboard.run.generate import GenStats
from leaderboard.run.invocations import HISTORY_KEY, invocation_history, llama_build, peak_memory
from leaderboard.stats.version import scoring_version

DATA_CHOICES = "data_choices"  # provenance.extra: the run's allow_partial_data and limit


def recorded_conflicts(results: Results) -> tuple[str, ...] | None:
    """The conflict conditions a results.json's answers were made under (None: not a conflict
    run), as the run recorded them among its data choices."""
    choices = results.provenance.extra.get(DATA_CHOICES)
    value = choices.get("conflicts") if isinstance(choices, dict) else None
    return tuple(str(c) for c in value) if isinstance(value, list) else None


def recorded_instruction(results: Results) -> str | None:
    """The alternative instruction a results.json's answers were made under (None: RGB's own),
    as the run recorded it among its data choices."""
    choices = results.provenance.extra.get(DATA_CHOICES)
    value = choices.get("instruction") if isinstance(choices, dict) else None
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------- the provenance block


@dataclass(frozen=True)
class RunFacts:
    """What a results.json provenance block is built from, gathered by `run.assemble`: the
    submission and its fingerprint, the predictions the results hold and the data files they
    came from (file name -> blob id), the splits skipped, the data choices `verify` rebuilds
    with, the probes' construction, this invocation's counters and times, and the backend that
    generated (None: what `previous`, the earlier results.json, recorded)."""

    sub: Submission
    fingerprint: str
    records: Sequence[PredictionRecord]
    data_files: Mapping[str, str]
    skipped: Sequence[str]
    data_choices: Mapping[str, object]
    probes: Mapping[str, object]
    stats: GenStats
    backend: Backend | None
    previous: Results | None
    started: str
    wall_s: float
    command: str | None
    bootstrap_seed: int
    data_parallel: Mapping[str, object] | None = None
    out_dir: Path | None = None
    shards: tuple[Results, ...] = ()  # shard folders folded in by `merge` (run.merge)


@dataclass(frozen=True)
class _Described:
    """The backend's description as results.json stores it (`stored`, under extra.backend) and
    the named fields the provenance copies, typed."""

    stored: dict[str, object]
    chat_template_sha256: str | None = None
    chat_template_source: str | None = None
    device: str | None = None
    batch_size: int | str | None = None
    model_revision: str | None = None


def _described(
    backend: Backend | None, previous: Results | None, shards: Sequence[Results] = ()
) -> _Described:
    """The backend's own description; with no backend, what the run that generated recorded
    (the shards' description, for a merge of shard folders)."""
    if backend is None and shards:
        p = shards[0].provenance
        stored = p.extra.get("backend")
        return _Described(
            dict(stored) if isinstance(stored, dict) else {},
            p.chat_template_sha256,
            p.chat_template_source,
            p.device,
            p.batch_size,
            p.model_revision,
        )
    if backend is not None:
        d: BackendDescription = backend.describe()
        stored = jsonable(d.as_dict())
        return _Described(
            stored if isinstance(stored, dict) else {},
            d.chat_template_sha256,
            d.chat_template_source,
            d.device,
            d.batch_size,
            d.model_revision,
        )
    if previous is None:
        return _Described({})
    p = previous.provenance  # nothing generated: keep what the run that generated recorded
    named = (p.chat_template_sha256, p.chat_template_source, p.device, p.batch_size)
    stored: dict[str, object] = {
        "chat_template_sha256": named[0],
        "chat_template_source": named[1],
        "device": named[2],
        "batch_size": named[3],
        "model_revision": p.model_revision,
        "described_by_previous_run": True,
    }
    return _Described(stored, *named, p.model_revision)


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


def _shard_invocations(shard: Results, history: list[dict[str, object]]) -> list[dict[str, object]]:
    """A merged shard job's invocations, each marked with its shard ("K/N": two shards on one
    machine can write equal records in the same second), less those the history already holds
    (the same shard merged again)."""
    split = shard.provenance.extra.get("data_parallel")
    tag = f"{split.get('shard')}/{split.get('shards')}" if isinstance(split, dict) else None
    recorded = shard.provenance.extra.get(HISTORY_KEY)
    entries = [{**h, "shard": tag} for h in recorded or [] if isinstance(h, dict)]
    return [h for h in entries if h not in history]


def build_provenance(facts: RunFacts) -> Provenance:
    """results.json's provenance: the code, data, model and settings that produced the numbers,
    and the invocations that wrote the answers."""
    sub, stats, records = facts.sub, facts.stats, facts.records
    info = _described(facts.backend, facts.previous, facts.shards)
    commit, dirty = git_state(ignore=facts.out_dir)
    finished = now_iso()
    device = str(info.device or device_name())
    current = (
        {
            "started": facts.started,
            "finished": finished,
            "git_commit": commit,
            # per invocation, since a resumed entry mixes them (trust.attest): a dirty one's
            # answers count once attested; `--allow-dirty` says the run was told to go ahead
            "git_dirty": dirty,
            **({"allow_dirty": True} if dirty and "--allow-dirty" in (facts.command or "") else {}),
            "device": device,
            "build": llama_build(info.stored),
            "generated": stats.generated,
            "answers": stats.recorded,
            **peak_memory(),
        }
        if stats.recorded > 0
        else None
    )
    previous = facts.previous.provenance.model_dump() if facts.previous is not None else None
    history = invocation_history(previous, current, [r.created for r in records])
    for shard in facts.shards:
        history += _shard_invocations(shard, history)
    tps = (
        (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
        if stats.model_time_s > 0
        else None
    )
    generation = jsonable(sub.generation.model_dump())
    return Provenance(
        package_version=__version__,
        git_commit=commit,
        git_dirty=dirty,
        command=repo_relative(facts.command or " ".join(sys.argv)),
        data_blob_ids=dict(facts.data_files),
        model=sub.model,
        model_revision=str(info.model_revision or resolved_revision(sub) or "") or None,
        backend=sub.backend,
        dtype=sub.dtype,
        quantization=sub.quantization.describe(),
        chat_template_sha256=info.chat_template_sha256,
        chat_template_source=info.chat_template_source,
        generation=generation if isinstance(generation, dict) else {},
        seeds={"generation": sub.generation.seed, "bootstrap": facts.bootstrap_seed},
        batch_size=info.batch_size or sub.batch_size,
        fingerprint=facts.fingerprint,
        versions=versions(),
        device=device,
        started=facts.started,
        finished=finished,
        wall_time_s=round(facts.wall_s, 3),
        generation_time_s=round(stats.model_time_s, 3),
        prompt_tokens=sum(r.prompt_tokens or 0 for r in records),
        completion_tokens=sum(r.completion_tokens or 0 for r in records),
        tokens_per_s=round(tps, 2) if tps is not None else None,
        scoring_version=scoring_version(),
        extra={
            "hub_id": sub.hub_id,
            "revision_pinned": sub.revision_pinned,
            "fingerprint_inputs": jsonable(
                fingerprint_inputs(
                    sub,
                    instruction=facts.data_choices.get("instruction"),  # type: ignore[arg-type]
                    conflicts="conflicts" in facts.data_choices,
                )
            ),
            "this_invocation": _invocation_extra(stats, facts.wall_s),
            # every invocation that generated answers, and on which machine (a resumed run)
            HISTORY_KEY: history,
            "predictions_in_results": len(records),
            "sum_latency_s": round(sum(r.latency_s or 0.0 for r in records), 3),
            "skipped_splits": list(facts.skipped),
            # what `verify` rebuilds the instances with, whatever the command line said
            DATA_CHOICES: dict(facts.data_choices),
            "backend": info.stored,
            **facts.probes,
            **(
                {"data_parallel": dict(facts.data_parallel)}
                if facts.data_parallel is not None
                else {}
            ),
        },
    )

"""One submission from YAML to results.json: instances, generation with resume, scoring, provenance.

The runner owns the order of work and the files; everything model-specific is behind the Backend
seam. Generation is resumable at instance granularity: predictions are appended (and fsynced) after
every chunk, and a rerun of the same command skips every key already on disk under the same
fingerprint, so the results always come from ALL matching predictions on disk (within the plan).

`run_submission` is the single-process run and returns Results only. Its steps are public here
because the two other entry points share them: `dry_run.plan_submission` (what a run would do,
with no backend) stops after `prepare`, and `shard.run_shard` (a data-parallel process under
`accelerate launch`) inserts its share, shard and wait between them. The steps live in their own
modules (plan, resume, generate, assemble); every file of the run's folder is read and written
through one `RunStore`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.backends.base import AnswersFromCorpus, Backend
from leaderboard.backends.registry import load_backend
from leaderboard.core.checkout import now_iso
from leaderboard.core.entry_folders import conflict_dir, instruction_dir
from leaderboard.core.errors import BackendUnavailable, ConfigError, LeaderboardError
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.submission import Submission, submission_dir
from leaderboard.run import distributed as parallel
from leaderboard.run.assemble import assemble_results, system_corpus
from leaderboard.run.fingerprint import dry_run_fingerprint, fingerprint
from leaderboard.run.fold import merge_rank_shards
from leaderboard.run.generate import GenStats, generate_pending
from leaderboard.run.plan import ALL, Plan, WorkItem, build_plan
from leaderboard.run.resume import check_prompts, group_pending, load_existing, say
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from leaderboard.run.widen import widen_to_records

CHUNK_FACTOR = 4  # unique prompts per append = CHUNK_FACTOR x batch size
AUTO_BATCH_GUESS = 8  # chunking guess when batch_size is "auto" (the backend picks the real size)

Pending = list[tuple[WorkItem, list[WorkItem]]]  # a unique prompt's lead item and its copies


@dataclass(frozen=True)
class RunOptions:
    """How to run a submission: the one argument list of `run_submission`, `shard.run_shard` and
    `dry_run.plan_submission`, so the three entry points cannot drift apart (a dry run reads only
    root, selection, out_dir, overwrite, retry_errors and progress)."""

    root: Path  # the data root: data_zh/ and data_en/
    selection: Selection = ALL
    out_dir: Path | None = None  # the run's folder; None: the submission's folder
    backend: Backend | None = None  # None: the submission's, loaded only when the run needs one
    overwrite: bool = False  # move predictions of other settings aside instead of refusing
    retry_errors: bool = False  # generate again the prompts whose recorded answer is an error
    chunk_size: int | None = None  # unique prompts per append; None: CHUNK_FACTOR x batch size
    progress: bool = True
    command: str | None = None  # the command line, for provenance
    resamples: int = 1000  # bootstrap resamples of the intervals


@dataclass(frozen=True)
class Prepared:
    """A run after planning and resume, before any generation: the plan, the predictions already
    on disk under this fingerprint, and what is left (reused copies, unique prompts pending)."""

    plan: Plan
    fingerprint: str
    store: RunStore
    existing: dict[str, PredictionRecord]
    reused: list[PredictionRecord]
    pending: Pending
    started: str  # ISO time, for provenance
    t_start: float  # perf_counter at the start, for the wall time


def _resolve_out_dir(sub: Submission, out_dir: Path | None, selection: Selection) -> Path:
    """--out, else the submission's folder; an alternative instruction's answers go to its own
    folder inside it (instructions/<id>/), never beside the ranked predictions."""
    limit = selection.limit
    resolved = Path(out_dir) if out_dir is not None else submission_dir(sub)
    if out_dir is None and resolved is not None and selection.conflicts is not None:
        resolved = conflict_dir(resolved, selection.instruction)
    elif out_dir is None and resolved is not None and selection.instruction is not None:
        resolved = instruction_dir(resolved, selection.instruction)
    if resolved is None:
        raise ConfigError(
            "no output folder: pass out_dir (--out DIR) for a submission built in code"
        )
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be a positive number of records per split (got {limit})")
    return resolved


def _recorded(store: RunStore) -> Results | None:
    """The folder's results.json, if there is a readable one."""
    try:
        return store.read_results() if store.results_path.exists() else None
    except LeaderboardError:
        return None


def prepare(sub: Submission, options: RunOptions, *, dry_run: bool) -> Prepared:
    """Plan the selection, read what is on disk (moving other settings' predictions aside only
    with `overwrite` and never in a dry run) and split the plan into reused and pending."""
    started, t_start = now_iso(), time.perf_counter()
    folder = _resolve_out_dir(sub, options.out_dir, options.selection)
    plan = build_plan(sub, Path(options.root), options.selection)
    store = RunStore(folder)
    # a dry run reads no weights (a local .gguf without a declared sha256 would be hashed whole)
    instruction = options.selection.instruction
    conflicts = options.selection.conflicts is not None
    fp = (
        dry_run_fingerprint(sub, _recorded(store), instruction, conflicts)
        if dry_run
        else fingerprint(sub, instruction, conflicts)
    )
    existing = load_existing(
        store, fp, overwrite=options.overwrite, dry_run=dry_run, progress=options.progress
    )
    check_prompts(plan.items, existing, store)
    reused, pending = group_pending(plan.items, existing, options.retry_errors)
    return Prepared(plan, fp, store, existing, reused, pending, started, t_start)


def backend_for(
    sub: Submission,
    backend: Backend | None,
    *,
    needed: bool,
    progress: bool,
    plan: Plan | None = None,
) -> Backend | None:
    """The caller's backend, or the submission's loaded now when the run needs one (something
    to generate, or a first results.json that records the model's description). A `system` gets
    the ids of the exported corpus, so an id outside it is an error for that question."""
    if backend is None and needed:
        say(progress, f"loading {sub.backend} backend for {sub.model} ...")
        backend = load_backend(sub)
    if plan is not None and isinstance(backend, AnswersFromCorpus):
        backend.use_corpus(frozenset(system_corpus(sub, plan) or ()))
    return backend


def write_predictions(
    backend: Backend | None,
    sub: Submission,
    store: RunStore,
    fp: str,
    reused: list[PredictionRecord],
    pending: Pending,
    *,
    n_existing: int,
    chunk_size: int | None,
    progress: bool,
    stats: GenStats,
    rank: int | None = None,
) -> None:
    """Append the reused records, then generate what is pending (the backend is loaded by the
    caller only when something is pending)."""
    bs = sub.batch_size if isinstance(sub.batch_size, int) else AUTO_BATCH_GUESS
    if not reused and not pending:
        return  # nothing to append: opening the writer would leave an empty predictions.jsonl
    with store.writer(rank) as writer:
        try:
            if reused:
                stats.reused = writer.append(reused)
            if pending:
                say(
                    progress,
                    f"{len(pending)} unique prompts to generate "
                    f"({n_existing} predictions already on disk)",
                )
                generate_pending(
                    backend,  # type: ignore[arg-type]
                    sub,
                    pending,
                    writer,
                    fp,
                    chunk_size=chunk_size or CHUNK_FACTOR * bs,
                    progress=progress,
                    stats=stats,
                )
        finally:
            # the invocation's answer count, read from the file: an interruption between an
            # append and its returned count would otherwise leave answers unattributed
            stats.recorded = writer.lines_appended()


def finish(
    sub: Submission,
    prep: Prepared,
    options: RunOptions,
    *,
    stats: GenStats,
    backend: Backend | None,
    previous: Results | None,
    data_parallel: dict[str, object] | None = None,
    shards: Sequence[Results] = (),
) -> Results:
    """Merge shards (this run's, or ones a crashed data-parallel run left), score every matching
    prediction on disk over the widened plan, and write results.json. `backend` is the one the
    run used (the caller's or the submission's, None when nothing needed one); `shards`: the
    results.json of shard folders folded in (`run.merge`), whose invocations and backend
    description the entry's provenance takes over."""
    store = prep.store
    merge_rank_shards(store)
    records = load_existing(store, prep.fingerprint, progress=False)
    plan = widen_to_records(
        prep.plan, sub, Path(options.root), records, options.selection.allow_partial_data
    )
    results = assemble_results(
        sub,
        plan,
        records,
        prep.fingerprint,
        stats,
        backend,
        previous,
        started=prep.started,
        wall_s=time.perf_counter() - prep.t_start,
        command=options.command,
        resamples=options.resamples,
        data_parallel=data_parallel,
        out_dir=store.folder,
        shards=shards,
    )
    store.write_results(results)
    store.compact()
    return results


def run_submission(sub: Submission, options: RunOptions) -> Results:
    """Run (or resume) a submission in this process and write predictions + results.json into
    `options.out_dir` (default: the submission's folder).

    One process only: under `accelerate launch` / torchrun (WORLD_SIZE > 1) every process would
    generate everything, so this refuses and `shard.run_shard` is the entry point there.
    """
    _, world = parallel.world()
    if world > 1:
        raise ConfigError(
            f"launched as {world} processes (WORLD_SIZE={world}): run_submission is the "
            "single-process run; use leaderboard.run.shard.run_shard (what `rgb-leaderboard run` "
            "calls under `accelerate launch`)"
        )
    prep = prepare(sub, options, dry_run=False)
    stats = GenStats()
    previous = prep.store.previous_results(prep.fingerprint)
    needed = bool(prep.pending) or previous is None
    backend = backend_for(
        sub, options.backend, needed=needed, progress=options.progress, plan=prep.plan
    )
    try:
        write_predictions(
            backend,
            sub,
            prep.store,
            prep.fingerprint,
            prep.reused,
            prep.pending,
            n_existing=len(prep.existing),
            chunk_size=options.chunk_size,
            progress=options.progress,
            stats=stats,
        )
    except (KeyboardInterrupt, BackendUnavailable):
        # Ctrl-C, SIGTERM (the CLI turns it into this), or a server that stopped answering: the
        # answers appended so far are on disk; score them and record this invocation (its
        # machine, build and answer count), or the next run could only list them as written by
        # an unrecorded machine.
        if stats.recorded > 0:
            say(options.progress, f"interrupted: recording the {stats.recorded} answers written")
            finish(sub, prep, options, stats=stats, backend=backend, previous=previous)
        raise
    return finish(sub, prep, options, stats=stats, backend=backend, previous=previous)

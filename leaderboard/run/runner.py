"""One submission from YAML to results.json: instances, generation with resume, scoring, provenance.

The runner owns the order of work and the files; everything model-specific is behind the Backend
seam. Generation is resumable at instance granularity: predictions are appended (and fsynced) after
every chunk, and a rerun of the same command skips every key already on disk under the same
fingerprint, so the results always come from ALL matching predictions on disk (within the plan).

The steps live in their own modules (plan, resume, generate, distributed, assemble); every file
of the run's folder is read and written through one `RunStore`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.backends.base import Backend, load_backend
from leaderboard.core.errors import ConfigError
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.submission import Submission, submission_dir
from leaderboard.core.types import Ability, ChatRequest, Lang
from leaderboard.run import distributed as parallel
from leaderboard.run import provenance as prov
from leaderboard.run.assemble import assemble_results, system_corpus
from leaderboard.run.distributed import DataParallel, ShardReport
from leaderboard.run.generate import GenStats, generate_pending
from leaderboard.run.plan import Plan, WorkItem, build_plan, widen_to_records
from leaderboard.run.resume import check_prompts, group_pending, load_existing, say
from leaderboard.run.store import RunStore

CHUNK_FACTOR = 4  # unique prompts per append = CHUNK_FACTOR x batch size
AUTO_BATCH_GUESS = 8  # chunking guess when batch_size is "auto" (the backend picks the real size)


@dataclass(frozen=True)
class DryRunReport:
    """What `run --dry-run` prints: counts per split, what resume will skip, and the
    first prompt."""

    submission_id: str
    fingerprint: str
    out_dir: Path
    splits: list[tuple[str, str, str, bool, int, int]]  # lang, ability, file, complete, n, done
    skipped: list[str]
    partial_reasons: list[str]
    total: int
    done: int
    to_generate: int  # unique prompts still to generate
    first_request: ChatRequest | None

    def render(self) -> str:
        lines = [
            f"submission {self.submission_id}  fingerprint {self.fingerprint}",
            f"output folder {self.out_dir}",
            f"{'split':<24}{'data file':<26}{'instances':>10}{'on disk':>9}",
        ]
        for lang, ability, name, complete, n, done in self.splits:
            flag = "" if complete else "  (partial file)"
            lines.append(f"{lang + '/' + ability:<24}{name:<26}{n:>10}{done:>9}{flag}")
        lines.append(
            f"total {self.total} instances, {self.done} already predicted, "
            f"{self.to_generate} unique prompts to generate"
        )
        lines += [f"skipped: {s}" for s in self.skipped]
        lines += [f"partial: {r}" for r in self.partial_reasons]
        if self.first_request is not None:
            lines.append("--- first prompt ---")
            for m in self.first_request.messages:
                lines.append(f"[{m.role}]")
                lines.append(m.content)
        return "\n".join(lines)


def _dry_run_report(
    sub: Submission,
    plan: Plan,
    fp: str,
    out_dir: Path,
    existing: dict[str, PredictionRecord],
    n_pending: int,
) -> DryRunReport:
    def done(items: Sequence[WorkItem]) -> int:
        return sum(1 for it in items if it.instance.key in existing)

    return DryRunReport(
        submission_id=sub.id,
        fingerprint=fp,
        out_dir=out_dir,
        splits=[
            (s.lang, s.ability, s.source.name, bool(s.source.complete), len(s.items), done(s.items))
            for s in plan.splits
        ],
        skipped=plan.skipped,
        partial_reasons=plan.partial_reasons,
        total=len(plan.items),
        done=done(plan.items),
        to_generate=n_pending,
        first_request=plan.items[0].request,
    )


def _resolve_out_dir(sub: Submission, out_dir: Path | None, limit: int | None) -> Path:
    resolved = Path(out_dir) if out_dir is not None else submission_dir(sub)
    if resolved is None:
        raise ConfigError(
            "no output folder: pass out_dir (--out DIR) for a submission built in code"
        )
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be a positive number of records per split (got {limit})")
    return resolved


def _write_predictions(
    backend: Backend | None,
    sub: Submission,
    store: RunStore,
    fp: str,
    reused: list[PredictionRecord],
    pending: list[tuple[WorkItem, list[WorkItem]]],
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
        if reused:
            stats.reused = stats.recorded = writer.append(reused)
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


def _split_for_processes(
    plan: Plan, store: RunStore, fp: str, *, overwrite: bool, retry_errors: bool
) -> DataParallel | None:
    """This process's share when launched as several (None for a plain single process)."""
    rank, world = parallel.world()
    if world == 1:
        return None
    if overwrite:
        raise ConfigError(
            "--overwrite cannot be used with several processes (each one would move the old "
            "files aside under the others); use a new output folder (--out DIR), or run "
            "--overwrite as one process."
        )
    dp = parallel.split_work(
        plan.items, store, fp, retry_errors=retry_errors, rank=rank, world=world
    )
    store.clear_marker(rank)
    return dp


def _finish_shard(store: RunStore, dp: DataParallel, fp: str, stats: GenStats) -> ShardReport:
    """A rank > 0 is done: mark its share as on disk (when it had one) and leave the rest to
    rank 0."""
    if dp.mine:
        parallel.write_marker(store, dp, fp, stats)
    return ShardReport(dp.rank, dp.world, store.shard_path(dp.rank), len(dp.mine), stats.generated)


def run_submission(
    sub: Submission,
    *,
    root: Path,
    out_dir: Path | None = None,
    backend: Backend | None = None,
    limit: int | None = None,
    languages: Sequence[Lang] | None = None,
    abilities: Sequence[Ability] | None = None,
    noise_rates: dict[Ability, Sequence[float]] | None = None,
    dry_run: bool = False,
    allow_partial_data: bool | None = None,
    overwrite: bool = False,
    retry_errors: bool = False,
    chunk_size: int | None = None,
    progress: bool = True,
    command: str | None = None,
    resamples: int = 1000,
) -> Results | DryRunReport | ShardReport:
    """Run (or resume) a submission and write predictions + results.json into `out_dir`.

    Under `accelerate launch` / torchrun (WORLD_SIZE > 1) each process generates its share into
    its own shard; ranks > 0 return a ShardReport, rank 0 merges, scores and writes results.
    """
    started, t_start, t_wall = prov.now_iso(), time.perf_counter(), time.time()
    out_dir = _resolve_out_dir(sub, out_dir, limit)
    plan = build_plan(
        sub,
        Path(root),
        limit=limit,
        languages=languages,
        abilities=abilities,
        noise_rates=noise_rates,
        allow_partial_data=allow_partial_data,
    )
    fp = prov.fingerprint(sub)
    store = RunStore(out_dir)
    existing = load_existing(store, fp, overwrite=overwrite, dry_run=dry_run, progress=progress)
    check_prompts(plan.items, existing, store)
    reused, pending = group_pending(plan.items, existing, retry_errors)
    if dry_run:
        return _dry_run_report(sub, plan, fp, out_dir, existing, len(pending))
    dp = _split_for_processes(plan, store, fp, overwrite=overwrite, retry_errors=retry_errors)
    if dp is not None:
        pending = [p for p in pending if p[0].prompt_sha256 in dp.mine]
        reused = reused if dp.rank == 0 else []  # rank 0 records identical-prompt copies
    stats = GenStats()
    previous = store.previous_results(fp)
    wants_info = previous is None and (dp is None or dp.rank == 0)
    if backend is None and (pending or wants_info):
        say(progress, f"loading {sub.backend} backend for {sub.model} ...")
        backend = load_backend(sub)
    if hasattr(backend, "known_ids"):  # a `system`: ids outside the exported corpus are errors
        backend.known_ids = frozenset(system_corpus(sub, plan) or ())  # type: ignore[union-attr]
    if dp is None or reused or pending:  # a rank with nothing to do creates no shard
        _write_predictions(
            backend,
            sub,
            store,
            fp,
            reused,
            pending,
            n_existing=len(existing),
            chunk_size=chunk_size,
            progress=progress,
            stats=stats,
            rank=None if dp is None else dp.rank,
        )
    dp_info = None
    if dp is not None:
        if dp.rank > 0:
            return _finish_shard(store, dp, fp, stats)
        markers = parallel.wait_for_ranks(store, dp, fp, progress=progress, since=t_wall)
        dp_info = parallel.describe(dp, stats, markers)
        stats = parallel.combine_stats(stats, markers)
    store.merge_shards()  # this run's shards, or ones a crashed run left
    records = load_existing(store, fp, progress=False)
    results = assemble_results(
        sub,
        widen_to_records(plan, sub, Path(root), records, allow_partial_data),
        records,
        fp,
        stats,
        backend,
        previous,
        started=started,
        wall_s=time.perf_counter() - t_start,
        command=command,
        resamples=resamples,
        data_parallel=dp_info,
        out_dir=store.folder,
    )
    store.write_results(results)
    store.compact()
    return results

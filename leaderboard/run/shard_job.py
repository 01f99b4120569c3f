"""`run SUB --shard K/N --out DIR`: one shard of a run as an independent job (a Slurm array task,
a machine of its own) that shares no disk with the others; `merge DIR... --into SUB`
(`run.merge`) folds the shard folders into the entry afterwards.

The share is the data-parallel split's (`distributed.split_work`): the unique prompts the entry's
folder is still missing, sorted by key, every N-th from K. Every job computes it from the entry's
files (a checkout of the repository is enough) and the same selection, so the N jobs split the
work without talking to each other. A job writes only into DIR: its predictions, and a
results.json whose provenance records the shard (`SHARD_KEY`: K, N, the share's digest, the
selection) next to what the merge checks (fingerprint, data blob ids, scoring version). Rerunning
the same command resumes the shard from DIR. Shard 0 also records copies of answers the entry
already has for an identical prompt under another key, as rank 0 of a launch does.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.checkout import repo_relative
from leaderboard.core.errors import BackendUnavailable, ConfigError
from leaderboard.core.schema import Results
from leaderboard.core.submission import Submission, submission_dir
from leaderboard.run import distributed as parallel
from leaderboard.run.generate import GenStats
from leaderboard.run.resume import check_prompts, group_pending, load_existing, say
from leaderboard.run.runner import RunOptions, backend_for, finish, prepare, write_predictions
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore

SHARD_KEY = "data_parallel"  # provenance.extra key of the shard record (as a launch's split)


@dataclass(frozen=True)
class ShardSpec:
    """Shard `index` of `count` (0 <= index < count, like SLURM_ARRAY_TASK_ID of --array=0-N-1)."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> ShardSpec:
        k, sep, n = text.partition("/")
        try:
            spec = cls(int(k), int(n)) if sep else None
        except ValueError:
            spec = None
        if spec is None or not (spec.count >= 1 and 0 <= spec.index < spec.count):
            raise ConfigError(
                f"--shard {text!r}: give K/N with 0 <= K < N, e.g. --shard 0/4 ... --shard 3/4 "
                "(K counts from 0, like SLURM_ARRAY_TASK_ID with --array=0-3)"
            )
        return spec


def selection_record(sel: Selection) -> dict[str, object]:
    """The selection as JSON (what every shard must share, and what the merge rescores with)."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(sel):
        value = getattr(sel, f.name)
        if isinstance(value, Mapping):
            value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def selection_from_record(record: Mapping[str, object]) -> Selection:
    """The Selection a shard recorded (fields this code does not know are refused)."""
    names = {f.name for f in dataclasses.fields(Selection)}
    unknown = sorted(set(record) - names)
    if unknown:
        raise ConfigError(
            f"a shard recorded selection fields this code does not know ({', '.join(unknown)}); "
            "merge with the code version the shards ran"
        )
    return Selection(**record)  # type: ignore[arg-type]


def _entry_folder(sub: Submission, options: RunOptions) -> Path:
    if options.selection.instruction is not None:  # its answers live in a folder of their own
        raise ConfigError("--shard runs RGB's own instruction only (not --instruction)")
    entry = submission_dir(sub)
    out = options.out_dir
    if entry is None or out is None or Path(out).resolve() == entry.resolve():
        raise ConfigError(
            "--shard K/N needs --out DIR, a folder of the shard's own (not the submission's): "
            "its answers join the entry with `rgb-leaderboard merge DIR... --into SUB`"
        )
    return entry


def run_shard_job(sub: Submission, options: RunOptions, spec: ShardSpec) -> Results:
    """Generate this shard's share into `options.out_dir` and write its results.json (partial:
    the share's answers only), resuming what an earlier run of the same shard left there."""
    entry = _entry_folder(sub, options)
    prep = prepare(sub, options, dry_run=False)  # the shard's folder: its own earlier answers
    fp, items = prep.fingerprint, prep.plan.items
    entry_store = RunStore(entry)
    on_entry = load_existing(entry_store, fp, progress=options.progress)
    check_prompts(items, on_entry, entry_store)
    dp = parallel.split_work(
        items,
        entry_store,
        fp,
        retry_errors=options.retry_errors,
        rank=spec.index,
        world=spec.count,
    )
    everyone = frozenset().union(*dp.shares)
    reused, pending = group_pending(items, on_entry | prep.existing, options.retry_errors)
    pending = [p for p in pending if p[0].prompt_sha256 in dp.mine]
    reused = [
        r
        for r in reused
        if r.prompt_sha256 in dp.mine or (spec.index == 0 and r.prompt_sha256 not in everyone)
    ]
    say(
        options.progress,
        f"shard {spec.index} of {spec.count}: {len(dp.mine)} of the {len(everyone)} unique "
        f"prompts missing from {entry}; {len(pending)} still to generate here",
    )
    stats = GenStats()
    previous = prep.store.previous_results(fp)
    needed = bool(pending) or previous is None
    backend = backend_for(
        sub, options.backend, needed=needed, progress=options.progress, plan=prep.plan
    )

    def done() -> Results:
        record = {
            "shard": spec.index,
            "shards": spec.count,
            "unique_prompts": len(dp.mine),
            "share_sha256": dp.digest(spec.index, fp),
            "missing_sha256": _digest(fp, everyone),
            "entry": repo_relative(str(entry)),
            "selection": selection_record(options.selection),
        }
        return finish(
            sub,
            prep,
            options,
            stats=stats,
            backend=backend,
            previous=previous,
            data_parallel=record,
        )

    try:
        write_predictions(
            backend,
            sub,
            prep.store,
            fp,
            reused,
            pending,
            n_existing=len(prep.existing),
            chunk_size=options.chunk_size,
            progress=options.progress,
            stats=stats,
        )
    except (KeyboardInterrupt, BackendUnavailable):  # as run_submission: record what was written
        if stats.recorded > 0:
            done()
        raise
    return done()


def _digest(fingerprint: str, prompts: frozenset[str]) -> str:
    """The missing prompts every shard split (equal digests: the shards split the same work)."""
    text = "\n".join([fingerprint, *sorted(prompts)])
    return hashlib.sha256(text.encode()).hexdigest()

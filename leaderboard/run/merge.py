"""`merge DIR... --into SUB`: the folders of shard jobs (`run --shard K/N --out DIR`, which share
no disk) folded into the entry after checking that they belong together, then rescored.

A shard folder holds its predictions and a results.json whose provenance says which shard it is
(`shard_job.SHARD_KEY`), its fingerprint, the data files' blob ids and the scoring version. The
merge refuses shards that differ in any of them, or in the selection they ran, or whose prompts
differ from the ones built here; it folds their records through `fold.fold_into` (the rule a
data-parallel launch uses too, overlaps that disagree refused) and rescores the entry over the
shards' selection, as one process running the same command would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.errors import ConfigError, ResultsError
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.submission import Submission, submission_dir
from leaderboard.run.fold import fold_into
from leaderboard.run.generate import GenStats
from leaderboard.run.resume import check_prompts, load_existing
from leaderboard.run.runner import RunOptions, finish, prepare
from leaderboard.run.shard_job import SHARD_KEY, selection_from_record
from leaderboard.run.store import RunStore
from leaderboard.stats.version import scoring_version


@dataclass(frozen=True)
class ShardFolder:
    """One shard job's folder: its results.json and the shard record in it."""

    folder: Path
    results: Results
    record: dict[str, object]

    @property
    def name(self) -> str:
        return f"{self.folder} (shard {self.record.get('shard')}/{self.record.get('shards')})"


@dataclass(frozen=True)
class MergeOutcome:
    """What `merge` did: the entry's new results, records folded, and notes to print."""

    results: Results
    folder: Path
    appended: int
    offered: int
    notes: tuple[str, ...]

    def render(self) -> str:
        lines = [
            f"merged {self.offered} predictions from the shards into {self.folder}: "
            f"{self.appended} new, {self.offered - self.appended} already there",
            *self.notes,
        ]
        return "\n".join(lines)


def read_shard_folder(folder: Path) -> ShardFolder:
    """A shard job's folder, or a one-line error saying why it is not one."""
    store = RunStore(folder)
    if not store.results_path.is_file():
        raise ResultsError(
            f"{folder}: no results.json; the shard did not finish: rerun its "
            "`rgb-leaderboard run ... --shard K/N --out` command (it resumes), then merge"
        )
    results = store.read_results()
    record = results.provenance.extra.get(SHARD_KEY)
    if not isinstance(record, dict) or "shards" not in record or "shard" not in record:
        raise ResultsError(
            f"{folder}/results.json: not a shard (no data_parallel.shard in its provenance); "
            "merge takes the --out folders of `run --shard K/N`"
        )
    return ShardFolder(Path(folder), results, record)


def _same(shards: Sequence[ShardFolder], what: str, value) -> object:
    """The value every shard records for `what`; ResultsError naming the first that differs."""
    first = value(shards[0])
    for s in shards[1:]:
        if value(s) != first:
            raise ResultsError(
                f"{s.name}: {what} {value(s)!r} differs from {shards[0].name}'s {first!r}; "
                "merge only shards of one run (same model.yaml, data and code)"
            )
    return first


def _check_data(shards: Sequence[ShardFolder], here: dict[str, str]) -> None:
    """Every data file recorded by a shard has one blob id: the same in every shard and here."""
    seen = {name: ("this machine's data", blob) for name, blob in here.items()}
    for s in shards:
        for name, blob in s.results.provenance.data_blob_ids.items():
            where, known = seen.setdefault(name, (s.name, blob))
            if known != blob:
                raise ResultsError(
                    f"{s.name}: data file {name} has blob id {blob}, {where} has {known}; "
                    "merge only shards run on the same RGB files"
                )


def merge_shard_folders(
    sub: Submission,
    folders: Sequence[Path],
    *,
    root: Path,
    progress: bool = True,
    command: str | None = None,
    resamples: int = 1000,
) -> MergeOutcome:
    """Check that the shard folders belong together and to `sub` (fingerprint, data blob ids,
    scoring version, selection, number of shards), fold their predictions into the entry's
    folder and rescore it over the shards' selection, as one process running it would."""
    entry = submission_dir(sub)
    if entry is None:
        raise ConfigError("merge needs the submission's model.yaml on disk (--into SUB)")
    if not folders:
        raise ConfigError("merge: give the shard folders (the --out DIR of each `run --shard`)")
    shards = [read_shard_folder(Path(f)) for f in folders]
    fp = _same(shards, "fingerprint", lambda s: s.results.provenance.fingerprint)
    versions = _same(shards, "scoring version", lambda s: s.results.provenance.scoring_version)
    selection = _same(shards, "selection", lambda s: s.record.get("selection"))
    count = _same(shards, "number of shards", lambda s: s.record.get("shards"))
    options = RunOptions(
        root=root,
        selection=selection_from_record(selection),  # type: ignore[arg-type]
        out_dir=entry,
        progress=progress,
        command=command,
        resamples=resamples,
    )
    prep = prepare(sub, options, dry_run=False)
    if prep.fingerprint != fp:
        raise ResultsError(
            f"{shards[0].name}: fingerprint {fp}, but {entry}/model.yaml gives "
            f"{prep.fingerprint} now (a setting that changes answers was edited); merge refused"
        )
    _check_data(
        shards,
        {
            s.source.name: s.source.blob_id or f"unverified:{s.source.file_blob_id}"
            for s in prep.plan.splits
        },
    )
    incoming: list[tuple[str, PredictionRecord]] = []
    for s in shards:
        store = RunStore(s.folder)
        records = load_existing(store, fp, progress=False)
        check_prompts(prep.plan.items, records, store)
        incoming += [(str(s.folder), r) for r in records.values()]
    previous = prep.store.previous_results(fp)
    appended = fold_into(prep.store, incoming)
    results = finish(
        sub,
        prep,
        options,
        stats=GenStats(),
        backend=None,
        previous=previous,
        data_parallel=_describe(shards, count, appended),
        shards=[s.results for s in shards],
    )
    return MergeOutcome(
        results, entry, appended, len(incoming), _notes(shards, count, versions, results)
    )


def _describe(shards: Sequence[ShardFolder], count: object, appended: int) -> dict[str, object]:
    """What the entry's results.json records about the merge (provenance.extra.data_parallel)."""
    return {
        "merged_shards": sorted({int(s.record["shard"]) for s in shards}),  # type: ignore[call-overload]
        "shards": count,
        "unique_prompts_per_shard": [s.record.get("unique_prompts") for s in shards],
        "predictions_folded": appended,
    }


def _notes(
    shards: Sequence[ShardFolder], count: object, versions: object, results: Results
) -> tuple[str, ...]:
    notes: list[str] = []
    missing = sorted(set(range(int(count))) - {int(s.record["shard"]) for s in shards})  # type: ignore[call-overload]
    if missing:
        notes.append(
            f"shard(s) {', '.join(map(str, missing))} of {count} not merged yet: their prompts "
            "are still missing (merge their folders when they finish)"
        )
    if versions != scoring_version():
        notes.append(
            f"the shards recorded scoring version {versions}; the entry was rescored with this "
            f"code's {scoring_version()}"
        )
    if results.partial:
        notes.append(f"partial results: {results.partial_reasons[0]}")
    return tuple(notes)

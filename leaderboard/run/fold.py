"""Folding predictions written elsewhere into a run's folder: the one home of the rule, for the
two ways answers arrive from other processes.

- A data-parallel launch (`accelerate launch`, torchrun) leaves one shard file per rank in the
  run's folder; rank 0 folds them in (`merge_rank_shards`) before it scores.
- Shard jobs without a shared disk (`run --shard K/N --out DIR`, `run.shard_job`) each leave a
  folder of their own; `merge DIR... --into SUB` (`run.merge`) folds them into the entry.

Both go through `plan_fold`: a key already in the folder is skipped, a success replaces an
error (`run --retry-errors`), and two answers of one key that disagree (different text, or made
from different prompts) are refused before anything is written: the same model, settings and
build answer a greedy prompt one way, so a disagreement means the shards are not one run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from leaderboard.core.errors import ResultsError
from leaderboard.core.files import fsync_dir, read_prediction_files
from leaderboard.core.schema import PredictionRecord
from leaderboard.run.store import RunStore


def _disagree(a: PredictionRecord, b: PredictionRecord) -> str | None:
    """Why two records of one key cannot both stand (None: they agree, or one is an error)."""
    if a.prompt_sha256 != b.prompt_sha256:
        return "made from different prompts"
    if a.error is None and b.error is None and a.prediction != b.prediction:
        at = next(
            (i for i, (x, y) in enumerate(zip(a.prediction, b.prediction, strict=False)) if x != y),
            min(len(a.prediction), len(b.prediction)),
        )
        start = max(0, at - 20)
        return (
            f"answered differently from character {at}: "
            f"{a.prediction[start : at + 40]!r} against {b.prediction[start : at + 40]!r}"
        )
    return None


def plan_fold(
    have: Iterable[PredictionRecord], incoming: Sequence[tuple[str, PredictionRecord]]
) -> list[PredictionRecord]:
    """The incoming records (source, record) to append to a folder holding `have`: new keys,
    and successes replacing errors. ResultsError, naming both sources, on a disagreement."""
    best: dict[tuple[str, str], tuple[str, PredictionRecord]] = {
        (r.key, r.fingerprint): ("the folder", r) for r in have
    }
    out: list[PredictionRecord] = []
    for source, rec in incoming:
        ident = (rec.key, rec.fingerprint)
        prev = best.get(ident)
        if prev is not None:
            why = _disagree(prev[1], rec)
            if why is not None:
                raise ResultsError(
                    f"{source}: {rec.key} is also in {prev[0]}, {why}; shards of one entry "
                    "must agree (same model, settings and build), so nothing was merged"
                )
            if not (prev[1].error is not None and rec.error is None):
                continue  # the same answer again, or an error where a success is kept
        best[ident] = (source, rec)
        out.append(rec)
    return out


def fold_into(store: RunStore, incoming: Sequence[tuple[str, PredictionRecord]]) -> int:
    """Append what `plan_fold` keeps to the folder's predictions.jsonl (fsynced); returns how
    many records were appended. Nothing is written when a disagreement is refused."""
    new = plan_fold(store.read_merged().records, incoming)
    if new:
        with store.writer() as writer:
            writer.append(new)
        fsync_dir(store.folder)
    return len(new)


def merge_rank_shards(store: RunStore) -> int:
    """Fold a data-parallel run's rank shards into predictions.jsonl, then remove shards and
    markers. A crash at any point loses nothing: until the append is durable the shards stay,
    and a record both merged and still in a shard is a duplicate that readers drop."""
    shards = store.shard_paths()
    if not shards:
        return 0
    incoming = [
        (shard.name, rec) for shard in shards for rec in read_prediction_files([shard]).records
    ]
    n = fold_into(store, incoming)
    for shard in shards:
        shard.unlink()
    for marker in store.marker_paths():
        marker.unlink(missing_ok=True)
    fsync_dir(store.folder)
    return n

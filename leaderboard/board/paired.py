"""Paired comparisons of every pair of submissions, for the rank ranges of the ranking tables.

The predictions of each submission are scored again (both modes) on their instances as the run
built them (board.instances: the passages shown, so strict judges each answer as results.json
did), then every pair is compared on the instances both answered (leaderboard.stats.ranked).
Without predictions there is nothing to compare, and a split whose data file is missing here is
left out with the scores built on it: such pairs count as indistinguishable and their rank ranges
widen. The ranking tables name the entries left without a comparison, and `site build` prints why,
so a wide range that comes from a missing data file is never mistaken for a close race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.board.comparisons import Comparisons, PairKey
from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import Entry
from leaderboard.core.errors import DataError, LeaderboardError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import ABILITIES, Ability, Lang
from leaderboard.data.splits import load_split
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, scored_items
from leaderboard.stats.ranked import ScoreDifference, ScoreKey, paired_differences


@dataclass
class ScoreCache:
    """What score_records reads once for many entries: each split's data ids (or why its file
    cannot be read here) and the instances as the runs built them (board.instances' cache)."""

    ids: dict[tuple[Lang, Ability], set[int] | DataError] = field(default_factory=dict)
    instances: dict = field(default_factory=dict)


def score_records(
    records: Sequence[PredictionRecord],
    root: Path,
    splits: dict[tuple[Lang, Ability], SplitInfo],
    cache: ScoreCache | None = None,
    *,
    build: tuple[int, bool] = (5, False),
) -> tuple[list[ScoredItem], dict[tuple[Lang, Ability], DataError]]:
    """The records scored on their instances as the run built them (board.instances, `build`
    its `entry_build`: the passages shown, so strict's copy rule reads what results.json's did),
    and the splits left out because their data file cannot be read here. A missing file costs
    only the scores built on it (en integration, say, and the en and combined overall), not the
    entry's other comparisons; an id the data does not hold is an error of the whole entry
    (DataError). `cache` keeps the data ids and the built instances across calls."""
    cache = ScoreCache() if cache is None else cache
    triples = []
    unreadable: dict[tuple[Lang, Ability], DataError] = {}
    by_split: dict[tuple[Lang, Ability], list[PredictionRecord]] = {}
    for r in records:
        by_split.setdefault((r.lang, r.ability), []).append(r)
    for split, mine in by_split.items():
        if split not in cache.ids:
            try:
                src, recs = load_split(root, split[0], split[1], allow_partial=True)
            except DataError as exc:
                cache.ids[split] = exc
            else:
                splits[split] = SplitInfo(src.name, bool(src.complete), int(src.expected_n))
                cache.ids[split] = {rec.id for rec in recs}
        ids = cache.ids[split]
        if isinstance(ids, DataError):
            unreadable[split] = ids
            continue
        missing = next((r for r in mine if r.id not in ids), None)
        if missing is not None:
            raise DataError(
                f"prediction {missing.key}: id {missing.id} is not in {splits[split].data_file}"
            )
        try:
            built = entry_instances(
                root, mine, cache.instances, passage_num=build[0], system=build[1]
            )
        except LeaderboardError as exc:
            unreadable[split] = DataError(str(exc))
            continue
        triples += [(built[r.key], r.prediction, r.error) for r in mine if r.key in built]
    return scored_items(triples), unreadable


def compare_all(
    submissions: Sequence[Entry], root: Path, resamples: int = 1000, seed: int = 2333
) -> Comparisons:
    """Every pair of submissions with predictions, compared on their shared instances."""
    splits: dict[tuple[Lang, Ability], SplitInfo] = {}
    cache = ScoreCache()
    scored: dict[str, list[ScoredItem]] = {}
    not_compared: dict[str, str] = {}
    left_out: set[tuple[Lang, Ability]] = set()  # splits whose data file cannot be read here
    for sub in submissions:
        if not sub.predictions:
            not_compared[sub.id] = "no predictions to compare"
            continue
        try:
            items, unreadable = score_records(
                sub.predictions, root, splits, cache, build=entry_build(sub)
            )
        except DataError as exc:
            not_compared[sub.id] = str(exc)
            continue
        left_out |= set(unreadable)
        if unreadable:
            not_compared[sub.id] = "; ".join(
                f"{lang} {ability} left out: {exc}" for (lang, ability), exc in unreadable.items()
            )
        if items:
            scored[sub.id] = items
    by_score: dict[ScoreKey, dict[PairKey, ScoreDifference]] = {}
    ids = sorted(scored)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            for key, d in paired_differences(scored[a], scored[b], splits, resamples, seed).items():
                if not _built_on(key, left_out):
                    by_score.setdefault(key, {})[(a, b)] = d
    return Comparisons(by_score, not_compared)


def _built_on(key: ScoreKey, splits: set[tuple[Lang, Ability]]) -> bool:
    """Whether a score draws on one of these splits: the split's own score and, for the four
    RGB abilities (not the probes), its language's overall and the combined overall. Such a
    comparison would be made without that split (an overall over the abilities or languages
    left) and must not narrow a rank range whose score covers it."""
    lang, _mode, ability = key
    if ability == "overall":
        return any(lang in ("all", sl) for sl, sa in splits if sa in ABILITIES)
    return (lang, ability) in splits

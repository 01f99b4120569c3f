"""Paired comparisons of every pair of submissions, for the rank ranges of the ranking tables.

The predictions of each submission are scored again (both modes) with the answers looked up in
the data files, then every pair is compared on the instances both answered
(leaderboard.stats.ranked). Without the data (or without predictions) there is nothing to compare:
every pair then counts as indistinguishable and rank ranges span the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.board.load import Entry
from leaderboard.core.errors import DataError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import Ability, Lang, Record, TestInstance
from leaderboard.data.splits import load_split
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, scored_items
from leaderboard.stats.ranked import ScoreDifference, ScoreKey, paired_differences

PairKey = tuple[str, str]


@dataclass(frozen=True)
class Comparisons:
    """A - B per score key (lang, mode, ability) and pair (a, b), a < b by id."""

    by_score: dict[ScoreKey, dict[PairKey, ScoreDifference]] = field(default_factory=dict)
    missing: tuple[str, ...] = ()  # why some submissions could not be compared

    def significance(self, lang: str, mode: str, ability: str = "overall") -> dict[PairKey, int]:
        """(a, b) -> +1 / -1 / 0 for the rank ranges of one table."""
        table = self.by_score.get((lang, mode, ability), {})
        return {pair: d.sign for pair, d in table.items()}


def _scored(
    records: Sequence[PredictionRecord],
    root: Path,
    splits: dict[tuple[Lang, Ability], SplitInfo],
    cache: dict[tuple[Lang, Ability], dict[int, Record]],
) -> list[ScoredItem]:
    """The records scored against the answers in the data (the same look-up as `score`)."""
    triples = []
    for r in records:
        split = (r.lang, r.ability)
        if split not in cache:
            src, recs = load_split(root, r.lang, r.ability, allow_partial=True)
            splits[split] = SplitInfo(src.name, bool(src.complete), int(src.expected_n))
            cache[split] = {rec.id: rec for rec in recs}
        rec = cache[split].get(r.id)
        if rec is None:
            raise DataError(f"prediction {r.key}: id {r.id} is not in {splits[split].data_file}")
        inst = TestInstance(
            r.lang, r.ability, r.noise_rate, r.id, rec.query, rec.answer, (), rec.fakeanswer
        )
        triples.append((inst, r.prediction, r.error))
    return scored_items(triples)


def compare_all(
    submissions: Sequence[Entry], root: Path, resamples: int = 1000, seed: int = 2333
) -> Comparisons:
    """Every pair of submissions with predictions, compared on their shared instances."""
    splits: dict[tuple[Lang, Ability], SplitInfo] = {}
    cache: dict[tuple[Lang, Ability], dict[int, Record]] = {}
    scored: dict[str, list[ScoredItem]] = {}
    missing = []
    for sub in submissions:
        if not sub.predictions:
            missing.append(f"{sub.id}: no predictions to compare")
            continue
        try:
            scored[sub.id] = _scored(sub.predictions, root, splits, cache)
        except DataError as exc:
            missing.append(f"{sub.id}: {exc}")
    by_score: dict[ScoreKey, dict[PairKey, ScoreDifference]] = {}
    ids = sorted(scored)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            for key, d in paired_differences(scored[a], scored[b], splits, resamples, seed).items():
                by_score.setdefault(key, {})[(a, b)] = d
    return Comparisons(by_score, tuple(missing))

"""Paired comparisons of every pair of submissions, for the rank ranges of the ranking tables.

The predictions of each submission are scored again (both modes) with the answers looked up in
the data files, then every pair is compared on the instances both answered
(leaderboard.stats.ranked). Without predictions there is nothing to compare, and a split whose
data file is missing here is left out with the scores built on it: such pairs count as
indistinguishable and their rank ranges widen. The ranking tables name the entries left without a
comparison, and `site build` prints why, so a wide range that comes from a missing data file is
never mistaken for a close race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.board.load import Entry
from leaderboard.core.errors import DataError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import ABILITIES, Ability, Lang, Record, TestInstance
from leaderboard.data.splits import load_split
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, scored_items
from leaderboard.stats.ranked import ScoreDifference, ScoreKey, paired_differences

PairKey = tuple[str, str]


@dataclass(frozen=True)
class Comparisons:
    """A - B per score key (lang, mode, ability) and pair (a, b), a < b by id."""

    by_score: dict[ScoreKey, dict[PairKey, ScoreDifference]] = field(default_factory=dict)
    # submission id -> why it, or a split of it, could not be compared (no predictions, a data
    # file missing here)
    not_compared: dict[str, str] = field(default_factory=dict)

    @property
    def missing(self) -> tuple[str, ...]:
        """One "id: reason" line per submission not (wholly) compared, for the build's warnings."""
        return tuple(f"{sid}: {why}" for sid, why in sorted(self.not_compared.items()))

    def rows(self) -> list[dict[str, object]]:
        """Every paired difference A - B (a < b by id) as a record: what the rank ranges use,
        exported for the compare page (site.pages.compare), sorted."""
        out = []
        for (lang, mode, ability), table in sorted(self.by_score.items()):
            for (a, b), d in sorted(table.items()):
                out.append(
                    {
                        "a": a,
                        "b": b,
                        "lang": lang,
                        "mode": mode,
                        "ability": ability,
                        "diff": d.diff,
                        "ci_low": d.ci[0] if d.ci else None,
                        "ci_high": d.ci[1] if d.ci else None,
                        "n_questions": d.n_questions,
                        "sign": d.sign,
                    }
                )
        return out

    def significance(self, lang: str, mode: str, ability: str = "overall") -> dict[PairKey, int]:
        """(a, b) -> +1 / -1 / 0 for the rank ranges of one table."""
        table = self.by_score.get((lang, mode, ability), {})
        return {pair: d.sign for pair, d in table.items()}


def _scored(
    records: Sequence[PredictionRecord],
    root: Path,
    splits: dict[tuple[Lang, Ability], SplitInfo],
    cache: dict[tuple[Lang, Ability], dict[int, Record] | DataError],
) -> tuple[list[ScoredItem], dict[tuple[Lang, Ability], DataError]]:
    """The records scored against the answers in the data (the same look-up as `score`), and the
    splits left out because their data file cannot be read here. A missing file costs only the
    scores built on it (en integration, say, and the en and combined overall), not the entry's
    other comparisons; an id the data does not hold is an error of the whole entry (DataError)."""
    triples = []
    unreadable: dict[tuple[Lang, Ability], DataError] = {}
    for r in records:
        split = (r.lang, r.ability)
        if split not in cache:
            try:
                src, recs = load_split(root, r.lang, r.ability, allow_partial=True)
            except DataError as exc:
                cache[split] = exc
            else:
                splits[split] = SplitInfo(src.name, bool(src.complete), int(src.expected_n))
                cache[split] = {rec.id: rec for rec in recs}
        by_id = cache[split]
        if isinstance(by_id, DataError):
            unreadable[split] = by_id
            continue
        rec = by_id.get(r.id)
        if rec is None:
            raise DataError(f"prediction {r.key}: id {r.id} is not in {splits[split].data_file}")
        inst = TestInstance(
            r.lang, r.ability, r.noise_rate, r.id, rec.query, rec.answer, (), rec.fakeanswer
        )
        triples.append((inst, r.prediction, r.error))
    return scored_items(triples), unreadable


def compare_all(
    submissions: Sequence[Entry], root: Path, resamples: int = 1000, seed: int = 2333
) -> Comparisons:
    """Every pair of submissions with predictions, compared on their shared instances."""
    splits: dict[tuple[Lang, Ability], SplitInfo] = {}
    cache: dict[tuple[Lang, Ability], dict[int, Record] | DataError] = {}
    scored: dict[str, list[ScoredItem]] = {}
    not_compared: dict[str, str] = {}
    left_out: set[tuple[Lang, Ability]] = set()  # splits whose data file cannot be read here
    for sub in submissions:
        if not sub.predictions:
            not_compared[sub.id] = "no predictions to compare"
            continue
        try:
            items, unreadable = _scored(sub.predictions, root, splits, cache)
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

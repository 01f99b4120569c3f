"""The paired comparisons of the ranked entries, as the board holds them (`SiteData.comparisons`)
and the ranking tables read them: A - B per score and pair, and the entries left uncompared.
`board.paired.compare_all` computes them; `board.load` carries them with the loaded board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leaderboard.stats.ranked import ScoreDifference, ScoreKey

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

"""The answer-rate cell of the ability tables: the share of an entry's answers of one
language, ability and mode that do not refuse, with its interval, read from results.json's
`truthfulness` list (stats/outcomes computes it over all the ability's noise rates)."""

from __future__ import annotations

from leaderboard.board.load import Entry
from leaderboard.site.render.tables import Cell


def outcome_cell(s: Entry, lang: str, ability: str, mode: str, metric: str) -> Cell:
    """One figure of `truthfulness` (truthfulness, answer rate or an outcome's share) with its
    CI; "—" for a results.json scored before it existed, or an ability not measured."""
    for t in s.results.truthfulness:
        if (t.lang, t.ability, t.mode, t.metric) == (lang, ability, mode, metric):
            return Cell.rate(t.value, t.ci)
    return Cell.missing("not measured")


def answer_rate_cell(s: Entry, lang: str, ability: str, mode: str) -> Cell:
    """The answer rate with its CI."""
    return outcome_cell(s, lang, ability, mode, "answer_rate")

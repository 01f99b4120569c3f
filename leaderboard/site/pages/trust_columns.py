"""The ranking's "whom to trust" columns: beside how often a model is right (the strict overall),
what it does when no passage holds the answer (RGB's rejection questions): the share it makes up
(answers wrong, neither refusing nor claiming an error: the hallucination rate), its answer rate
(the share not refused) and its truthfulness (right +1, refused 0, wrong -1). Each with its
interval, read from results.json's `truthfulness` list (stats/outcomes): no figure is computed
here."""

from __future__ import annotations

from leaderboard.board.load import Entry
from leaderboard.site.pages.ability.outcome_cells import outcome_cell
from leaderboard.site.render.columns import column
from leaderboard.site.render.tables import Cell, Column

ABILITY = "rejection"
# column key (render.columns "trust.<key>") -> metric in results.json
TRUST = {"made_up": "wrong", "answer_rate": "answer_rate", "truthfulness": "truthfulness"}


def trust_columns(lg: str) -> list[Column]:
    """The three columns; on a phone only the made-up share stays, so a ranking fits a 390-px
    screen in every language (the answer rate is nearly its complement there, truthfulness its
    summary), the other two one tap away with the rest."""
    return [column(f"trust.{k}", lg, narrow=k != "made_up") for k in TRUST]


def trust_cells(s: Entry, lang: str, mode: str) -> dict[str, Cell]:
    return {k: outcome_cell(s, lang, ABILITY, mode, metric) for k, metric in TRUST.items()}

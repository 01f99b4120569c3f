"""The ranking's "whom to trust" columns: beside how often a model is right (the strict overall),
what it does when no passage holds the answer (RGB's rejection questions): the share it makes up
(answers wrong, neither refusing nor claiming an error: the hallucination rate), its answer rate
(the share not refused) and its truthfulness (right +1, refused 0, wrong -1). Each with its
interval, read from results.json's `truthfulness` list (stats/outcomes): no figure is computed
here."""

from __future__ import annotations

from leaderboard.board.load import Entry
from leaderboard.site.pages.ability.outcome_cells import outcome_cell
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.tables import Cell, Column

ABILITY = "rejection"
# column key -> (metric in results.json, message key)
TRUST = {
    "made_up": ("wrong", "trust.made_up"),
    "answer_rate": ("answer_rate", "trust.answer_rate"),
    "truthfulness": ("truthfulness", "trust.truthfulness"),
}


def trust_columns(lg: str) -> list[Column]:
    """The three columns; on a phone the answer rate folds (nearly the made-up share's
    complement there), one click away with the rest."""
    return [
        Column(k, ui(lg, m), True, ui(lg, f"{m}_tip"), narrow=k == "answer_rate")
        for k, (_, m) in TRUST.items()
    ]


def trust_cells(s: Entry, lang: str, mode: str) -> dict[str, Cell]:
    return {k: outcome_cell(s, lang, ABILITY, mode, metric) for k, (metric, _) in TRUST.items()}

"""The conflict panels the page shows and what several parts of it read from them: the panels
of the build (`SiteData.extra[PANELS]`), split into models and the trivial baselines (the floor),
the names of conditions and instructions as a reader sees them, and the partial-data counts
(what each entry has answered of the panel so far).
"""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.board.conflicts import ConflictPanel
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.core.types import LANGS
from leaderboard.protocol.conflicts import PANEL, condition_ids, load_condition
from leaderboard.protocol.instructions import load_instruction
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, shown_name

PANELS = "conflict_panels"  # SiteData.extra key: the build's list of board.ConflictPanel
# the conditions in the order the page shows them: the everyday conflict first, the baselines last
CHART_ORDER = ("t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2", "true_only", "fake_only")


def panels(ctx: Context) -> list[ConflictPanel]:
    found = ctx.data.extra.get(PANELS)
    return list(found) if isinstance(found, list | tuple) else []


def baselines(ctx: Context) -> set[str]:
    return {e.id for e in ctx.data.submissions if is_trivial_baseline(e.results)}


def split_panels(ctx: Context) -> tuple[list[ConflictPanel], list[ConflictPanel]]:
    """(models, trivial baselines): the baselines are the floor, shown apart."""
    floor = baselines(ctx)
    every = panels(ctx)
    return [p for p in every if p.entry_id not in floor], [p for p in every if p.entry_id in floor]


def condition_title(cid: str, lg: str) -> str:
    return load_condition(cid).title.get(lg) or cid


def instruction_title(iid: str, lg: str) -> str:
    return load_instruction(iid).title.get(lg) or iid


def panel_name(p: ConflictPanel, lg: str) -> str:
    return shown_name(p.entry_id, p.name, lg)


def ordered(conditions: Sequence[str]) -> list[str]:
    known = [c for c in CHART_ORDER if c in conditions]
    return [*known, *(c for c in conditions if c not in known)]


def eligible_counts(every: Sequence[ConflictPanel]) -> dict[tuple[str, str], int]:
    """(lang, condition) -> eligible questions, as any folder's coverage records it (the same
    data gives every entry the same count)."""
    out: dict[tuple[str, str], int] = {}
    for p in every:
        for rows in p.coverage.values():
            for c in rows:
                out.setdefault((c.lang, c.condition), c.eligible)
    return out


def coverage_counts(p: ConflictPanel, eligible: dict[tuple[str, str], int]) -> tuple[int, int]:
    """(answered, expected) over the whole panel (every instruction, condition and language)."""
    done = expected = 0
    for instruction, chosen in PANEL.items():
        rows = {(c.lang, c.condition): c for c in p.coverage.get(instruction, ())}
        for lang in LANGS:
            for cond in chosen or condition_ids():
                row = rows.get((lang, cond))
                expected += row.eligible if row else eligible.get((lang, cond), 0)
                done += row.answered if row else 0
    return done, expected


def partial_note(p: ConflictPanel, eligible: dict[tuple[str, str], int], lg: str) -> str:
    """A few words for an entry whose panel is not complete yet; empty when it is."""
    if p.complete():
        return ""
    done, expected = coverage_counts(p, eligible)
    return ui(lg, "conf.partial", name=panel_name(p, lg), done=done, expected=expected)

"""What a release changed, for a reader, in the reader's language: the first lines of each release
on the Releases page (pages.releases puts the CHANGELOG lines and the identifiers one click away).

From the two releases' frozen scores (board.release): per language, which models gained or lost
a strict overall score (the ranked figure: a model needs every ability measured in full to have
one), whose place in the order of those scores changed, and which scores moved outside their
interval at the earlier release (board.release.compare). Entries with new results files are
named only where their values moved; those whose values did not (a board-wide rescore) are one
line. Places are by the frozen values, so two models within each other's intervals
can swap places here while their rank ranges on the home page overlap: the line says "place", not
"rank range".
"""

from __future__ import annotations

from leaderboard.board.release import Changes, Release
from leaderboard.core.schema import DIFF_LANG
from leaderboard.core.types import LANGS
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.i18n import ui, ui_count

MODE = "strict"
_SHOWN_MOVES = 5  # scores outside their interval named on the first screen; the rest counted


def order(release: Release | None, lang: str) -> list[str]:
    """The models (track "model") with a strict overall of `lang`, best first."""
    if release is None or release.scores.empty:
        return []
    models = {e.id for e in release.entries if e.track == "model"}
    s = release.scores
    rows = s[
        (s["lang"] == lang)
        & (s["mode"] == MODE)
        & (s["ability"] == "overall")
        & (s["metric"] == "score")
        & s["model"].isin(models)
    ].dropna(subset=["value"])
    return [
        r.model for r in rows.sort_values(["value", "model"], ascending=[False, True]).itertuples()
    ]


def _names(lg: str, ids: list[str] | tuple[str, ...], names: dict[str, str]) -> str:
    return ui(lg, "sep.list").join(names.get(i, i) for i in ids)


def summary_lines(
    previous: Release | None, current: Release, changes: Changes, lg: str, names: dict[str, str]
) -> list[str]:
    """The reader's lines (plain text, in `lg`) of one release."""
    if previous is None:
        return [ui(lg, "relsum.first", n=len(current.entries))]
    lines = []
    if changes.added:
        lines.append(ui(lg, "relsum.added", entries=_names(lg, changes.added, names)))
    if changes.removed:
        lines.append(ui(lg, "relsum.removed", entries=_names(lg, changes.removed, names)))
    for lang in LANGS:
        before, after = order(previous, lang), order(current, lang)
        where = ui(lg, f"lang.{lang}")
        gained = [m for m in after if m not in before]
        lost = [m for m in before if m not in after]
        if gained:
            lines.append(ui(lg, "relsum.ranked", lang=where, entries=_names(lg, gained, names)))
        if lost:
            lines.append(ui(lg, "relsum.unranked", lang=where, entries=_names(lg, lost, names)))
        for m in after:
            if m in before and before.index(m) != after.index(m):
                lines.append(
                    ui(
                        lg,
                        "relsum.place",
                        entry=names.get(m, m),
                        lang=where,
                        before=before.index(m) + 1,
                        after=after.index(m) + 1,
                        n=len(after),
                    )
                )
    for m in changes.moved[:_SHOWN_MOVES]:
        ability = ui(lg, f"ability.{m.ability}")
        lines.append(
            ui(
                lg,
                "relsum.moved",
                entry=names.get(m.entry, m.entry),
                lang=ui(lg, f"lang.{m.lang}")
                if m.lang in (*LANGS, "all")
                else ui(lg, f"langcode.{m.lang}")
                if m.lang == DIFF_LANG
                else m.lang,
                ability=ability,
                mode=ui(lg, f"modecode.{m.mode}"),
                before=pct(m.before, lg=lg),
                after=pct(m.after, lg=lg),
            )
        )
    if len(changes.moved) > _SHOWN_MOVES:
        lines.append(ui(lg, "relsum.more_moved", n=len(changes.moved) - _SHOWN_MOVES))
    # new results files: only the entries whose values moved are named; the rest is one line
    moved = [r.entry for r in changes.rescored if r.changed]
    if moved:
        lines.append(ui(lg, "relsum.values_changed", entries=_names(lg, moved, names)))
    same = [r for r in changes.rescored if not r.changed]
    if same:
        key = (
            "relsum.rescore_same"
            if all(r.reason == "rescored" for r in same)
            else "relsum.changed_same"
        )
        lines.append(ui_count(lg, key, len(same)))
    return lines or [ui(lg, "relsum.nothing")]


def summary_html(
    previous: Release | None, current: Release, changes: Changes, lg: str, names: dict[str, str]
) -> str:
    lines = summary_lines(previous, current, changes, lg, names)
    if len(lines) == 1:
        return f'<p class="lb-release-summary">{esc(lines[0])}</p>'
    items = "".join(f"<li>{esc(line)}</li>" for line in lines)
    return f'<ul class="lb-release-summary">{items}</ul>'

"""The methodology page's check of the conflict track's outcome reader: its agreement with the
hand-labelled conflict answers (leaderboard/scoring/labels/conflict_<lang>.jsonl), per language,
on the part rules may be written against (dev) and on the held-out part (test), computed at build
time from the packaged labels, as `rgb-leaderboard conflicts agreement` prints it."""

from __future__ import annotations

from collections import Counter

from leaderboard.core.types import LANGS
from leaderboard.scoring.conflict_labelled import agreement, conflict_labels
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.intervals import wilson_share

SPLITS = ("test", "dev")  # the held-out part first: it is the figure to trust


def _confusions(pairs: tuple[tuple[str, str, int], ...], lg: str) -> str:
    if not pairs:
        return ui(lg, "conf.agree_none")
    return ui(lg, "sep.list").join(
        f"{ui(lg, f'conf.label.{a}')} → {ui(lg, f'conf.label.{b}')} {n}" for a, b, n in pairs
    )


def conflict_agreement_table(lg: str = DEFAULT) -> Table | None:
    """One row per language and part: answers, exact agreement with its Wilson interval, and
    where the reader errs (hand label → reader's label); None without labels."""
    rows = []
    for lang in LANGS:
        items = conflict_labels(lang)
        for split in SPLITS:
            a = agreement(items, lang, split)
            if not a.n:
                continue
            cells = {
                "lang": Cell.text(ui(lg, f"lang.{lang}"), lang),
                "split": Cell.text(ui(lg, f"agree.judge_split_{split}"), split),
                "n": Cell.text(a.n, a.n),
                "agreement": Cell.rate(a.share, wilson_share(a.share, a.n)),
                "confusions": Cell(
                    [list(p) for p in a.confusions], esc(_confusions(a.confusions, lg))
                ),
            }
            rows.append(Row(cells))
    if not rows:
        return None
    return Table(
        id="conflict-reader-agreement",
        title=ui(lg, "conf.agree_title"),
        columns=columns(
            lg, *(f"confagree.{k}" for k in ("lang", "split", "n", "agreement", "confusions"))
        ),
        rows=tuple(rows),
        filterable=False,
        ui=lg,
    )


def _sources(lg: str) -> str:
    """Whose answers the labelled set holds: each entry with its count, both languages together."""
    counts = Counter(item.id.split("/", 1)[0] for lang in LANGS for item in conflict_labels(lang))
    return ui(lg, "sep.list").join(f"`{entry}` {n}" for entry, n in sorted(counts.items()))


def conflict_agreement_section(out: Output, lg: str = DEFAULT) -> str:
    """The section: what was labelled and how, then the table."""
    table = conflict_agreement_table(lg)
    if table is None:
        return ""
    head = f"\n## {ui(lg, 'conf.agree_h')}\n\n"
    text = ui(lg, "conf.agree_text", sources=_sources(lg)) + "\n"
    return head + esc(text) + out.table(table, "")

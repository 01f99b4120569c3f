"""The methodology page's check of the grounding check: its agreement with the hand-labelled
answers (leaderboard/scoring/labels/grounding_<lang>.jsonl), per language, the held-out test part
first, then dev and both: the category, the source of the wrong answers (from a passage or
invented) and the relevance, each with its Wilson interval and n; the confusion counts one click
away; one line naming where the check errs most. Computed at build time from the packaged labels,
as `rgb-leaderboard grounding-agreement` prints it; one line when no label is packaged yet."""

from __future__ import annotations

from collections import Counter

from leaderboard.board.grounding_labelled import (
    Agreement,
    agreement,
    agreements,
    label_comparisons,
)
from leaderboard.core.types import LANGS
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.intervals import wilson_share

TABLE_ID = "grounding-label-agreement"
CONFUSION_ID = "grounding-label-confusions"
# the message naming each value a label or the check gives (grounding_labelled's strings)
VALUE_KEYS = {
    "correct_grounded": "grc.correct_grounded",
    "correct_from_memory": "grc.correct_from_memory",
    "wrong_from_passage/gold": "grc.wrong_from_gold",
    "wrong_from_passage/noise": "grc.wrong_from_noise",
    "wrong_from_passage/altered": "grc.wrong_from_altered",
    "wrong_from_passage/mixed": "grag.wrong_from_mixed",
    "invented": "grc.invented",
    "refused": "grc.refused",
    "error_claimed": "grc.error_claimed",
    "undetermined": "grc.undetermined",
    "from_passage": "gr.from_passage",
    "relevant": "gr.relevant",
    "not_relevant": "grag.not_relevant",
}


def value_name(value: str, lg: str) -> str:
    return ui(lg, VALUE_KEYS[value])


def _split(split: str, lg: str) -> str:
    return ui(lg, "grag.split_all") if split == "all" else ui(lg, f"agree.judge_split_{split}")


def _agreements() -> list[Agreement]:
    return [a for lang in LANGS for a in agreements(label_comparisons(lang), lang)]


def agreement_table(lg: str = DEFAULT, held_out: bool = True) -> Table | None:
    """One row per language and measure: n and the exact agreement with its Wilson interval;
    the held-out test part (the first screen), or with held_out=False the tuning part and all
    labelled answers (one click away); None without labels."""
    rows = []
    for a in _agreements():
        if (a.split == "test") != held_out:
            continue
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{a.lang}"), a.lang),
            "split": Cell.text(_split(a.split, lg), a.split),
            "measure": Cell.text(ui(lg, f"grag.measure_{a.measure}"), a.measure),
            "n": Cell.text(a.n, a.n),
            "agreement": Cell.rate(a.share, wilson_share(a.share, a.n)),
        }
        rows.append(Row(cells))
    if not rows:
        return None
    return Table(
        id=TABLE_ID if held_out else f"{TABLE_ID}-dev-all",
        title=ui(lg, "grag.title" if held_out else "grag.title_dev_all"),
        columns=columns(
            lg, *(f"gragree.{k}" for k in ("lang", "split", "measure", "n", "agreement"))
        ),
        rows=tuple(rows),
        note=ui(lg, "grag.note"),
        filterable=False,
        ui=lg,
    )


def confusion_table(lg: str = DEFAULT) -> Table | None:
    """Where the check differs from the labels: one row per language, part (test, then dev),
    measure and pair (the hand label, the check's), with the count; None when it never differs."""
    rows = []
    for a in _agreements():
        if a.split == "all":
            continue
        for hand, check, n in a.confusions:
            cells = {
                "lang": Cell.text(ui(lg, f"lang.{a.lang}"), a.lang),
                "split": Cell.text(_split(a.split, lg), a.split),
                "measure": Cell.text(ui(lg, f"grag.measure_{a.measure}"), a.measure),
                "hand": Cell.text(value_name(hand, lg), hand),
                "check": Cell.text(value_name(check, lg), check),
                "count": Cell.text(n, n),
            }
            rows.append(Row(cells))
    if not rows:
        return None
    ids = ("lang", "split", "measure", "hand", "check", "count")
    return Table(
        id=CONFUSION_ID,
        title=ui(lg, "grag.confusion_title"),
        columns=columns(lg, *(f"gragree.{k}" for k in ids)),
        rows=tuple(rows),
        filterable=False,
        ui=lg,
    )


def errs_line(lg: str = DEFAULT) -> str:
    """One line: per language, the commonest category confusion over every labelled answer."""
    found = []
    for lang in LANGS:
        a = agreement(label_comparisons(lang), lang, "all", "category")
        if not a.n:
            continue
        if not a.confusions:
            found.append(ui(lg, "grag.errs_none", lang=ui(lg, f"lang.{lang}")))
            continue
        hand, check, n = a.confusions[0]
        found.append(
            ui(
                lg,
                "grag.errs_pair",
                lang=ui(lg, f"lang.{lang}"),
                hand=value_name(hand, lg),
                check=value_name(check, lg),
                n=n,
                total=a.n,
            )
        )
    return ui(lg, "grag.errs", pairs=ui(lg, "grag.errs_sep").join(found)) if found else ""


def _sources(lg: str) -> str:
    """Whose answers the labelled set holds: each entry with its count, both languages together."""
    counts = Counter(c.id.split("/", 1)[0] for lang in LANGS for c in label_comparisons(lang))
    return ui(lg, "sep.list").join(f"`{entry}` {n}" for entry, n in sorted(counts.items()))


def grounding_agreement_section(out: Output, lg: str = DEFAULT) -> str:
    """The section: what was labelled and how, then the table, the line on where the check errs
    and the confusion counts (details); one line when no label is packaged."""
    parts = [f"\n## {ui(lg, 'grag.h')}\n", f"\n{esc(ui(lg, 'grag.text'))}\n"]
    table = agreement_table(lg)
    if table is None:
        return "".join(parts) + f"\n{esc(ui(lg, 'grag.none'))}\n"
    parts.append(f"\n{esc(ui(lg, 'grag.sources', sources=_sources(lg)))}\n")
    parts.append(out.table(table, ""))
    parts.append(f"\n{esc(errs_line(lg))}\n")
    behind = [t for t in (agreement_table(lg, held_out=False), confusion_table(lg)) if t]
    if behind:
        summary = esc(ui(lg, "grag.details"))
        parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
        parts += [out.table(t, "").strip("\n") for t in behind]
        parts.append("</details>\n")
    return "".join(parts)

"""Machine-written reasons (why an entry is partial, why a cell has no score) in the page language.

The reasons are English sentences written by the runner (run.plan, run.assemble), the statistics
(stats.aggregate) and the board (board.ranking) into results.json and the board's values: data, so
they stay English in results.json and the downloads. A Chinese page shows them in Chinese when
they have one of the known shapes below (the message keys `reason.*`); any other text, and any
text in the default language, is shown as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from leaderboard.site.render.i18n import DEFAULT, table, ui

_ABILITY_LIST = r"[a-z, ]+"


def _abilities(lg: str, text: str) -> str:
    names = [a.strip() for a in text.split(",") if a.strip()]
    sep = "、" if lg == "zh" else ", "
    if text.strip() == "none of the four":
        return ui(lg, "reason.none_of_four")
    known = table(DEFAULT)
    return sep.join(ui(lg, f"ability.{a}") if f"ability.{a}" in known else a for a in names)


def _overall(lg: str, m: re.Match[str]) -> str:
    parts = []
    for part in m.group("rest").split("; "):
        if part.startswith("not measured: "):
            parts.append(ui(lg, "reason.not_measured_list", abilities=_abilities(lg, part[14:])))
        elif part.startswith("not complete official data: "):
            parts.append(ui(lg, "reason.not_complete_list", abilities=_abilities(lg, part[28:])))
        else:
            parts.append(part)
    return ui(lg, "reason.no_overall", lang=m.group("lang"), reasons=_sep(lg).join(parts))


def _codes(lg: str, text: str) -> str:
    """A list of language codes ("zh, en") joined as the page language lists things."""
    return ui(lg, "sep.list").join(c.strip() for c in text.split(","))


def _sep(lg: str) -> str:
    return ui(lg, "reason.sep")


_SHAPES: tuple[tuple[re.Pattern[str], Callable[[str, re.Match[str]], str]], ...] = (
    (re.compile(r"no (?P<lang>zh|en|all) overall: (?P<rest>.+)"), _overall),
    (
        re.compile(r"no overall score for (?P<langs>(?:zh|en)(?:, (?:zh|en))*)"),
        lambda lg, m: ui(lg, "reason.no_overall_for", langs=_codes(lg, m.group("langs"))),
    ),
    (re.compile(r"not measured"), lambda lg, m: ui(lg, "reason.not_measured")),
    (re.compile(r"not every instance run"), lambda lg, m: ui(lg, "reason.not_every_instance")),
    (
        re.compile(r"incomplete scores \(missing cells\)"),
        lambda lg, m: ui(lg, "reason.incomplete_scores"),
    ),
    (re.compile(r"run marked partial"), lambda lg, m: ui(lg, "reason.marked_partial")),
    (
        re.compile(r"partial data file: (?P<files>.+)"),
        lambda lg, m: ui(lg, "reason.partial_files", files=m.group("files")),
    ),
    (
        re.compile(r"--limit (?P<n>\d+): only the first (?P=n) records of each split"),
        lambda lg, m: ui(lg, "reason.limit", n=m.group("n")),
    ),
    (
        re.compile(
            r"(?P<split>[a-z]+/[a-z]+): partial data file (?P<file>\S+) "
            r"\(stands in for the official split of (?P<n>\d+) records\)"
        ),
        lambda lg, m: ui(lg, "reason.partial_file", **m.groupdict()),
    ),
    (
        re.compile(r"(?P<split>[a-z]+/[a-z]+): not run, data file not available"),
        lambda lg, m: ui(lg, "reason.not_run", split=m.group("split")),
    ),
    (
        re.compile(rf"abilities limited to (?P<abilities>{_ABILITY_LIST})"),
        lambda lg, m: ui(lg, "reason.abilities", abilities=_abilities(lg, m.group("abilities"))),
    ),
    (
        re.compile(r"languages limited to (?P<langs>[a-z, ]+)"),
        lambda lg, m: ui(lg, "reason.languages", langs=m.group("langs")),
    ),
    (
        re.compile(r"(?P<cell>[a-z]+/[a-z]+/[0-9.]+): n=(?P<n>\d+) of (?P<expected>\d+)"),
        lambda lg, m: ui(lg, "reason.cell_n", **m.groupdict()),
    ),
    (
        re.compile(
            r"scores cover every recorded prediction of these settings: (?P<n>\d+) beyond this "
            r"invocation's selection(?: \((?P<inner>.+)\))?"
        ),
        lambda lg, m: (
            ui(lg, "reason.beyond", n=m.group("n"))
            + (
                ui(lg, "reason.paren", inner=joined(lg, m.group("inner").split("; ")))
                if m.group("inner")
                else ""
            )
        ),
    ),
    (
        re.compile(r"(?P<n>\d+) recorded predictions left out: their prompts differ from the data"),
        lambda lg, m: ui(lg, "reason.stale", n=m.group("n")),
    ),
    (
        re.compile(
            r"(?P<n>\d+) answers from (?P<k>\d+) invocation\(s\) of uncommitted or unrecorded "
            r"code, not attested; cleared by `(?P<cmd>[^`]+)` from a clean checkout"
        ),
        lambda lg, m: ui(lg, "reason.unattested", **m.groupdict()),
    ),
    (
        re.compile(r"backend '(?P<backend>[a-z_]+)' is a scripted policy, not a model"),
        lambda lg, m: ui(lg, "reason.scripted", **m.groupdict()),
    ),
    (
        re.compile(r"model revision (?P<rev>.+) is not pinned to a commit or a file hash"),
        lambda lg, m: ui(lg, "reason.unpinned", **m.groupdict()),
    ),
    (
        re.compile(r"(?P<n>\d+) planned instances have no prediction \(first: (?P<first>.+)\)"),
        lambda lg, m: ui(lg, "reason.unpredicted", **m.groupdict()),
    ),
)


def reason(lg: str, text: str | None) -> str | None:
    """`text` in the page language when it has a known shape, else unchanged."""
    if text is None or lg == DEFAULT:
        return text
    for pattern, render in _SHAPES:
        m = pattern.fullmatch(text)
        if m is not None:
            return render(lg, m)
    return text


def reasons(lg: str, texts: tuple[str, ...] | list[str]) -> list[str]:
    """Each of `texts` through `reason`."""
    return [reason(lg, t) or t for t in texts]


def joined(lg: str, texts: tuple[str, ...] | list[str]) -> str:
    """The reasons in the page language, joined as that language separates clauses."""
    return _sep(lg).join(reasons(lg, texts))

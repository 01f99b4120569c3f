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


# a shape -> its message key (filled with the pattern's named groups) or the function that words it
_Words = str | Callable[[str, re.Match[str]], str]
_WRITTEN: tuple[tuple[str, _Words], ...] = (
    (r"no (?P<lang>zh|en|all) overall: (?P<rest>.+)", _overall),
    (
        r"no overall score for (?P<langs>(?:zh|en)(?:, (?:zh|en))*)",
        lambda lg, m: ui(lg, "reason.no_overall_for", langs=_codes(lg, m.group("langs"))),
    ),
    (r"not measured", "reason.not_measured"),
    (r"not every instance run", "reason.not_every_instance"),
    (r"incomplete scores \(missing cells\)", "reason.incomplete_scores"),
    (r"run marked partial", "reason.marked_partial"),
    (r"partial data file: (?P<files>.+)", "reason.partial_files"),
    (r"--limit (?P<n>\d+): only the first (?P=n) records of each split", "reason.limit"),
    (
        (
            r"(?P<split>[a-z]+/[a-z]+): partial data file (?P<file>\S+) "
            r"\(stands in for the official split of (?P<n>\d+) records\)"
        ),
        "reason.partial_file",
    ),
    (r"(?P<split>[a-z]+/[a-z]+): not run, data file not available", "reason.not_run"),
    (
        rf"abilities limited to (?P<abilities>{_ABILITY_LIST})",
        lambda lg, m: ui(lg, "reason.abilities", abilities=_abilities(lg, m.group("abilities"))),
    ),
    (r"languages limited to (?P<langs>[a-z, ]+)", "reason.languages"),
    (r"(?P<cell>[a-z]+/[a-z]+/[0-9.]+): n=(?P<n>\d+) of (?P<expected>\d+)", "reason.cell_n"),
    (
        (
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
        r"(?P<n>\d+) recorded predictions left out: their prompts differ from the data",
        "reason.stale",
    ),
    (
        (
            r"(?P<n>\d+) answers from (?P<k>\d+) invocation\(s\) of uncommitted or unrecorded "
            r"code, not attested; cleared by `(?P<cmd>[^`]+)` from a clean checkout"
        ),
        "reason.unattested",
    ),
    (r"backend '(?P<backend>[a-z_]+)' is a scripted policy, not a model", "reason.scripted"),
    (r"model revision (?P<rev>.+) is not pinned to a commit or a file hash", "reason.unpinned"),
    (
        r"(?P<n>\d+) planned instances have no prediction \(first: (?P<first>.+)\)",
        "reason.unpredicted",
    ),
)
_SHAPES = tuple((re.compile(pattern), words) for pattern, words in _WRITTEN)


def reason(lg: str, text: str | None) -> str | None:
    """`text` in the page language when it has a known shape, else unchanged."""
    if text is None or lg == DEFAULT:
        return text
    for pattern, render in _SHAPES:
        m = pattern.fullmatch(text)
        if m is not None:
            return ui(lg, render, **m.groupdict()) if isinstance(render, str) else render(lg, m)
    return text


def reasons(lg: str, texts: tuple[str, ...] | list[str]) -> list[str]:
    """Each of `texts` through `reason`."""
    return [reason(lg, t) or t for t in texts]


def joined(lg: str, texts: tuple[str, ...] | list[str]) -> str:
    """The reasons in the page language, joined as that language separates clauses."""
    return _sep(lg).join(reasons(lg, texts))

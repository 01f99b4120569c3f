"""What an entry covers, in a few words: "zh complete · en: noise, rejection 50 of 300 questions
(partial file); integration not run".

The reasons the runner writes (results.json `partial_reasons`, one per cell and split) are
complete but long: listed under every table they made a paragraph of 600-900 characters that
readers skipped. Tables show this phrase instead, built from the cells themselves (so it says
the same in every language), once per entry; the model page keeps the full list.
"""

from __future__ import annotations

from collections import defaultdict

from leaderboard.core.schema import Results
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.render.i18n import DEFAULT, table, ui


def _name(lg: str, ability: str) -> str:
    """An ability's short name (the probes by their id, which the pages also show)."""
    key = f"coverage.ability_{ability}"
    return ui(lg, key) if key in table(DEFAULT) else ability


def _lang_phrase(
    lg: str, results: Results, lang: str, mode: str, only: tuple[str, ...] | None = None
) -> str:
    """The phrase of one language: of every cell and the four abilities, or of the abilities
    (probes) in `only`."""
    cells = [
        c
        for c in results.cells
        if c.mode == mode and c.lang == lang and (only is None or c.ability in only)
    ]
    if not cells:
        return ui(lg, "coverage.lang_not_run", lang=lang)
    by_ability = defaultdict(list)
    for c in cells:
        by_ability[c.ability].append(c)
    groups: dict[tuple[int, int, bool], list[str]] = {}
    for ability, cs in by_ability.items():
        short = any(c.n < c.expected_n for c in cs)
        partial_file = any(not c.data_complete for c in cs)
        if short or partial_file:
            key = (min(c.n for c in cs), max(c.expected_n for c in cs), partial_file)
            groups.setdefault(key, []).append(ability)
    not_run = [a for a in (ABILITIES if only is None else only) if a not in by_ability]
    if not groups and not not_run:
        return ui(lg, "coverage.complete", lang=lang)
    sep = ui(lg, "coverage.list_sep")
    bits = []
    for (n, expected, partial_file), abilities in groups.items():
        every = set(abilities) == set(by_ability)  # then the abilities need no naming
        names = "" if every else sep.join(_name(lg, a) for a in abilities)
        bit = ui(lg, "coverage.questions", abilities=names, n=n, expected=expected).strip()
        bits.append(bit + (ui(lg, "coverage.partial_file") if partial_file else ""))
    if not_run:
        bits.append(ui(lg, "coverage.not_run", abilities=sep.join(_name(lg, a) for a in not_run)))
    return ui(lg, "coverage.lang", lang=lang, parts=ui(lg, "coverage.part_sep").join(bits))


def coverage_phrase(lg: str, results: Results, mode: str = "rgb") -> str:
    """One short phrase per entry: each language's coverage, from the cells of `mode` (both
    modes score the same instances)."""
    parts = [_lang_phrase(lg, results, lang, mode) for lang in LANGS]
    if results.partial and parts == [ui(lg, "coverage.complete", lang=lang) for lang in LANGS]:
        parts.append(ui(lg, "coverage.marked_partial"))
    return ui(lg, "coverage.sep").join(p for p in parts if p)


def system_phrase(lg: str, results: Results, langs: tuple[str, ...] = LANGS) -> str:
    """A system's coverage: the questions of the chain probe (all a system is measured on) per
    language, e.g. "zh: 100 of 300 questions · en: 50 of 300 questions (partial file)"."""
    parts = [_lang_phrase(lg, results, lang, "rgb", only=("chain",)) for lang in langs]
    return ui(lg, "coverage.sep").join(parts)

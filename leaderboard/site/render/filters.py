"""The filter bar of a ranking table: size, quantization, engine, licence, open weights and
measured versus reported, in the page's language.

Rows carry their facets as data attributes (`data-f-<facet>`, written by render.facts);
assets/lb.js reads the bar's choices from the page URL's query (`?open=yes&size=le2b&quant=Q4_K_M`)
and writes them back, so a filtered view is a link, and every bar of a page shows the same choice.
The options of the data facets are the values the table's rows hold (names as data, marked
`lang="en"` where they are written as they are on the page of another language).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui

# (facet, fixed options or None for the values the rows hold)
SIZE_OPTIONS = ("le2b", "le8b", "le15b")
FACETS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("size", SIZE_OPTIONS),
    ("quant", None),
    ("engine", None),
    ("licence", None),
    ("open", ("yes", "no")),
    ("kind", ("measured", "reported")),
)
UNKNOWN = "unknown"  # a facet nobody recorded


def option_label(facet: str, value: str, lg: str) -> tuple[str, bool]:
    """The label of one option and whether it is data (a name shown as written)."""
    if value == UNKNOWN:
        return ui(lg, "filter.unknown"), False
    if facet in ("size", "open", "kind"):
        return ui(lg, f"filter.{facet}_{value}"), False
    if facet == "engine" and value.startswith("access:"):
        return ui(lg, f"facts.{value.replace(':', '_')}"), False
    return value, True


def _select(facet: str, values: Iterable[str], lg: str) -> str:
    opts = [f'<option value="">{esc(ui(lg, "filter.all"))}</option>']
    for v in values:
        label, data = option_label(facet, v, lg)
        lang = ' lang="en"' if data else ""
        opts.append(f'<option value="{esc(v)}"{lang}>{esc(label)}</option>')
    return (
        f'<label class="lb-control">{esc(ui(lg, f"filter.{facet}"))} '
        f'<select name="{esc(facet)}">{"".join(opts)}</select></label>'
    )


def filter_bar(table_id: str, lg: str, rows: Iterable[Mapping[str, str]] = ()) -> str:
    """The bar above table `table_id`: one select per facet, a reset button, the count of rows
    shown and a link to the filtered view (assets/lb.js fills the count and the link)."""
    rows = list(rows)
    selects = []
    for facet, fixed in FACETS:
        values = fixed
        if values is None:
            found = {r.get(f"f-{facet}", "") for r in rows} - {""}
            values = tuple(sorted(found - {UNKNOWN})) + ((UNKNOWN,) if UNKNOWN in found else ())
        selects.append(_select(facet, values, lg))
    count = esc(ui(lg, "filter.count"))
    return (
        f'<form class="lb-facets" data-table="{esc(table_id)}" role="search" '
        f'aria-label="{esc(ui(lg, "filter.label"))}" data-count="{count}">'
        + "".join(selects)
        + f'<button type="reset" class="md-button lb-facet-reset">{esc(ui(lg, "filter.reset"))}'
        "</button>"
        f'<button type="button" class="md-button lb-facet-more" aria-pressed="false" '
        f'data-show="{esc(ui(lg, "filter.more"))}" data-hide="{esc(ui(lg, "filter.less"))}">'
        f"{esc(ui(lg, 'filter.more'))}</button>"
        f'<a class="lb-facet-link" href="">{esc(ui(lg, "filter.link"))}</a>'
        '<span class="lb-facet-count" aria-live="polite"></span></form>'
    )

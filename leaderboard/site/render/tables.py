"""Tables: one value model rendered three ways (HTML for pages, CSV and JSON for downloads).

Rows carry raw values for export and escaped display HTML built here, so page code never
concatenates untrusted strings into markup. Reported (paper) rows live in a second <tbody>:
tablesort sorts each tbody on its own, so they never mix into the measured ranking. Trivial
baselines (scripted answer policies, never ranked) get a band of their own under the measured rows:
a labelled tbody, again sorted on its own.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Protocol

from leaderboard.board.export import spreadsheet_safe
from leaderboard.site.render.filters import filter_bar
from leaderboard.site.render.fmt import esc, rate_html
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.reasons import reason


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    numeric: bool = False
    title: str | None = None  # tooltip (definition)
    extra: bool = False  # shown on demand (the filter bar's "all facts" switch), not by default
    narrow: bool = False  # on a phone, shown on demand too (a ranking keeps to the screen)


class Measured(Protocol):
    """A recorded figure with its interval (core.schema's score, probe and outcome entries)."""

    @property
    def value(self) -> float | None: ...

    @property
    def ci(self) -> tuple[float, float] | None: ...


@dataclass(frozen=True)
class Cell:
    """A table cell: `value` is exported, `html` (already escaped) displayed, `sort` ordered by."""

    value: object
    html: str
    sort: float | str | None = None
    note: str = ""  # plain text listed once under the table (e.g. why an entry is partial)
    why: str = ""  # why a value is missing: shown under "—" in the table's language
    # a rate (value, CI): `html` is its English form; a table of another language writes the
    # numbers as that language does (U+2212, "至" between negative bounds), so it keeps them
    shown_rate: tuple[float | None, tuple[float, float] | None] | None = None
    entry: str = ""  # the entry a model cell names (render.facts adds its facts to the row)

    @staticmethod
    def text(value: object, sort: float | str | None = None) -> Cell:
        return Cell(value, esc("—" if value is None else value), sort)

    @staticmethod
    def link(value: str, href: str, extra_html: str = "") -> Cell:
        return Cell(value, f'<a href="{esc(href)}">{esc(value)}</a>{extra_html}', value)

    @staticmethod
    def missing(reason: str | None) -> Cell:
        """No value: "—" with the reason underneath (exported as a null value and the reason,
        as written; shown in the table's language, render.reasons)."""
        return Cell({"value": None, "missing": reason}, esc("—"), -1.0, why=reason or "")

    @staticmethod
    def rate(value: float | None, ci: tuple[float, float] | None = None) -> Cell:
        """A fraction shown as a percentage with its CI underneath; exported with its bounds."""
        exported = {
            "value": value,
            "ci_low": ci[0] if ci else None,
            "ci_high": ci[1] if ci else None,
        }
        sort = -1.0 if value is None else round(value, 6)
        return Cell(exported, rate_html(value, ci), sort, shown_rate=(value, ci))

    @staticmethod
    def score(entry: Measured | None) -> Cell:
        """A recorded figure (a score, probe or truthfulness entry; None: not measured) as a
        rate cell."""
        return Cell.rate(entry.value if entry else None, entry.ci if entry else None)


@dataclass(frozen=True)
class Row:
    cells: dict[str, Cell]
    css: str = ""
    attrs: tuple[tuple[str, str], ...] = ()  # data-* attributes of the <tr> (the filters' facets)


@dataclass(frozen=True)
class Table:
    id: str  # also the download file stem
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    reported_rows: tuple[Row, ...] = ()
    baseline_rows: tuple[Row, ...] = ()  # trivial baselines: the band under the ranking
    note: str = ""  # plain text shown under the table
    filterable: bool = True
    meta: dict[str, object] = field(default_factory=dict)
    ui: str = DEFAULT  # interface language of the labels around the table (render.i18n)
    facets: bool = False  # rows carry facets (render.facts): the filter bar goes above the table
    band_label: str = "table.baseline_band"  # the message key of the baseline band's heading


def _row_html(row: Row, columns: tuple[Column, ...], lg: str) -> str:
    tds = []
    for col in columns:
        extra = _col_class(col)
        c = row.cells.get(col.key) or Cell.text(None)
        sort = "" if c.sort is None else f' data-sort="{esc(c.sort)}"'
        why = f' <span class="lb-why">{esc(reason(lg, c.why))}</span>' if c.why else ""
        shown = c.html if c.shown_rate is None or lg == DEFAULT else rate_html(*c.shown_rate, lg)
        tds.append(f"<td{sort}{extra}>{shown}{why}</td>")
    cls = f' class="{esc(row.css)}"' if row.css else ""
    cls += "".join(f' data-{esc(k)}="{esc(v)}"' for k, v in row.attrs)
    return f"<tr{cls}>" + "".join(tds) + "</tr>"


def _col_class(col: Column) -> str:
    names = [n for n, on in (("lb-extra", col.extra), ("lb-narrow-hide", col.narrow)) if on]
    return f' class="{" ".join(names)}"' if names else ""


def _more(row: Row) -> Row:
    return Row(row.cells, f"{row.css} lb-band-more".strip(), row.attrs)


def _band_head(table: Table) -> str:
    """The baseline band's heading, with the "show all" switch when there is more than one row."""
    lg, n = table.ui, len(table.baseline_rows)
    switch = (
        f' <button type="button" class="md-button lb-band-toggle" aria-expanded="false" '
        f'data-show="{esc(ui(lg, "table.band_show_all", n=n))}" '
        f'data-hide="{esc(ui(lg, "table.band_show_top"))}" hidden>'
        f"{esc(ui(lg, 'table.band_show_all', n=n))}</button>"
        if n > 1
        else ""
    )
    return (
        f'<tbody class="lb-band-head"><tr><th colspan="{len(table.columns)}" scope="rowgroup">'
        f"{esc(ui(lg, table.band_label))}{switch}</th></tr></tbody>"
    )


def _cell_notes(table: Table) -> list[str]:
    """Each distinct cell note of the table once, with the rows (cell values) it applies to, in
    row order: a row's badge tooltip stays short, the long text is said once under the table."""
    rows = (*table.rows, *table.baseline_rows, *table.reported_rows)
    by_note: dict[str, list[str]] = {}
    for r in rows:
        for c in r.cells.values():
            names = by_note.setdefault(c.note, []) if c.note else None
            if names is not None and str(c.value) not in names:  # once per entry
                names.append(str(c.value))
    lg = table.ui
    return [f"{_names(lg, names)}{ui(lg, 'sep.label')}{note}" for note, names in by_note.items()]


def _names(lg: str, names: list[str], shown: int = 3) -> str:
    """The entries a note applies to; past `shown`, a count (the rows name them all)."""
    sep = ui(lg, "sep.list")
    if len(names) <= shown:
        return sep.join(names)
    return ui(lg, "table.notes_more", names=sep.join(names[:2]), n=len(names) - 2)


def _facet_rows(table: Table) -> list[dict[str, str]]:
    return [dict(r.attrs) for r in (*table.rows, *table.baseline_rows, *table.reported_rows)]


def render_html(table: Table, download_prefix: str = "") -> str:
    """A self-contained HTML block (blank lines around it keep Markdown from touching it)."""
    ths = []
    for col in table.columns:
        attrs = ' data-sort-method="number"' if col.numeric else ""
        if col.title:
            attrs += f' title="{esc(col.title)}"'
        attrs += _col_class(col)
        ths.append(f'<th scope="col"{attrs}>{esc(col.label)}</th>')
    body = "".join(_row_html(r, table.columns, table.ui) for r in table.rows)
    parts = [
        f'<div class="lb-table-wrap" id="wrap-{esc(table.id)}">',
        (
            f'<input class="lb-filter" type="search" '
            f'placeholder="{esc(ui(table.ui, "table.filter"))}" '
            f'aria-label="{esc(ui(table.ui, "table.filter_label", title=table.title))}" '
            f'data-table="{esc(table.id)}">'
            if table.filterable
            else ""
        ),
        filter_bar(table.id, table.ui, _facet_rows(table)) if table.facets else "",
        '<div class="lb-scroll">',
        f'<table class="lb-table" id="{esc(table.id)}">',
        "<thead><tr>" + "".join(ths) + "</tr></thead>",
        f"<tbody>{body}</tbody>",
    ]
    if table.baseline_rows:
        parts.append(_band_head(table))
        # the band collapses to its first (highest) row; assets/lb.js hides the rest until the
        # reader asks (without the script every row shows)
        band = "".join(
            _row_html(r if i == 0 else _more(r), table.columns, table.ui)
            for i, r in enumerate(table.baseline_rows)
        )
        parts.append(f'<tbody class="lb-baseline-body">{band}</tbody>')
    if table.reported_rows:
        rep = "".join(_row_html(r, table.columns, table.ui) for r in table.reported_rows)
        parts.append(f'<tbody class="lb-reported-body">{rep}</tbody>')
    parts.append("</table></div>")
    links = (
        f'<a href="{esc(download_prefix)}downloads/{esc(table.id)}.csv">CSV</a> · '
        f'<a href="{esc(download_prefix)}downloads/{esc(table.id)}.json">JSON</a>'
    )
    note = esc(table.note) + ui(table.ui, "sep.sentence") if table.note else ""
    parts.append(f'<p class="lb-note">{note}{esc(ui(table.ui, "table.download"))} {links}</p>')
    notes = _cell_notes(table)
    if notes:
        items = "".join(f"<li>{esc(n)}</li>" for n in notes)
        parts.append(f'<ul class="lb-note lb-cell-notes">{items}</ul>')
    parts.append("</div>")
    return "\n\n" + "\n".join(p for p in parts if p) + "\n\n"


def _flat(columns: tuple[Column, ...], row: Row, kind: str) -> dict[str, object]:
    out: dict[str, object] = {"row_kind": kind}
    for col in columns:
        c = row.cells.get(col.key)
        value = None if c is None else c.value
        if isinstance(value, dict):
            for sub, v in value.items():
                out[f"{col.key}" if sub == "value" else f"{col.key}_{sub}"] = v
        else:
            out[col.key] = value
    return out


def records(table: Table) -> list[dict[str, object]]:
    rows = [_flat(table.columns, r, "measured") for r in table.rows]
    rows += [_flat(table.columns, r, "trivial baseline") for r in table.baseline_rows]
    rows += [_flat(table.columns, r, "reported in paper") for r in table.reported_rows]
    return rows


def to_json(table: Table, release: str | None = None) -> str:
    """The table as JSON; `release` names the board release it belongs to (pages.releases)."""
    doc = {"id": table.id, "title": table.title, "note": table.note, "rows": records(table)}
    if release is not None:
        doc["release"] = release
    doc["columns"] = [
        {"key": c.key, "label": c.label, "definition": c.title} for c in table.columns
    ]
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def to_csv(table: Table, release: str | None = None) -> str:
    """The table as CSV (spreadsheet-safe); `release` adds a board_release column naming it."""
    rows = records(table)
    if release is not None:
        rows = [{**r, "board_release": release} for r in rows]
    keys: list[str] = []
    for r in rows:
        keys.extend(k for k in r if k not in keys)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: "" if r.get(k) is None else spreadsheet_safe(r.get(k)) for k in keys})
    return buf.getvalue()

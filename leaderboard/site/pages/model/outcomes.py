"""The model page's "when the answer is not right" section: what the answers did per
ability and language (a stacked bar each: correct / refused / error claimed / wrong), truthfulness
and answer rate, the closed-book row, and the risk-coverage chart. Everything is read from
results.json (`outcomes`, `truthfulness`, `probes` with probe "closedbook", `risk_coverage`,
computed by stats/outcomes, stats/closed_book and stats/risk_coverage); strict mode, the ranked
one. The first screen says what the model does when no passage holds the answer; the tables with
intervals and the per-noise-rate shares are one click away."""

from __future__ import annotations

from leaderboard.board.load import Entry
from leaderboard.core.schema import OutcomeScore, ProbeEntry
from leaderboard.core.types import ABILITIES, CLOSED_BOOK, LANGS
from leaderboard.site.pages.model.tables import ability_name, model_table
from leaderboard.site.render import charts
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.fmt import esc, pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output, entry_name
from leaderboard.site.render.tables import Cell, Row, Table

MODE = "strict"
SHARES = ("correct", "refused", "error_claimed", "wrong")
COLOURS = {
    "correct": "#2e7d32",
    "refused": "#90a4ae",
    "error_claimed": "#f9a825",
    "wrong": "#c62828",
}
ROWS = (*ABILITIES, *CLOSED_BOOK)
# the closed-book figures on the first screen: (metric, pooled over the noise rates?)
CLOSED_BOOK_COLUMNS = (
    ("accuracy", False),
    ("accuracy_fact", False),
    ("knew", True),
    ("context_gain", True),
    ("context_harm", True),
    ("made_up", False),
    ("made_up_unknown", False),
    ("knew_but_repeated", False),
)


def _figures(sub: Entry) -> dict[tuple[str, str, str], OutcomeScore]:
    return {(t.lang, t.ability, t.metric): t for t in sub.results.truthfulness if t.mode == MODE}


def _rows(sub: Entry) -> list[tuple[str, str]]:
    got = _figures(sub)
    return [(lang, a) for lang in LANGS for a in ROWS if (lang, a, "correct") in got]


def _label(lang: str, ability: str, lg: str) -> str:
    return f"{ui(lg, f'lang.{lang}')} · {ability_name(ability, lg)}"


def _shares_text(got, lang: str, ability: str, lg: str) -> str:
    """ "correct 2.0 %, refused 3.0 %, ... (n 100)": the bar in words (alt text, tooltips)."""
    parts = [
        ui(lg, f"out.{name}") + " " + pct(got[(lang, ability, name)].value, lg=lg) + "%"
        for name in SHARES
    ]
    n = got[(lang, ability, "correct")].n_questions
    return ui(lg, "sep.list").join(parts) + ui(lg, "out.n", n=n)


def _chart(sub: Entry, out: Output, prefix: str, lg: str) -> str:
    got, rows = _figures(sub), _rows(sub)
    labels = [_label(lang, a, lg) for lang, a in rows]
    parts = [
        (ui(lg, f"out.{name}"), COLOURS[name], [got[(lang, a, name)].value for lang, a in rows])
        for name in SHARES
    ]
    title = charts.label(ui(lg, "out.chart_title", name=entry_name(sub, lg)), charts.MAX_TITLE)
    alt = (
        title
        + ui(lg, "sep.label")
        + ui(lg, "out.sep").join(
            f"{label}{ui(lg, 'sep.label')}{_shares_text(got, lang, a, lg)}"
            for label, (lang, a) in zip(labels, rows, strict=True)
        )
    )
    args = (labels, parts, title, ui(lg, "out.chart_x"))
    return out.chart(f"model-{sub.id}-outcomes", charts.stacked_bars, args, alt, prefix, lg)


def outcomes_table(sub: Entry, lg: str) -> Table:
    """One row per language and ability (and closed-book probe): the four shares, truthfulness
    and answer rate with their intervals, n questions."""
    got = _figures(sub)
    rows = []
    for lang, a in _rows(sub):
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{lang}")),
            "ability": Cell.text(ability_name(a, lg)),
        }
        for name in (*SHARES, "truthfulness", "answer_rate"):
            e = got.get((lang, a, name))
            cells[name] = Cell.score(e)
        n = got[(lang, a, "correct")].n_questions
        cells["n"] = Cell.text(n, n)
        rows.append(Row(cells))
    ids = (*(f"out.{k}" for k in (*SHARES, "truthfulness", "answer_rate")), "model.questions")
    cols = columns(lg, "col.lang", "model.ability", *ids)
    return model_table(
        sub, "outcomes", "out.table_title", cols, rows, lg, "out.table_note", filterable=False
    )


def shares_table(sub: Entry, lg: str) -> Table:
    """The four shares of every cell (language, ability or probe, noise rate), with n."""
    rows = []
    for c in sub.results.outcomes:
        if c.mode != MODE:
            continue
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{c.lang}")),
            "ability": Cell.text(ability_name(c.ability, lg)),
            "rate": Cell.text(f"{c.noise_rate:.1f}", c.noise_rate),
            "n": Cell.text(c.n, c.n),
        }
        for name in SHARES:
            cells[name] = Cell.rate(getattr(c, name), getattr(c, f"{name}_ci"))
        rows.append(Row(cells))
    ids = ("col.lang", "model.ability", "out.rate", *(f"out.{k}" for k in SHARES), "out.n")
    return model_table(sub, "outcome-cells", "out.cells_title", columns(lg, *ids), rows, lg)


def _closed_book(sub: Entry) -> dict[tuple[str, str, tuple[float, ...]], ProbeEntry]:
    return {
        (e.lang, e.metric, tuple(e.rates)): e
        for e in sub.results.probes
        if e.probe == "closedbook" and e.mode == MODE
    }


def _pick(got, lang: str, metric: str, pooled: bool) -> ProbeEntry | None:
    """A closed-book figure; for the joined ones the pooled (all noise rates) entry."""
    found = [e for (g, m, r), e in got.items() if g == lang and m == metric]
    if pooled:
        found.sort(key=lambda e: -len(e.rates))
    return found[0] if found else None


def closed_book_table(sub: Entry, lg: str) -> Table | None:
    """One row per language: closed-book accuracy of both files, knew it / context gain / harm
    (pooled over the noise rates), made up on rejection (and of those not known closed-book),
    repeated the planted fact although known; with intervals and n in each cell's tooltip."""
    got = _closed_book(sub)
    if not got:
        return None
    rows = []
    for lang in LANGS:
        if not any(g == lang for g, _, _ in got):
            continue
        cells = {"lang": Cell.text(ui(lg, f"lang.{lang}"))}
        for metric, pooled in CLOSED_BOOK_COLUMNS:
            e = _pick(got, lang, metric, pooled)
            cells[metric] = (
                Cell.rate(e.value, e.ci) if e is not None else Cell.missing("not measured")
            )
            if e is not None:
                cells[f"{metric}_n"] = Cell.text(e.n_questions, e.n_questions)
        rows.append(Row(cells))
    cols = [column("col.lang", lg)]
    for metric, _ in CLOSED_BOOK_COLUMNS:
        cols += columns(lg, f"cb.{metric}", "cb.n", metric=metric)
    return model_table(sub, "closed-book", "cb.title", cols, rows, lg, "cb.note", filterable=False)


def closed_book_rates_table(sub: Entry, lg: str) -> Table | None:
    """knew / gain / harm / net per noise rate (and pooled), per language."""
    got = _closed_book(sub)
    joined = ("knew", "context_gain", "context_harm", "context_net")
    keys = sorted({(g, r) for g, m, r in got if m == "knew"}, key=lambda k: (k[0], len(k[1]), k[1]))
    if not keys:
        return None
    rows = []
    for lang, rates in keys:
        where = f"{rates[0]:.1f}" if len(rates) == 1 else ui(lg, "cb.pooled", n=len(rates))
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{lang}")),
            "rate": Cell.text(where, rates[0] if len(rates) == 1 else 9.0),
        }
        for metric in joined:
            e = got.get((lang, metric, rates))
            cells[metric] = Cell.score(e)
        e = got[(lang, "knew", rates)]
        cells["n"] = Cell.text(e.n_questions, e.n_questions)
        rows.append(Row(cells))
    ids = ("col.lang", "out.rate", *(f"cb.{m}" for m in joined), "model.questions")
    cols = columns(lg, *ids)
    return model_table(sub, "closed-book-rates", "cb.rates_title", cols, rows, lg, filterable=False)


def _lead(sub: Entry, lg: str) -> str:
    """The first screen's answer: per language, what the model did on the rejection questions
    (no passage holds the answer)."""
    got = _figures(sub)
    lines = []
    for lang in LANGS:
        if (lang, "rejection", "wrong") not in got:
            continue
        n = got[(lang, "rejection", "wrong")].n_questions
        lines.append(
            ui(
                lg,
                "out.lead",
                lang=esc(ui(lg, f"lang.{lang}")),
                wrong=pct(got[(lang, "rejection", "wrong")].value, lg=lg),
                refused=pct(got[(lang, "rejection", "refused")].value, lg=lg),
                correct=pct(got[(lang, "rejection", "correct")].value, lg=lg),
                n=n,
            )
        )
    return "".join(f"\n<p>{line}</p>\n" for line in lines)


def _risk_chart(sub: Entry, out: Output, prefix: str, lg: str) -> str:
    curves = [r for r in sub.results.risk_coverage if r.mode == MODE]
    if not curves:
        return ""
    series = []
    for r in curves:
        area = "—" if r.area is None else f"{r.area:.2f}"
        series.append(
            (
                ui(lg, "rc.series", label=_label(r.lang, r.ability, lg), area=area, n=r.n),
                tuple(r.coverage),
                tuple(r.selective_accuracy),
            )
        )
    title = ui(lg, "rc.title", name=entry_name(sub, lg))
    alt = title + ui(lg, "sep.label") + ui(lg, "out.sep").join(s[0] for s in series)
    args = (series, title, ui(lg, "rc.x"), ui(lg, "rc.y"))
    chart = out.chart(f"model-{sub.id}-risk-coverage", charts.risk_coverage, args, alt, prefix, lg)
    return chart + f"\n<p>{ui(lg, 'rc.note')}</p>\n"


def outcome_section(sub: Entry, out: Output, prefix: str, lg: str) -> str:
    """The section, or "" for an entry whose results.json has no outcomes (scored before)."""
    if not _rows(sub):
        return ""
    parts = [f"\n## {ui(lg, 'out.h')}\n", _lead(sub, lg), _chart(sub, out, prefix, lg)]
    summary = esc(ui(lg, "out.details"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    parts.append(out.table(outcomes_table(sub, lg), prefix).strip("\n"))
    parts.append(out.table(shares_table(sub, lg), prefix).strip("\n"))
    parts.append("</details>\n")
    book = closed_book_table(sub, lg)
    if book is not None:
        parts.append(f"\n### {ui(lg, 'cb.h')}\n")
        parts.append(out.table(book, prefix))
        rates = closed_book_rates_table(sub, lg)
        if rates is not None:
            summary = esc(ui(lg, "cb.details"))
            parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
            parts.append(out.table(rates, prefix).strip("\n"))
            parts.append("</details>\n")
    risk = _risk_chart(sub, out, prefix, lg)
    if risk:
        parts.append(f"\n### {ui(lg, 'rc.h')}\n")
        parts.append(risk)
    return "".join(parts)

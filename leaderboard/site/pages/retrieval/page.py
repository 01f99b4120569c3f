"""The Retrieval page: how well BM25, dense e5 and their hybrid rank RGB's passages, zh and en.

Reads only the committed `retrieval/` folder (retrieval.results.load_retrieval_board): the
metrics tables with CIs per setting, the zh-versus-en gap per retriever, the paired comparisons,
the chunking heat maps; the per-question pages are built by retrieval_questions.py. Without
result files the page says how to make them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from leaderboard.retrieval.metrics import unpaired_diff
from leaderboard.retrieval.results import (
    RESULTS_DIR,
    GridResult,
    RetrievalBoard,
    RetrievalResult,
    load_retrieval_board,
)
from leaderboard.site.render import charts
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.fmt import esc, slug
from leaderboard.site.render.i18n import DEFAULT, table, ui
from leaderboard.site.render.page import Context, Output, badge, front_matter
from leaderboard.site.render.tables import Cell, Row, Table

PAGE = "retrieval.md"
SHOWN = ("P@1", "P@5", "R@5", "R@10", "MRR", "NDCG@5", "NDCG@10")
GAP_METRICS = ("MRR", "NDCG@5")


def _split_cell(r: RetrievalResult | GridResult, lg: str) -> Cell:
    html = esc(r.split)
    if r.partial:
        html += " " + badge("partial", ui(lg, "badge.partial"), ui(lg, "retr.partial_tip"))
    return Cell(r.split, html, r.split)


def question_page_path(r: RetrievalResult) -> str:
    return f"retrieval/{slug(r.split)}-{slug(r.setting)}-{slug(r.retriever)}.md"


def _metrics_table(results: list[RetrievalResult], setting: str, lg: str) -> Table:
    cols = [*columns(lg, "retr.split", "retr.lang", "retr.retriever", "retr.n")]
    cols += [column("retr.measure", lg, metric=m) for m in SHOWN]
    cols.append(column("retr.view", lg))
    rows = []
    for r in results:
        link = ui(lg, "retr.view_link")
        cells = {
            "split": _split_cell(r, lg),
            "lang": Cell.text(r.lang),
            "retriever": Cell.text(retriever_name(r.retriever, lg)),
            "n": Cell(r.n_evaluated, esc(f"{r.n_evaluated} / {r.n_questions}"), r.n_evaluated),
            # a link, not sorted by its text (which differs between languages)
            "view": replace(
                Cell.link(link, question_page_path(r).removesuffix(".md") + ".html"), sort=None
            ),
        }
        for m in SHOWN:
            cells[m] = Cell.rate(r.metrics[m].mean, r.metrics[m].ci)
        rows.append(Row(cells))
    note = ui(lg, "retr.metrics_note")
    if setting == "corpus" and results and results[0].chunking is not None:
        c = results[0].chunking
        tokenizer = c.tokenizer
        if lg != DEFAULT and tokenizer == ui(DEFAULT, "retr.tokenizer_regex"):
            tokenizer = ui(lg, "retr.tokenizer_regex")  # the chunker's own name, translated
        overlap = f"{c.overlap:g}"
        note += ui(lg, "retr.chunks_note", size=c.size, tokenizer=tokenizer, overlap=overlap)
    title = ui(lg, f"retr.setting_{setting}")
    return Table(f"retrieval-{setting}", title, tuple(cols), tuple(rows), note=note, ui=lg)


def retriever_name(retriever: str, lg: str) -> str:
    """A retriever's id (bm25, dense, hybrid) as a page in `lg` names it: the English page shows
    the id, another language its name from the message tables (retr.retriever_<id>)."""
    key = f"retr.retriever_{retriever}"
    return ui(lg, key) if lg != DEFAULT and key in table(DEFAULT) else retriever


def _gap_table(results: list[RetrievalResult], lg: str) -> Table:
    cols = [*columns(lg, "retr.setting", "retr.retriever", "retr.en")]
    for m in GAP_METRICS:
        cols += columns(lg, "retr.gap_zh", "retr.gap_en", "retr.gap", metric=m)
    rows = []
    by = {(r.setting, r.retriever, r.split): r for r in results}
    for r in results:
        if r.lang != "en":
            continue
        zh = next(
            (
                v
                for (s, ret, _), v in sorted(by.items())
                if s == r.setting and ret == r.retriever and v.lang == "zh"
            ),
            None,
        )
        if zh is None:
            continue
        cells = {
            "setting": Cell.text(r.setting),
            "retriever": Cell.text(retriever_name(r.retriever, lg)),
            "en": _split_cell(r, lg),
        }
        for m in GAP_METRICS:
            a = {q.qid: q.values[m] for q in zh.per_question if q.values}
            b = {q.qid: q.values[m] for q in r.per_question if q.values}
            gap = unpaired_diff(a, b)
            cells[f"{m}-zh"] = Cell.rate(zh.metrics[m].mean, zh.metrics[m].ci)
            cells[f"{m}-en"] = Cell.rate(r.metrics[m].mean, r.metrics[m].ci)
            cells[f"{m}-gap"] = Cell.rate(gap.mean, gap.ci)
        rows.append(Row(cells))
    return Table(
        "retrieval-zh-vs-en",
        ui(lg, "retr.gap_title"),
        tuple(cols),
        tuple(rows),
        note=ui(lg, "retr.gap_note"),
        ui=lg,
    )


def _paired_table(board: RetrievalBoard, lg: str) -> Table:
    ids = ("retr.split", "retr.setting", "retr.a", "retr.b", "retr.metric", "plain.n")
    cols = columns(lg, *ids, "retr.diff", "retr.p", "retr.wins")
    rows = []
    for p in board.paired:
        for c in p.comparisons:
            ci = c.get("ci")
            rows.append(
                Row(
                    {
                        "split": Cell.text(p.split),
                        "setting": Cell.text(p.setting),
                        "a": Cell.text(retriever_name(p.a, lg)),
                        "b": Cell.text(retriever_name(p.b, lg)),
                        "metric": Cell.text(c["metric"]),
                        "n": Cell.text(c["n"], c["n"]),  # type: ignore[arg-type]
                        "diff": Cell.rate(c["diff"], tuple(ci) if ci else None),  # type: ignore[arg-type]
                        "p": Cell.text(f"{c['p_value']:.4f}", c["p_value"]),  # type: ignore[arg-type]
                        "wins": Cell.text(f"{c['a_better']} / {c['b_better']} / {c['ties']}"),
                    }
                )
            )
    return Table(
        "retrieval-paired",
        ui(lg, "retr.paired_title"),
        cols,
        tuple(rows),
        note=ui(lg, "retr.paired_note"),
        ui=lg,
    )


def _grid_section(g: GridResult, out: Output, lg: str) -> str:
    sizes = sorted({c.size for c in g.cells})
    overlaps = sorted({c.overlap for c in g.cells})
    cell = {(c.size, c.overlap): c for c in g.cells}
    text = f"\n### {esc(g.split)} · {esc(retriever_name(g.retriever, lg))}\n\n"
    if not g.complete:
        text += ui(lg, "retr.grid_incomplete") + "\n\n"
    suffix = "" if lg == DEFAULT else f"-{lg}"  # the charts' text is in the page's language
    for metric in ("R@5", "NDCG@5"):
        values = [
            [cell[(s, o)].metrics[metric].mean if (s, o) in cell else None for o in overlaps]
            for s in sizes
        ]
        args = (
            [f"{s}" for s in sizes],
            [f"{o:.0%}" for o in overlaps],
            values,
            ui(
                lg,
                "retr.grid_chart_title",
                split=g.split,
                retriever=retriever_name(g.retriever, lg),
                metric=metric,
            ),
            ui(lg, "retr.col_overlap"),
            ui(lg, "retr.grid_ylabel"),
            ui(lg, "retr.grid_not_run"),
        )
        name = f"retrieval-grid-{slug(g.split)}-{slug(g.retriever)}-{slug(metric)}{suffix}"
        retriever = retriever_name(g.retriever, lg)
        alt = ui(lg, "retr.grid_alt", split=g.split, retriever=retriever, metric=metric)
        text += out.chart(name, charts.heatmap, args, alt, "")
    cols = columns(lg, "retr.size", "retr.overlap", "retr.chunks")
    cols += tuple(column("retr.value", lg, metric=m) for m in ("R@5", "NDCG@5"))
    rows = tuple(
        Row(
            {
                "size": Cell.text(c.size, c.size),
                "overlap": Cell.text(f"{c.overlap:.0%}", c.overlap),
                "chunks": Cell.text(c.n_chunks, c.n_chunks),
                "R@5": Cell.rate(c.metrics["R@5"].mean, c.metrics["R@5"].ci),
                "NDCG@5": Cell.rate(c.metrics["NDCG@5"].mean, c.metrics["NDCG@5"].ci),
            }
        )
        for c in g.cells
    )
    retriever = retriever_name(g.retriever, lg)  # named: the downloads list it among all
    title = ui(lg, "retr.grid_table_title", split=g.split, retriever=retriever)
    table = Table(f"retrieval-grid-{slug(g.split)}-{slug(g.retriever)}", title, cols, rows, ui=lg)
    return text + out.table(table, "") + "\n"


def retrieval_board(ctx: Context) -> RetrievalBoard:
    """The board the build loaded once, or the one in the repository's retrieval/ folder."""
    if ctx.retrieval is not None:
        return ctx.retrieval
    return load_retrieval_board((ctx.data.root or Path(".")) / RESULTS_DIR)


def retrieval_page(ctx: Context) -> str:
    """The page with its interface in language `ctx.lg` (the same numbers in every language)."""
    board, out, lg = retrieval_board(ctx), ctx.out, ctx.lg
    text = front_matter(search_exclude=False) + f"# {ui(lg, 'retr.title')}\n\n"
    text += ui(lg, "retr.intro") + "\n\n"
    if not (board.results or board.grids):
        return text + ui(lg, "retr.empty") + "\n"
    for setting in ("pool", "corpus"):
        rs = sorted(
            (r for r in board.results if r.setting == setting),
            key=lambda r: (r.lang != "zh", r.split, r.retriever),
        )
        if rs:
            text += f"## {esc(ui(lg, f'retr.heading_{setting}'))}\n\n"
            text += out.table(_metrics_table(rs, setting, lg), "") + "\n\n"
    gap = _gap_table(board.results, lg)
    if gap.rows:
        text += f"## {ui(lg, 'retr.gap_heading')}\n\n" + out.table(gap, "") + "\n\n"
    if board.paired:
        paired = out.table(_paired_table(board, lg), "")
        text += f"## {ui(lg, 'retr.paired_heading')}\n\n" + paired + "\n\n"
    if board.grids:
        text += f"## {ui(lg, 'retr.grid_heading')}\n\n{ui(lg, 'retr.grid_text')}\n"
        for g in sorted(board.grids, key=lambda g: (g.lang != "zh", g.split, g.retriever)):
            text += _grid_section(g, out, lg)
    return text

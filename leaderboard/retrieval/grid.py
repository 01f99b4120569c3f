"""The chunking grid of the corpus setting: chunk sizes x overlaps, R@5 and NDCG@5 per cell.

Cells already in the grid file are kept (a grid is resumable cell by cell and can be filled in over
several runs, e.g. dense where time allows); `complete` says whether all cells are there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from leaderboard.retrieval.base import Retriever
from leaderboard.retrieval.evaluate import Stage, _quiet, run_retrieval
from leaderboard.retrieval.results import GridCell, GridResult, read_json
from leaderboard.retrieval.split import RetrievalSplit

SIZES = (128, 256, 512)
OVERLAPS = (0.0, 0.25, 0.5)
GRID_METRICS = ("R@5", "NDCG@5")


def grid_path(root: Path, split: str, retriever: str) -> Path:
    return Path(root) / split / f"grid-{retriever}.json"


def run_grid(
    split: RetrievalSplit,
    retriever: Retriever,
    sizes: Sequence[int] = SIZES,
    overlaps: Sequence[float] = OVERLAPS,
    previous: Path | None = None,
    stage: Stage = _quiet,
    save: Callable[[GridResult], None] | None = None,
) -> GridResult:
    """Evaluate the missing cells of sizes x overlaps, keeping the cells of `previous` (a grid
    file); `save` gets the grid after every new cell, so an interrupted grid loses one cell."""
    cells: dict[tuple[int, float], GridCell] = {}
    prov: dict[str, object] = {}
    if previous is not None and previous.is_file():
        old = read_json(previous, GridResult)
        cells = {(c.size, c.overlap): c for c in old.cells}
        prov = dict(old.provenance)
    for size in sizes:
        for overlap in overlaps:
            if (size, overlap) in cells:
                continue
            res = run_retrieval(split, "corpus", retriever, None, size, overlap, stage)
            assert res.chunking is not None
            cells[(size, overlap)] = GridCell(
                size=size,
                overlap=overlap,
                n_chunks=res.chunking.n_chunks,
                n_evaluated=res.n_evaluated,
                metrics={m: res.metrics[m] for m in GRID_METRICS},
            )
            prov = {k: v for k, v in res.provenance.items() if k not in ("elapsed_s", "limit")}
            if save is not None:
                save(_grid(split, retriever.name, cells, prov))
    return _grid(split, retriever.name, cells, prov)


def _grid(
    split: RetrievalSplit,
    retriever: str,
    cells: dict[tuple[int, float], GridCell],
    prov: dict[str, object],
) -> GridResult:
    full = {(s, o) for s in SIZES for o in OVERLAPS}
    return GridResult(
        lang=split.lang,
        split=split.name,
        partial=split.partial,
        retriever=retriever,
        cells=[cells[k] for k in sorted(cells)],
        complete=full <= set(cells),
        provenance=prov,
    )

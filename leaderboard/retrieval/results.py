"""The retrieval result file: one JSON per (split, setting, retriever), validated on read.

Files live under the repository's top-level `retrieval/` folder as
`retrieval/<split>/<setting>-<retriever>.json` (split = zh_refine, en_fact, en_head50, ...), the
chunking grid as `<split>/grid-<retriever>.json` and paired comparisons as
`<split>/compare-<setting>-<a>-vs-<b>.json`. No data text is stored (RGB's licence keeps it out of
the repository): passages are referenced by record id, field, index and character span, and the
site reads the text from fetched data when it is there. Writes are atomic.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from leaderboard.core.errors import ResultsError
from leaderboard.core.files import atomic_write_text, format_validation

SCHEMA = "rgb-leaderboard/retrieval/1"
RESULTS_DIR = "retrieval"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _File(_Strict):
    """What every retrieval file starts with: its schema (stored under the key "schema")."""

    schema_: str = Field(SCHEMA, alias="schema")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Stat(_Strict):
    mean: float | None
    ci: tuple[float, float] | None


class Ranked(_Strict):
    id: str
    score: float
    grade: int
    ref: dict[str, int | str]


class QuestionResult(_Strict):
    qid: str
    values: dict[str, float]
    first_relevant: int | None  # 1-based rank of the first relevant passage (None: not ranked)
    relevant_ranks: list[int | None]  # rank of every relevant passage (None: below the cut)
    top: list[Ranked]  # the first 10 ranked passages


class Bootstrap(_Strict):
    resamples: int
    seed: int
    confidence: float
    method: str


class Chunking(_Strict):
    size: int
    overlap: float
    tokenizer: str
    n_passages: int
    n_chunks: int


class RetrievalResult(_File):
    lang: str
    split: str
    file: str
    partial: bool
    setting: str  # pool | corpus
    retriever: str
    relevance: str
    relevant_grade: int
    depth: int | None  # corpus: ranking cut; pool: None (every candidate ranked)
    chunking: Chunking | None
    n_questions: int
    n_evaluated: int
    skipped: list[str]
    metrics: dict[str, Stat]
    bootstrap: Bootstrap
    per_question: list[QuestionResult]
    provenance: dict[str, object]


class GridCell(_Strict):
    size: int
    overlap: float
    n_chunks: int
    n_evaluated: int
    metrics: dict[str, Stat]  # R@5 and NDCG@5


class GridResult(_File):
    kind: str = "grid"
    lang: str
    split: str
    partial: bool
    retriever: str
    cells: list[GridCell]
    complete: bool  # False when some cells were not run (dense: time)
    provenance: dict[str, object]


class PairedFile(_File):
    kind: str = "paired"
    lang: str
    split: str
    setting: str
    a: str
    b: str
    comparisons: list[dict[str, object]]


def result_path(root: Path, split: str, setting: str, retriever: str) -> Path:
    return Path(root) / split / f"{setting}-{retriever}.json"


def write_json(path: Path, model: BaseModel) -> None:
    """Atomically replace `path` with the model's JSON (indented: readable diffs)."""
    atomic_write_text(path, model.model_dump_json(by_alias=True, indent=1) + "\n")


M = TypeVar("M", bound=BaseModel)


def read_json(path: Path, model: type[M]) -> M:
    try:
        return model.model_validate_json(Path(path).read_bytes())
    except FileNotFoundError:
        raise ResultsError(f"{path}: file not found") from None
    except ValidationError as exc:
        raise ResultsError(
            f"{path}: {format_validation(exc).split('; ')[0]}; regenerate it with "
            "`rgb-leaderboard retrieval run`"
        ) from None


class RetrievalBoard(BaseModel):
    """Everything under a `retrieval/` folder, validated (what the site renders)."""

    model_config = ConfigDict(frozen=True)
    root: Path
    results: list[RetrievalResult]
    grids: list[GridResult]
    paired: list[PairedFile]


def load_retrieval_board(root: Path) -> RetrievalBoard:
    """Every result, grid and comparison file under `root` (sorted by path); empty when absent."""
    results: list[RetrievalResult] = []
    grids: list[GridResult] = []
    paired: list[PairedFile] = []
    root = Path(root)
    if root.is_dir():
        for path in sorted(root.glob("*/*.json")):
            if path.name.startswith("grid-"):
                grids.append(read_json(path, GridResult))
            elif path.name.startswith("compare-"):
                paired.append(read_json(path, PairedFile))
            else:
                results.append(read_json(path, RetrievalResult))
    return RetrievalBoard(root=root, results=results, grids=grids, paired=paired)

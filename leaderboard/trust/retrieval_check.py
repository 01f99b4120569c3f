"""`verify` for the retrieval track: the committed `retrieval/**.json` recomputed and compared.

Two levels, both against the current code and data, and at a cost that does not depend on what
an earlier command left in a cache:
- every result file: its metrics (means and bootstrap CIs) are recomputed from its own
  per-question values, `n_evaluated` and `skipped` from which questions have values, and the
  bootstrap settings must be the current ones (a file from older code says so);
- its rankings: BM25 always (seconds to a minute per file); dense and hybrid from the cached
  vectors of the model the file names (`.cache/embeddings`, or $RGB_EMBED_CACHE), only when the
  cache holds every vector the file needs. verify never embeds: a missing vector leaves the
  rankings unchecked, said in one line with how many vectors are missing, since embedding a
  split's passages takes minutes on a CPU. `recompute=True` (`verify --recompute-retrieval`)
  embeds what is missing. The recomputed run (data file by blob id, the recorded setting,
  chunking and limit) must give the same per-question values, ranks and top passages and the
  same metrics.
Paired comparison files are recomputed from the two result files they pair. Chunking grids are
not (nine corpus rebuilds each; `retrieval grid` reruns them), which the report says in one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from leaderboard.core.checks import FileCheck, same
from leaderboard.core.errors import LeaderboardError
from leaderboard.retrieval.base import Retriever
from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.retrieval.cache import EmbeddingCache, NotCached, default_cache_dir
from leaderboard.retrieval.compare import compare_results
from leaderboard.retrieval.dense import EmbeddingRetriever
from leaderboard.retrieval.evaluate import (
    DEFAULT_CHUNK,
    DEFAULT_OVERLAP,
    make_retriever,
    run_retrieval,
)
from leaderboard.retrieval.hybrid import HybridRetriever
from leaderboard.retrieval.metrics import CONFIDENCE, METHOD, RESAMPLES, SEED, summarise
from leaderboard.retrieval.results import (
    Bootstrap,
    PairedFile,
    RetrievalResult,
    Stat,
    read_json,
)
from leaderboard.retrieval.split import RetrievalSplit, load_retrieval_split

_FIX = (
    "rewrite its metrics and bootstrap block from its per-question values with "
    "`rgb-leaderboard rescore FILE`; rankings that differ need its command rerun with --save"
)


def _metric_diffs(where: str, old: RetrievalResult, new: dict) -> list[str]:
    out = []
    for name, stat in old.metrics.items():
        fresh = new.get(name)
        if fresh is None:
            out.append(f"{where} {name}: not recomputed")
            continue
        for part in ("mean", "ci"):
            a, b = getattr(stat, part), getattr(fresh, part)
            if not same(a, b):
                out.append(f"{where} {name} {part}: file has {a!r}, recomputed {b!r}")
    return out


def _summary_check(res: RetrievalResult) -> list[str]:
    """The file's metrics against its own per-question values (and the bootstrap settings)."""
    out = []
    current = {"resamples": RESAMPLES, "seed": SEED, "confidence": CONFIDENCE, "method": METHOD}
    for k, v in current.items():
        if getattr(res.bootstrap, k) != v:
            out.append(
                f"bootstrap.{k}: file has {getattr(res.bootstrap, k)!r}, the code now {v!r} "
                "(written by older code)"
            )
    with_values = [q for q in res.per_question if q.values]
    values = {m: {q.qid: q.values[m] for q in with_values} for m in res.metrics}
    out += _metric_diffs("metric", res, summarise(values, res.bootstrap.resamples, SEED))
    if res.n_evaluated != len(with_values):
        out.append(
            f"n_evaluated: file has {res.n_evaluated}, per-question values {len(with_values)}"
        )
    without = [q.qid for q in res.per_question if not q.values]
    if sorted(res.skipped) != sorted(without):
        out.append(
            f"skipped: file lists {len(res.skipped)}, questions without values {len(without)}"
        )
    return out


def _split_option(res: RetrievalResult) -> str:
    """The --split a result file came from (en_head50 is the partial file)."""
    return "partial" if res.partial else res.split.split("_", 1)[1]


def _not_embedded(res: RetrievalResult, why: str) -> str:
    """The one line for dense or hybrid rankings left unchecked because a vector is missing."""
    return (
        f"{res.retriever} rankings not recomputed: {why}; verify never embeds "
        "(`verify --recompute-retrieval` does: minutes per split on a CPU); metrics recomputed "
        "from the per-question values"
    )


def _recorded_embedder(res: RetrievalResult) -> dict[str, object] | None:
    """The embedding model the file records (a hybrid's dense part), or None."""
    retriever = res.provenance.get("retriever")
    if not isinstance(retriever, dict):
        return None
    parts = retriever.get("parts") if res.retriever == "hybrid" else [retriever]
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, dict) and part.get("retriever") == "dense":
            return part
    return None


def _refuse(_: list[str]) -> np.ndarray:  # never called: a read-only cache raises NotCached first
    raise LeaderboardError("verify never embeds")


def _cached_retriever(res: RetrievalResult, cache_dir: Path) -> Retriever | str:
    """Dense or hybrid over the cached vectors of the model the file names (a read-only cache:
    a missing vector raises NotCached), or why the rankings are not recomputed."""
    dense = _recorded_embedder(res)
    if dense is None or not dense.get("model_file_sha256"):
        return _not_embedded(res, "the file names no embedding model file")
    key = f"{dense.get('model')}@{dense.get('model_file_sha256')}"  # as dense.e5_retriever keys
    cache = EmbeddingCache(cache_dir, key, read_only=True)
    if not cache.vectors:
        return _not_embedded(res, f"no vectors of its model cached at {cache_dir.as_posix()}")
    embedder = EmbeddingRetriever("dense", _refuse, _refuse, cache, dict(dense))
    if res.retriever == "dense":
        return embedder
    return HybridRetriever(BM25Retriever(res.lang), embedder)


def _retriever_for(res: RetrievalResult, cache_dir: Path, recompute: bool) -> Retriever | str:
    """The retriever to rerun, or why the rankings are not recomputed (one line)."""
    if res.retriever == "bm25":
        return BM25Retriever(res.lang)
    if res.retriever in ("dense", "hybrid"):
        if recompute:
            try:
                return make_retriever(res.retriever, res.lang, cache_dir)
            except LeaderboardError as exc:
                return f"{res.retriever} rankings not recomputed: {exc}"
        return _cached_retriever(res, cache_dir)
    return f"{res.retriever} rankings not recomputed: an external embeddings endpoint"


def _rerun(
    res: RetrievalResult, split: RetrievalSplit, retriever: Retriever, cache_dir: Path
) -> RetrievalResult | str:
    """The file's run repeated (recorded setting, chunking and limit), or, over a read-only
    cache that lacks a vector, why not."""
    limit = res.provenance.get("limit")
    limit = limit if isinstance(limit, int) else None
    chunk = res.chunking
    try:
        for part in getattr(retriever, "parts", (retriever,)):
            if isinstance(part, EmbeddingRetriever) and part.cache.read_only:
                # the queries first: all of them are counted before any ranking work
                part.queries([q.query for q in split.questions[:limit]])
        return run_retrieval(
            split,
            res.setting,
            retriever,
            limit,
            chunk.size if chunk else DEFAULT_CHUNK,
            chunk.overlap if chunk else DEFAULT_OVERLAP,
        )
    except NotCached as exc:
        return _not_embedded(res, f"{exc} at {cache_dir.as_posix()}")


def _ranking_check(res: RetrievalResult, fresh: RetrievalResult) -> list[str]:
    out = []
    for name in ("n_questions", "n_evaluated", "skipped", "relevance", "relevant_grade", "depth"):
        if getattr(res, name) != getattr(fresh, name):
            out.append(
                f"{name}: file has {getattr(res, name)!r}, recomputed {getattr(fresh, name)!r}"
            )
    out += _metric_diffs("recomputed metric", res, fresh.metrics)
    new_q = {q.qid: q for q in fresh.per_question}
    differing = []
    for q in res.per_question:
        n = new_q.get(q.qid)
        if n is None or not (
            same(q.values, n.values)
            and q.first_relevant == n.first_relevant
            and q.relevant_ranks == n.relevant_ranks
            and [t.id for t in q.top] == [t.id for t in n.top]
        ):
            differing.append(q.qid)
    if differing:
        out.append(
            f"per-question rankings: {len(differing)} question(s) differ (first: {differing[0]})"
        )
    return out


def check_result(
    path: Path, data_root: Path, cache_dir: Path | None = None, recompute: bool = False
) -> FileCheck:
    """One result file: summary, and rankings where no embedding is needed, or with `recompute`
    (module docstring)."""
    res = read_json(path, RetrievalResult)
    check = FileCheck(Path(path), _summary_check(res), fix=_FIX)
    cache_dir = cache_dir or default_cache_dir()
    retriever = _retriever_for(res, cache_dir, recompute)
    if isinstance(retriever, str):
        check.skipped = retriever
        return check
    data = res.provenance.get("data")
    blob = data.get("git_blob_id") if isinstance(data, dict) else None
    try:
        split = load_retrieval_split(data_root, res.lang, _split_option(res))  # type: ignore[arg-type]
    except LeaderboardError as exc:
        check.skipped = f"rankings not recomputed: {exc}"
        return check
    if blob != split.blob_id:
        check.mismatches.append(
            f"data: file was made from blob {blob}, the data now is {split.blob_id}"
        )
        return check
    fresh = _rerun(res, split, retriever, cache_dir)
    if isinstance(fresh, str):
        check.skipped = fresh
        return check
    check.mismatches += _ranking_check(res, fresh)
    return check


def rescored_result(path: Path, command: str) -> tuple[RetrievalResult, list[str]]:
    """The result file with its metrics recomputed from its per-question values and the current
    bootstrap settings (what `rescore FILE` writes), and what changed. Rankings are kept: they
    are the retriever's output, which only a rerun (`retrieval run ... --save`) replaces."""
    res = read_json(path, RetrievalResult)
    changed = _summary_check(res)
    with_values = [q for q in res.per_question if q.values]
    values = {m: {q.qid: q.values[m] for q in with_values} for m in res.metrics}
    stats = summarise(values, RESAMPLES, SEED)
    history = res.provenance.get("rescored")
    record = {"command": command, "changed": len(changed)}
    new = res.model_copy(
        update={
            "metrics": {m: Stat(mean=s.mean, ci=s.ci) for m, s in stats.items()},
            "n_evaluated": len(with_values),
            "skipped": [q.qid for q in res.per_question if not q.values],
            "bootstrap": Bootstrap(
                resamples=RESAMPLES, seed=SEED, confidence=CONFIDENCE, method=METHOD
            ),
            "provenance": {
                **res.provenance,
                "rescored": [*(history if isinstance(history, list) else []), record],
            },
        }
    )
    return RetrievalResult.model_validate(new.model_dump(by_alias=True)), changed


def check_paired(path: Path) -> FileCheck:
    """A paired comparison recomputed from the two result files of its folder."""
    paired = read_json(path, PairedFile)
    folder = Path(path).parent
    check = FileCheck(Path(path), fix=_FIX)
    sides = [folder / f"{paired.setting}-{name}.json" for name in (paired.a, paired.b)]
    missing = [p.name for p in sides if not p.is_file()]
    if missing:
        check.mismatches.append(f"the paired result file(s) {', '.join(missing)} are missing")
        return check
    metrics = [str(c["metric"]) for c in paired.comparisons]
    fresh = compare_results(
        read_json(sides[0], RetrievalResult), read_json(sides[1], RetrievalResult), metrics
    )
    for old, new in zip(paired.comparisons, fresh.comparisons, strict=True):
        for k in old:
            if not same(old[k], new.get(k)):
                check.mismatches.append(
                    f"{old['metric']} {k}: file has {old[k]!r}, recomputed {new.get(k)!r}"
                )
    return check


def check_tree(
    root: Path, data_root: Path, cache_dir: Path | None = None, recompute: bool = False
) -> tuple[list[FileCheck], str | None]:
    """Every result and paired file under `root`, and the one line about the grids."""
    root = Path(root)
    checks: list[FileCheck] = []
    grids = 0
    for path in sorted(root.glob("*/*.json")):
        if path.name.startswith("grid-"):
            grids += 1
        elif path.name.startswith("compare-"):
            checks.append(check_paired(path))
        else:
            checks.append(check_result(path, data_root, cache_dir, recompute))
    note = (
        f"{grids} chunking grid file(s) not recomputed (nine corpus rebuilds each; "
        "`rgb-leaderboard retrieval grid` reruns them)"
        if grids
        else None
    )
    return checks, note


def check_path(
    path: Path, data_root: Path, cache_dir: Path | None = None, recompute: bool = False
) -> FileCheck:
    """One named file (result or paired comparison)."""
    if Path(path).name.startswith("compare-"):
        return check_paired(path)
    if Path(path).name.startswith("grid-"):
        return FileCheck(
            Path(path), skipped="a chunking grid is not recomputed by verify", fix=_FIX
        )
    return check_result(path, data_root, cache_dir, recompute)

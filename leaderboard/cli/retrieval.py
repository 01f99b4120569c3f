"""`rgb-leaderboard retrieval run|grid|compare`: the retrieval track (leaderboard.retrieval).

`run` writes only where told: `--json FILE`, or `--save` to refresh the committed result of a full
run under `retrieval/<split>/` (the repository is the board; a plain run never rewrites it).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from leaderboard.cli.arguments import DATA_DIR_HELP, command_group
from leaderboard.core.errors import ConfigError
from leaderboard.data.manifest import data_root
from leaderboard.retrieval.cache import default_cache_dir
from leaderboard.retrieval.chunking import check_chunking
from leaderboard.retrieval.compare import compare_files
from leaderboard.retrieval.evaluate import (
    DEFAULT_CHUNK,
    DEFAULT_OVERLAP,
    SETTINGS,
    make_retriever,
    run_retrieval,
)
from leaderboard.retrieval.grid import grid_path, run_grid
from leaderboard.retrieval.openai_embed import endpoint_from_options
from leaderboard.retrieval.results import result_path, write_json
from leaderboard.retrieval.split import load_retrieval_split

_SPLIT_HELP = (
    "Which file: refine (zh_refine / en_refine), int, fact, or partial (en: the 50-record "
    "partial/en_head50.json). en_refine is not available offline: use fact or partial."
)


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False, width=120)


_BARS: list = []  # open progress bars, closed before an error is printed


def _close_bars() -> None:
    while _BARS:
        _BARS.pop().close()


def _stage(desc: str, total: int):
    """A tqdm bar on stderr; the returned function advances it (and closes it at the end)."""
    from tqdm import tqdm  # deferred: only a run draws bars (keeps `--help` fast)

    bar = tqdm(total=total, desc=desc, unit="it", file=sys.stderr, leave=False, mininterval=0.5)
    _BARS.append(bar)
    done = [0]

    def advance(n: int) -> None:
        bar.update(n)
        done[0] += n
        if done[0] >= total:
            bar.close()

    if total == 0:
        bar.close()
    return advance


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _ci(ci) -> str:
    """Bounds joined by an en dash, or by " to " when one is negative (as on the site)."""
    if ci is None:
        return ""
    sep = " to " if min(ci) < 0 else "–"
    return f"{ci[0]:.3f}{sep}{ci[1]:.3f}"


def print_result(res) -> None:
    """The metrics table: one row per metric family, one column per k, each with its 95% CI."""
    chunk = ""
    if res.chunking is not None:
        c = res.chunking
        chunk = f", {c.n_chunks} chunks of {c.size} tokens, overlap {c.overlap:g}"
    partial = " (PARTIAL file)" if res.partial else ""
    title = (
        f"{res.split}{partial} · {res.setting} · {res.retriever}: {res.n_evaluated} of "
        f"{res.n_questions} questions evaluated{chunk} (mean [95% CI])"
    )
    table = Table(title=title)
    table.add_column("metric")
    for k in ("1", "3", "5", "10"):
        table.add_column(f"@{k}", justify="right")
    for family in ("P", "R", "NDCG"):
        row = [family]
        for k in ("1", "3", "5", "10"):
            s = res.metrics[f"{family}@{k}"]
            row.append(f"{_f(s.mean)} [{_ci(s.ci)}]")
        table.add_row(*row)
    s = res.metrics["MRR"]
    table.add_row("MRR", f"{_f(s.mean)} [{_ci(s.ci)}]", "", "", "")
    _console().print(table)
    if res.skipped:
        typer.echo(
            f"{len(res.skipped)} question(s) without a relevant chunk left out: "
            + ", ".join(res.skipped[:20])
            + (" ..." if len(res.skipped) > 20 else "")
        )


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    ret_app = command_group(
        "Retrieval track: rank RGB's passages (BM25, dense e5, hybrid, an embeddings API)."
    )
    app.add_typer(ret_app, name="retrieval")

    def _retriever(name, lang, cache_dir, base_url, embed_model, api_key_env, qp, pp):

        endpoint = None
        if name == "openai":
            endpoint = endpoint_from_options(
                base_url, embed_model, api_key_env, query_prefix=qp, passage_prefix=pp
            )
        return make_retriever(name, lang, cache_dir or default_cache_dir(), endpoint)

    @ret_app.command("run")
    def run(
        lang: str = typer.Option(..., "--lang", help="zh or en."),
        retriever: str = typer.Option("bm25", "--retriever", help="bm25 | dense | hybrid | openai"),
        setting: str = typer.Option("pool", "--setting", help="pool | corpus"),
        split: str = typer.Option("refine", "--split", help=_SPLIT_HELP),
        chunk_size: int = typer.Option(256, "--chunk-size", help="corpus: tokens per chunk."),
        overlap: float = typer.Option(0.0, "--overlap", help="corpus: overlap fraction [0, 1)."),
        limit: int | None = typer.Option(None, "--limit", help="Only the first N questions."),
        json_out: Path | None = typer.Option(None, "--json", help="Write the result here."),
        save: bool = typer.Option(
            False,
            "--save",
            help="Refresh the committed result: write a full run to --out-dir/<split>/.",
        ),
        out_dir: Path = typer.Option(
            Path("retrieval"), "--out-dir", help="Where --save writes (<split>/...)."
        ),
        data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
        cache_dir: Path | None = typer.Option(
            None,
            "--cache-dir",
            help="Embedding cache (default $RGB_EMBED_CACHE or .cache/embeddings).",
        ),
        base_url: str | None = typer.Option(
            None, "--base-url", help="openai: endpoint, e.g. http://127.0.0.1:8000/v1."
        ),
        embed_model: str | None = typer.Option(None, "--embed-model", help="openai: model name."),
        api_key_env: str | None = typer.Option(
            None, "--api-key-env", help="openai: NAME of the environment variable with the key."
        ),
        query_prefix: str = typer.Option("", "--query-prefix", help="openai: e.g. 'query: '."),
        passage_prefix: str = typer.Option("", "--passage-prefix", help="openai: 'passage: '."),
    ) -> None:
        """Rank one split's passages and print P@k, R@k, MRR, NDCG@k with 95% bootstrap CIs."""

        if setting not in SETTINGS:
            raise ConfigError(f"--setting {setting!r}: use pool or corpus")
        check_chunking(chunk_size, overlap)
        if limit is not None and limit < 1:
            raise ConfigError(f"--limit {limit}: must be at least 1")
        standard = setting == "pool" or (chunk_size, overlap) == (DEFAULT_CHUNK, DEFAULT_OVERLAP)
        if save and (limit is not None or not standard):
            raise ConfigError(
                "--save refreshes the committed result of a full run with the default chunking; "
                "write this run with --json FILE instead"
            )
        sp = load_retrieval_split(data_root(data_dir), lang, split)
        ret = _retriever(
            retriever,
            lang,
            cache_dir,
            base_url,
            embed_model,
            api_key_env,
            query_prefix,
            passage_prefix,
        )
        command = "rgb-leaderboard " + shlex.join(sys.argv[1:])
        try:
            res = run_retrieval(sp, setting, ret, limit, chunk_size, overlap, _stage, command)
        finally:
            _close_bars()
        print_result(res)
        if save:
            path = result_path(out_dir, sp.name, setting, ret.name)
            write_json(path, res)
            typer.echo(f"saved {path}")
        if json_out is not None:
            write_json(json_out, res)
            typer.echo(f"wrote {json_out}")

    @ret_app.command("grid")
    def grid(
        lang: str = typer.Option(..., "--lang", help="zh or en."),
        retriever: str = typer.Option("bm25", "--retriever", help="bm25 | dense | hybrid | openai"),
        split: str = typer.Option("refine", "--split", help=_SPLIT_HELP),
        sizes: str = typer.Option("128,256,512", "--sizes", help="Chunk sizes (tokens)."),
        overlaps: str = typer.Option("0,0.25,0.5", "--overlaps", help="Overlap fractions."),
        out_dir: Path = typer.Option(Path("retrieval"), "--out-dir", help="Where grids go."),
        data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
        cache_dir: Path | None = typer.Option(None, "--cache-dir", help="Embedding cache."),
        base_url: str | None = typer.Option(None, "--base-url", help="openai: endpoint."),
        embed_model: str | None = typer.Option(None, "--embed-model", help="openai: model."),
        api_key_env: str | None = typer.Option(None, "--api-key-env", help="openai: key var."),
    ) -> None:
        """Corpus-setting chunking grid (R@5, NDCG@5 per cell); resumes cell by cell."""

        try:
            size_list = [int(s) for s in sizes.split(",") if s.strip()]
            overlap_list = [float(s) for s in overlaps.split(",") if s.strip()]
        except ValueError:
            raise ConfigError(
                f"--sizes {sizes!r} / --overlaps {overlaps!r}: comma-separated numbers"
            ) from None
        sp = load_retrieval_split(data_root(data_dir), lang, split)
        ret = _retriever(retriever, lang, cache_dir, base_url, embed_model, api_key_env, "", "")
        path = grid_path(out_dir, sp.name, ret.name)
        try:
            result = run_grid(
                sp, ret, size_list, overlap_list, path, _stage, lambda g: write_json(path, g)
            )
        finally:
            _close_bars()
        write_json(path, result)
        print_grid(result)
        typer.echo(f"saved {path}")

    @ret_app.command("compare")
    def compare(
        a: Path = typer.Argument(..., help="Result JSON of retriever A."),
        b: Path = typer.Argument(..., help="Result JSON of retriever B (same split and setting)."),
        metrics: str = typer.Option("MRR,NDCG@5,R@5,P@1", "--metrics", help="Metrics compared."),
        json_out: Path | None = typer.Option(None, "--json", help="Write the comparison here."),
    ) -> None:
        """Paired comparison on the same questions: mean difference A - B with a bootstrap CI and
        a sign-flip permutation p-value."""

        paired = compare_files(a, b, [m.strip() for m in metrics.split(",") if m.strip()])
        table = Table(
            title=f"{paired.split} · {paired.setting}: {paired.a} (A) vs {paired.b} (B), "
            "paired on the same questions"
        )
        for col in ("metric", "n", "A", "B", "A - B", "95% CI", "p", "A>B", "B>A", "ties"):
            table.add_column(col, justify="left" if col == "metric" else "right")
        for c in paired.comparisons:
            table.add_row(
                str(c["metric"]),
                str(c["n"]),
                _f(c["mean_a"]),
                _f(c["mean_b"]),
                f"{c['diff']:+.3f}",
                _ci(c["ci"]),
                f"{c['p_value']:.4f}",
                str(c["a_better"]),
                str(c["b_better"]),
                str(c["ties"]),
            )
        _console().print(table)
        if json_out is not None:
            write_json(json_out, paired)
            typer.echo(f"wrote {json_out}")


def print_grid(result) -> None:
    partial = " (PARTIAL file)" if result.partial else ""
    table = Table(
        title=f"{result.split}{partial} · corpus · {result.retriever}: chunking grid "
        "(R@5 / NDCG@5, mean [95% CI])"
    )
    table.add_column("chunk size")
    overlaps = sorted({c.overlap for c in result.cells})
    for o in overlaps:
        table.add_column(f"overlap {o:.0%}", justify="right")
    for size in sorted({c.size for c in result.cells}):
        row = [f"{size} tokens"]
        for o in overlaps:
            cell = next((c for c in result.cells if c.size == size and c.overlap == o), None)
            if cell is None:
                row.append("not run")
                continue
            r, n = cell.metrics["R@5"], cell.metrics["NDCG@5"]
            row.append(f"{_f(r.mean)} [{_ci(r.ci)}] / {_f(n.mean)} [{_ci(n.ci)}]")
        table.add_row(*row)
    _console().print(table)

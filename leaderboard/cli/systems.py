"""`systems show`: the systems track's table and paired comparisons in the terminal, computed by
leaderboard.board.systems exactly as the Systems page shows them."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.load import load_site_data
from leaderboard.board.systems import MAX_ERROR_SHARE, Figure, SystemsBoard, systems_board
from leaderboard.core.types import LANGS
from leaderboard.data.manifest import data_root


def _pct(f: Figure) -> str:
    if f.value is None:
        return "-"
    ci = f" [{100 * f.ci[0]:.1f}, {100 * f.ci[1]:.1f}]" if f.ci else ""
    return f"{100 * f.value:.1f}%{ci}"


def _sec(f: Figure) -> str:
    if f.value is None:
        return "-"
    return f"{f.value:.2f}s" + (f" [{f.ci[0]:.2f}, {f.ci[1]:.2f}]" if f.ci else "")


def render_systems(board: SystemsBoard) -> str:
    """Per language, one block per system (ranked ones first), then the paired comparisons."""
    limit = f"{MAX_ERROR_SHARE:.0%}"
    lines = [f"95% intervals; strict mode for recall and misses; unranked above {limit} errors"]
    for lang in LANGS:
        lines.append(f"\n{lang}")
        for r in (r for r in board.rows if r.lang == lang):
            status = "floor" if r.floor else "ranked" if r.ranked else "UNRANKED"
            lines.append(f"  {r.id} ({status}, n={r.n}, errors={r.errors} {_pct(r.error_share)})")
            e2e = r.end_to_end
            lines.append(f"    end-to-end strict {_pct(e2e['strict'])}  rgb {_pct(e2e['rgb'])}")
            lines.append(
                f"    recall@5 {_pct(r.recall)}  retrieval miss {_pct(r.retrieval_miss)}  "
                f"generation miss {_pct(r.generation_miss)}"
            )
            lines.append(f"    latency p50 {_sec(r.latency_p50)}  p95 {_sec(r.latency_p95)}")
    lines.append("\npaired comparisons (end-to-end, A - B, same questions)")
    for p in board.pairs:
        ci = f"[{100 * p.ci[0]:+.1f}, {100 * p.ci[1]:+.1f}]" if p.ci else ""
        verdict = {1: "A better", -1: "B better", 0: "not distinguishable"}[p.sign]
        lines.append(
            f"  {p.lang} {p.mode:6} {p.a} - {p.b}: {100 * (p.diff or 0):+.1f} pts {ci} "
            f"n={p.n} (only A {p.only_a}, only B {p.only_b}): {verdict}"
        )
    lines += [f"  not compared: {m}" for m in board.missing]
    return "\n".join(lines)


def systems_show(
    repo: Path = typer.Option(Path("."), "--repo", help="Folder holding submissions/."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Folder holding data_<lang>/."),
) -> None:
    """Print the systems table (every figure with its interval) and the paired comparisons."""
    data = load_site_data(repo)
    typer.echo(render_systems(systems_board(data, data_root(data_dir))))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `systems show`."""
    systems_app = typer.Typer(help="The systems track (`backend: system` submissions).")
    systems_app.command("show")(systems_show)
    app.add_typer(systems_app, name="systems")

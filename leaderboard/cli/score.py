"""`score`: saved predictions rescored without a model (answers looked up in the data by id),
with cells, scores and per-instance judgements."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import typer
from rich.table import Table

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.cli.console import console, pct, pct_ci
from leaderboard.core.errors import ConfigError
from leaderboard.core.safe_io import output_file, write_text_atomic
from leaderboard.core.types import DEFAULT_NOISE_RATES
from leaderboard.data.manifest import data_root
from leaderboard.stats.metrics import compute_metrics
from leaderboard.trust.prediction_lines import (
    output_row,
    read_lines,
    resolve,
    score_lines,
)


def _summary(cells, scores, mode: str) -> None:
    out = console()
    table = Table(title=f"cells ({mode} mode; percentages with 95% CI)")
    for col in (
        "lang",
        "ability",
        "noise",
        "n",
        "errors",
        "accuracy",
        "rejection",
        "ED",
        "CR",
        "token F1",
    ):
        table.add_column(col, justify="left" if col in ("lang", "ability") else "right")
    for c in cells:
        if c.mode != mode:
            continue
        table.add_row(
            c.lang,
            c.ability,
            f"{c.noise_rate:.1f}",
            f"{c.n}/{c.expected_n}",
            str(c.n_errors),
            pct(c.accuracy) + pct_ci(c.accuracy_ci),
            pct(c.rejection_rate) + pct_ci(c.rejection_rate_ci),
            pct(c.ed) + pct_ci(c.ed_ci) if c.ed is not None else "",
            pct(c.cr) + pct_ci(c.cr_ci) if c.ed is not None else "",
            pct(c.token_f1) if c.token_f1 is not None else "",
        )
    out.print(table)
    table = Table(title=f"scores ({mode} mode)")
    for col in ("lang", "ability", "metric", "value [95% CI]", "questions", "complete"):
        table.add_column(col)
    for s in scores:
        if s.mode == mode:
            table.add_row(
                s.lang,
                s.ability,
                s.metric,
                pct(s.value) + pct_ci(s.ci),
                str(s.n_questions),
                "yes" if s.complete else "no",
            )
    out.print(table)


def score_cmd(
    predictions: Path = typer.Argument(
        ..., help="JSON Lines: lang, ability, id, noise_rate, prediction."
    ),
    mode: Literal["rgb", "strict"] = typer.Option(
        "strict", "--mode", help="Judgement written per line."
    ),
    per_instance: Path | None = typer.Option(
        None,
        "--per-instance",
        help="Write each input line plus labels, correct, rejected, error_detected.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    resamples: int = typer.Option(
        1000, "--resamples", min=0, help="Bootstrap resamples (0: no CIs)."
    ),
    seed: int = typer.Option(2333, "--seed", help="Bootstrap seed."),
    json_out: Path | None = typer.Option(
        None, "--json", help="Also write cells and scores as JSON here."
    ),
    any_noise_rate: bool = typer.Option(
        False,
        "--any-noise-rate",
        help="Accept noise rates outside the RGB protocol (they get cells, never scores).",
    ),
) -> None:
    """Rescore saved predictions without a model: answers are looked up in the data by id.

    Both modes are computed; --mode picks what --per-instance writes and what the summary shows.
    """
    # output paths are checked (and their folders made) before any work, so a typo costs nothing
    if per_instance is not None:
        output_file(per_instance, ConfigError, "--per-instance", "judgements.jsonl")
    if json_out is not None:
        output_file(json_out, ConfigError, "--json")
    lines = read_lines(predictions, any_noise_rate)
    off = sorted(
        {
            f"{x.ability} {x.noise_rate:g}"
            for x in lines
            if x.noise_rate not in DEFAULT_NOISE_RATES.get(x.ability, (0.0,))  # probes: 0.0
        }
    )
    if off:
        typer.secho(
            f"warning: noise rates outside the RGB protocol ({', '.join(off)}): scored as "
            "cells, left out of every ability score",
            fg=typer.colors.YELLOW,
            err=True,
        )
    pairs, splits = resolve(lines, data_root(data_dir))
    items = score_lines(pairs)
    if per_instance is not None:
        rows = (
            json.dumps(output_row(line, item, mode), ensure_ascii=False) + "\n"
            for (line, _), item in zip(pairs, items, strict=True)
        )
        write_text_atomic(per_instance, "".join(rows), ConfigError)
    cells, scores, boot = compute_metrics(items, splits, resamples=resamples, seed=seed)
    if json_out is not None:
        payload = {
            "bootstrap": boot.model_dump(),
            "cells": [c.model_dump() for c in cells],
            "scores": [s.model_dump() for s in scores],
        }
        write_text_atomic(
            json_out, json.dumps(payload, ensure_ascii=False, indent=1) + "\n", ConfigError
        )
    _summary(cells, scores, mode)
    typer.echo(
        f"{len(items)} predictions scored; bootstrap: {boot.resamples} resamples, seed {boot.seed}."
    )
    if per_instance is not None:
        typer.echo(f"per-instance judgements ({mode}): {per_instance}")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("score")(score_cmd)

"""`score` (rescore saved predictions), `compare` (two models, paired) and `data audit`."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Literal

import typer
from rich.console import Console
from rich.table import Table

from leaderboard.core.errors import ConfigError, DataError, ResultsError
from leaderboard.core.safe_io import output_file, write_text_atomic
from leaderboard.core.types import ABILITIES, DEFAULT_NOISE_RATES, LANGS
from leaderboard.data.manifest import data_root
from leaderboard.scoring.audit import audit, data_files
from leaderboard.stats.metrics import compute_metrics
from leaderboard.stats.paired import paired_compare
from leaderboard.trust.rescore import (
    lines_from_predictions,
    output_row,
    read_lines,
    resolve,
    score_lines,
)

_DATA_DIR_HELP = (
    "Folder holding data_en/ and data_zh/ (default: $RGB_DATA_DIR, else the current folder "
    "if it has data_zh/MANIFEST.json, else the repository root)."
)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False, width=140)


def _summary(cells, scores, mode: str) -> None:
    console = _console()
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
            _pct(c.accuracy) + _ci(c.accuracy_ci),
            _pct(c.rejection_rate) + _ci(c.rejection_rate_ci),
            _pct(c.ed) + _ci(c.ed_ci) if c.ed is not None else "",
            _pct(c.cr) + _ci(c.cr_ci) if c.ed is not None else "",
            _pct(c.token_f1) if c.token_f1 is not None else "",
        )
    console.print(table)
    table = Table(title=f"scores ({mode} mode)")
    for col in ("lang", "ability", "metric", "value [95% CI]", "questions", "complete"):
        table.add_column(col)
    for s in scores:
        if s.mode == mode:
            table.add_row(
                s.lang,
                s.ability,
                s.metric,
                _pct(s.value) + _ci(s.ci),
                str(s.n_questions),
                "yes" if s.complete else "no",
            )
    console.print(table)


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
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
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
            if x.noise_rate not in DEFAULT_NOISE_RATES[x.ability]
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


def compare_cmd(
    a: Path = typer.Argument(..., help="Submission folder or predictions.jsonl(.gz) of model A."),
    b: Path = typer.Argument(..., help="Submission folder or predictions.jsonl(.gz) of model B."),
    mode: Literal["rgb", "strict"] = typer.Option(
        "strict", "--mode", help="Scoring mode compared."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    resamples: int = typer.Option(
        2000, "--resamples", min=0, help="Bootstrap resamples (0: no CI)."
    ),
    seed: int = typer.Option(2333, "--seed", help="Bootstrap seed."),
) -> None:
    """Compare two models on the instances both answered: A - B per language and ability.

    The outcome compared is what each ability's score counts (noise/integration: correct; rejection:
    refused; counterfactual: detected and corrected). CI: paired cluster bootstrap over question
    ids;
    p: cluster sign-flip permutation test (questions, not instances, are the units).
    """
    root = data_root(data_dir)
    scored = []
    for path in (a, b):
        if not path.exists():
            raise ResultsError(f"{path}: not found; pass a submission folder or a predictions file")
        pairs, _ = resolve(lines_from_predictions(path), root)
        scored.append(score_lines(pairs))
    groups: dict[tuple[str, str], tuple[list, list]] = defaultdict(lambda: ([], []))
    for side, items in enumerate(scored):
        for it in items:
            groups[(it.instance.lang, it.instance.ability)][side].append(it)
            groups[(it.instance.lang, "all")][side].append(it)
    table = Table(title=f"A = {a}  vs  B = {b}  ({mode} mode; percentages)")
    for col in (
        "lang",
        "ability",
        "matched",
        "A",
        "B",
        "A - B [95% CI]",
        "A only",
        "B only",
        "p (cluster sign-flip)",
    ):
        table.add_column(col, justify="left" if col in ("lang", "ability") else "right")
    order = [(lang, ab) for lang in LANGS for ab in (*ABILITIES, "all")]
    any_matched = False
    for key in order:
        if key not in groups:
            continue
        cmp = paired_compare(*groups[key], mode=mode, resamples=resamples, seed=seed)  # type: ignore[arg-type]
        any_matched |= cmp.n > 0
        diff = "-" if cmp.diff is None else f"{100 * cmp.diff:+.1f}{_ci(cmp.ci)}"
        table.add_row(
            key[0],
            key[1],
            str(cmp.n),
            _pct(cmp.rate_a),
            _pct(cmp.rate_b),
            diff,
            str(cmp.a_only),
            str(cmp.b_only),
            f"{cmp.p_value:.3g}",
        )
    _console().print(table)
    if not any_matched:
        raise ResultsError(f"{a} and {b} share no instance keys; compare runs on the same splits")


def audit_cmd(
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as a JSON list."),
) -> None:
    """List known data problems found by code (fake answer containing the answer, answers in the
    negative passages, answers missing from positives, duplicated questions)."""
    root = data_root(data_dir)
    if not data_files(root):
        raise DataError(
            f"no RGB data files under {root}; run `rgb-leaderboard data fetch` or pass --data-dir"
        )
    findings = audit(root)
    if as_json:
        typer.echo(json.dumps([f.as_dict() for f in findings], ensure_ascii=False, indent=1))
        return
    table = Table(title=f"data audit of {root}: {len(findings)} findings")
    for col in ("lang", "file", "id", "kind", "detail"):
        table.add_column(col, overflow="fold")
    for f in findings:
        table.add_row(f.lang, f.file, str(f.id), f.kind, f.detail)
    _console().print(table)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("score")(score_cmd)
    app.command("compare")(compare_cmd)
    data_app.command("audit")(audit_cmd)

"""`compare`: two models on the instances both answered, A - B per language and ability, with a
paired cluster bootstrap CI and a cluster sign-flip test (questions are the units)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Literal

import typer
from rich.table import Table

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.cli.console import console, pct, pct_ci
from leaderboard.core.errors import ResultsError
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.data.manifest import data_root
from leaderboard.stats.paired import paired_compare
from leaderboard.trust.prediction_lines import lines_from_predictions, resolve, score_lines


def compare_cmd(
    a: Path = typer.Argument(..., help="Submission folder or predictions.jsonl(.gz) of model A."),
    b: Path = typer.Argument(..., help="Submission folder or predictions.jsonl(.gz) of model B."),
    mode: Literal["rgb", "strict"] = typer.Option(
        "strict", "--mode", help="Scoring mode compared."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
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
        diff = "-" if cmp.diff is None else f"{100 * cmp.diff:+.1f}{pct_ci(cmp.ci)}"
        table.add_row(
            key[0],
            key[1],
            str(cmp.n),
            pct(cmp.rate_a),
            pct(cmp.rate_b),
            diff,
            str(cmp.a_only),
            str(cmp.b_only),
            f"{cmp.p_value:.3g}",
        )
    console().print(table)
    if not any_matched:
        raise ResultsError(f"{a} and {b} share no instance keys; compare runs on the same splits")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `compare`."""
    app.command("compare")(compare_cmd)

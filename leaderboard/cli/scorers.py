"""`scorers eval`: precision and recall of both scoring modes on the labelled set."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Literal

import typer
from rich.console import Console
from rich.table import Table

from leaderboard.cli.arguments import command_group
from leaderboard.core.errors import ConfigError
from leaderboard.stats.scorer_eval import answer_agreement, evaluate
from leaderboard.stats.scorer_eval import disagreements as list_disagreements

scorers_app = command_group(
    "Measure the scorers against the labelled answers (leaderboard/scoring/labels)."
)


def _pct(x: object) -> str:
    return "-" if x is None else f"{100 * float(x):.1f}"  # type: ignore[arg-type]


def _ci(ci: object) -> str:
    if not ci:
        return ""
    lo, hi = ci  # type: ignore[misc]
    return f" [{100 * lo:.1f}, {100 * hi:.1f}]"


def _write_json(path: Path, payload: object) -> None:
    """Atomic write: a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(payload, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    os.replace(tmp, path)


def eval_cmd(
    split: Literal["test", "dev", "all"] = typer.Option(
        "test", "--split", help="Labelled items to score: the held-out test part, dev, or all."
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the rows as JSON."),
    batch: str | None = typer.Option(
        None,
        "--batch",
        help="Only one written batch, by its id tag (d2, d3: the later dev-only batches).",
    ),
    collection: Literal["scorers", "audit"] = typer.Option(
        "scorers",
        "--set",
        help="Labelled set: scorers (labels/<lang>.jsonl) or audit (labels/audit/<lang>.jsonl: "
        "committed answers of the rgb-vs-strict audit; --batch dis or agr).",
    ),
    disagreements: bool = typer.Option(
        False,
        "--disagreements",
        help="List the dev items where a mode disagrees with a label (never test: it is held out).",
    ),
) -> None:
    """Precision, recall, F1 of rejection and error detection and accuracy of correctness,
    both modes, 95% Wilson intervals."""
    if disagreements:
        if split != "dev":
            raise ConfigError("--disagreements lists dev items only: add --split dev")
        for lang in ("zh", "en"):
            for mode in ("rgb", "strict"):
                for item, diff in list_disagreements("dev", mode, lang, collection):
                    what = ", ".join(f"{d}: got {g} label {w}" for d, (g, w) in diff.items())
                    typer.echo(f"{mode} {item.id} [{what}] {item.prediction[:150]!r}")
        return
    rows = evaluate(split, batch=batch, collection=collection)
    if not any(r["n"] for r in rows):
        raise ConfigError(f"no labelled items in split {split!r} with batch {batch!r}")
    what = f"{collection} set, {split} split" + (f", batch {batch}" if batch else "")
    table = Table(title=f"scorers vs labels ({what}; % with 95% Wilson CI)")
    for col in ("lang", "detector", "mode", "n", "precision", "recall", "F1", "accuracy"):
        table.add_column(col, justify="left" if col in ("lang", "detector", "mode") else "right")
    order = sorted(rows, key=lambda r: (r["lang"] != "zh", r["detector"], r["mode"]))
    for r in order:
        table.add_row(
            str(r["lang"]),
            str(r["detector"]),
            str(r["mode"]),
            str(r["n"]),
            _pct(r["precision"]) + _ci(r["precision_ci"]),
            _pct(r["recall"]) + _ci(r["recall_ci"]),
            _pct(r["f1"]),
            _pct(r["accuracy"]) + _ci(r["accuracy_ci"]),
        )
    Console(highlight=False, soft_wrap=False, width=140).print(table)
    agreement = answer_agreement(split, batch=batch, collection=collection)
    for r in agreement:
        typer.echo(
            f"answers judged as labelled on every detector: {r['lang']} {r['mode']} "
            f"{r['agree']}/{r['n']} = {_pct(r['rate'])}%{_ci(r['ci'])}"
        )
    if json_out is not None:
        _write_json(json_out, rows + [{**r, "detector": "every judgement"} for r in agreement])
        typer.echo(f"wrote {json_out}")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    scorers_app.command("eval")(eval_cmd)
    app.add_typer(scorers_app, name="scorers")

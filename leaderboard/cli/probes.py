"""`probes show`: the chain, replacement and cliff tables of a results.json, with CIs."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.core.files import read_results
from leaderboard.core.schema import ProbeEntry, Results
from leaderboard.core.types import LANGS

CHAIN_ROWS = (
    "recall_at_k",
    "accuracy_given_support",
    "end_to_end",
    "correct",
    "correct_without_support",
    "generation_miss",
    "retrieval_miss",
    "loss_retrieval",
    "loss_generation",
)
REPLACEMENT_ROWS = ("own_accuracy", "memory_accuracy", "context_reliance", "refusal")


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def _ci(e: ProbeEntry) -> str:
    return f"[{100 * e.ci[0]:5.1f}, {100 * e.ci[1]:5.1f}]" if e.ci else ""


def render_probes(results: Results, mode: str = "rgb") -> str:
    """The chain and replacement tables and the cliff figures, per language, as plain text."""
    by = {(e.lang, e.probe, e.metric): e for e in results.probes if e.mode == mode}
    lines = [
        f"{results.display_name}  (mode {mode}; 95% CIs: rates Wilson at the cluster-bootstrap "
        "effective n, differences paired)"
    ]
    for lang in LANGS:
        for probe, rows in (("chain", CHAIN_ROWS), ("replacement", REPLACEMENT_ROWS)):
            have = [by[(lang, probe, m)] for m in rows if (lang, probe, m) in by]
            if not have:
                continue
            lines.append(f"{lang} {probe} (n={have[0].n_questions})")
            for e in have:
                n = f"  n={e.n_questions}" if e.n_questions != have[0].n_questions else ""
                lines.append(f"  {e.metric:<26}{_pct(e.value)}  {_ci(e)}{n}")
            rej = next(
                (
                    c
                    for c in results.cells
                    if (c.lang, c.ability, c.noise_rate, c.mode) == (lang, "rejection", 1.0, mode)
                ),
                None,
            )
            if probe == "replacement" and rej is not None:
                ci = rej.rejection_rate_ci
                band = f"[{100 * ci[0]:5.1f}, {100 * ci[1]:5.1f}]" if ci else ""
                lines.append(
                    f"  {'rgb_negative_rejection':<26}{_pct(rej.rejection_rate)}  {band}  "
                    f"n={rej.n} (noise rate 1.0, on-topic negatives)"
                )
        drop = by.get((lang, "cliff", "largest_drop"))
        half = by.get((lang, "cliff", "below_half_at"))
        if drop is not None:
            frm, to = drop.rates
            lines.append(
                f"{lang} noise cliff: largest drop {frm:.1f}->{to:.1f} "
                f"{_pct(drop.value).strip()} {_ci(drop)} (n={drop.n_questions})"
            )
        if half is not None:
            at = "none" if half.value is None else f"{half.value:.1f}"
            lines.append(f"{lang} noise cliff: first rate below half of noise-0 accuracy: {at}")
    return "\n".join(lines)


def probes_show(
    path: Path = typer.Argument(..., help="A submission folder or its results.json."),
    mode: str = typer.Option("rgb", "--mode", help="rgb or strict."),
) -> None:
    """Print the probe tables (chain, replacement, cliff) of a results.json with CIs."""
    file = path / "results.json" if path.is_dir() else path
    typer.echo(render_probes(read_results(file), mode))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `probes show`."""
    probes_app = typer.Typer(help="The retrieve-then-generate, replacement and cliff probes.")
    probes_app.command("show")(probes_show)
    app.add_typer(probes_app, name="probes")

"""`rgb-leaderboard reproduce SUB`: regenerate a seeded sample of the recorded answers with the
declared model and compare (leaderboard.trust.reproduce); exit 1 below the agreement threshold."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP, comma_list
from leaderboard.core.types import ABILITIES, LANGS, PROBES
from leaderboard.data.manifest import data_root
from leaderboard.trust.reproduce import (
    DEFAULT_SAMPLE,
    DEFAULT_SEED,
    MIN_AGREEMENT,
    MIN_IDENTICAL,
    REPRODUCE_NAME,
    Selection,
    render,
    reproduce,
    write_reproduce,
)


def _rates(value: str | None) -> list[float] | None:
    if value is None:
        return None
    try:
        return [float(x) for x in value.split(",") if x.strip()]
    except ValueError:
        raise typer.BadParameter(f"{value!r}: a comma list of numbers, e.g. 0,0.4") from None


def _command(folder: Path, sample: int, seed: int, *selection: str | None) -> str:
    """The command that draws the same sample (recorded in reproduce.json)."""
    parts = ["rgb-leaderboard", "reproduce", folder.as_posix(), "--sample", str(sample)]
    parts += ["--seed", str(seed)]
    for flag, value in zip(("--lang", "--ability", "--noise-rate"), selection, strict=True):
        if value is not None:
            parts += [flag, value]
    return shlex.join(parts)


def _share_option(default: float, flag: str, what: str):
    """One of the two thresholds: a share in [0, 1] of the sampled answers (`what`: which ones)."""
    return typer.Option(
        default, flag, min=0.0, max=1.0, help=f"Least share of sampled answers {what}"
    )


def reproduce_cmd(
    submission: Path = typer.Argument(..., help="A submission folder (or its model.yaml)."),
    sample: int = typer.Option(DEFAULT_SAMPLE, "--sample", min=1, help="Answers to regenerate."),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", help="Chooses the sample (same seed, same)."),
    lang: str | None = typer.Option(None, "--lang", help="Only these languages (comma list)."),
    ability: str | None = typer.Option(
        None, "--ability", help="Only these abilities or probes (comma list)."
    ),
    noise_rate: str | None = typer.Option(
        None, "--noise-rate", help="Only these noise rates (comma list)."
    ),
    threshold: float = _share_option(
        MIN_AGREEMENT, "--min-agreement", "with the same judgement in both modes."
    ),
    min_identical: float = _share_option(
        MIN_IDENTICAL, "--min-identical", "regenerated with identical text."
    ),
    out: Path | None = typer.Option(
        None, "--out", help=f"Where to write the report (default: SUBMISSION/{REPRODUCE_NAME})."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Regenerate a seeded sample of the recorded prompts with the declared model and settings;
    compare each answer with the recorded one (identical / same labels in both modes /
    different); write reproduce.json; exit 1 when the share with the same judgement is below
    --min-agreement or the share with identical text below --min-identical."""
    folder = submission.parent if submission.is_file() else submission
    selection = Selection(
        langs=comma_list(lang, LANGS, "--lang"),
        abilities=comma_list(ability, ABILITIES + PROBES, "--ability"),
        noise_rates=_rates(noise_rate),
    )
    result = reproduce(
        folder,
        data_root(data_dir),
        n=sample,
        seed=seed,
        selection=selection,
        threshold=threshold,
        min_identical=min_identical,
        command=_command(folder, sample, seed, lang, ability, noise_rate),
    )
    path = out or folder / REPRODUCE_NAME
    write_reproduce(path, result)
    typer.echo(render(result))
    typer.echo(f"wrote {path.as_posix()}")
    if not result.agreement.passed:
        raise typer.Exit(1)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("reproduce")(reproduce_cmd)

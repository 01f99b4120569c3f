"""`rgb-leaderboard attest SUB`: from a clean checkout, re-generate a seeded sample of the answers
that invocations of uncommitted (or unrecorded) code wrote, and write attestation.json
(leaderboard.trust.attest); exit 1 unless every sampled answer comes back identical."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.data.manifest import data_root
from leaderboard.trust.attest import ATTEST_NAME, DEFAULT_SAMPLE, attest, write_attestation
from leaderboard.trust.reproduce import DEFAULT_SEED


def attest_cmd(
    submission: Path = typer.Argument(..., help="A submission folder (or its model.yaml)."),
    sample: int = typer.Option(
        DEFAULT_SAMPLE, "--sample", min=1, help="Answers to re-generate (at least one per commit)."
    ),
    seed: int = typer.Option(DEFAULT_SEED, "--seed", help="Chooses the sample (same seed, same)."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Attest the answers of invocations that ran from uncommitted code (or whose git state was
    not recorded): re-generate a sample of exactly those answers from this clean checkout and
    compare the text; write SUBMISSION/attestation.json; exit 1 when any answer differs."""
    folder = submission.parent if submission.is_file() else submission
    command = shlex.join(
        [
            "rgb-leaderboard",
            "attest",
            folder.as_posix(),
            "--sample",
            str(sample),
            "--seed",
            str(seed),
        ]
    )
    result = attest(folder, data_root(data_dir), n=sample, seed=seed, command=command)
    path = folder / ATTEST_NAME
    write_attestation(path, result)
    same = sum(p.identical for p in result.pairs)
    verdict = "ok" if result.passed else "FAIL"
    typer.echo(
        f"{verdict}: {result.submission_id}: re-generated {result.sample} of {result.of:,} answers "
        f"from {len(result.invocations)} invocation(s) of uncommitted or unrecorded code at "
        f"commit {result.checkout.git_commit[:12]}: {same} identical"
    )
    for p in result.pairs:
        if not p.identical:
            typer.echo(f"  {p.key}: DIFFERENT")
            typer.echo(f"    recorded:    {p.recorded[:300]!r}")
            typer.echo(f"    regenerated: {p.regenerated[:300]!r}")
    typer.echo(f"wrote {path.as_posix()}")
    if not result.passed:
        raise typer.Exit(1)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `attest`."""
    app.command("attest")(attest_cmd)

"""`rgb-leaderboard` command line: one module per command or command group, named after it
(`verify` in cli/verify.py, `data fetch|status|audit` in cli/data.py), each registering itself.

Errors the user can act on (LeaderboardError) are printed without a traceback and exit with code 2.
"""

from __future__ import annotations

import sys

import typer

from leaderboard import __version__
from leaderboard.cli import (
    attest,
    compare,
    conflicts,
    corpus,
    cost,
    data,
    disagreements,
    faithfulness,
    grounding,
    instances,
    instructions,
    judge,
    merge,
    model,
    predictions,
    probes,
    release,
    relevance,
    reproduce,
    rescore,
    retrieval,
    run,
    score,
    scorers,
    site,
    submissions,
    systems,
    validate,
    verify,
)
from leaderboard.cli.arguments import command_group
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.write_errors import is_write_error, unhandled_write_error

app = typer.Typer(
    name="rgb-leaderboard",
    help="RGB bilingual (zh/en) RAG robustness leaderboard: data, instances, runs, scoring, site.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
data_app = command_group("Fetch, verify and audit the RGB data files.")
app.add_typer(data_app, name="data")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rgb-leaderboard {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """RGB bilingual (zh/en) RAG robustness leaderboard."""


def _register() -> None:
    # the order of `--help`: data, then the commands in the order a user meets them
    for module in (
        data,
        instances,
        score,
        compare,
        scorers,
        disagreements,
        run,
        instructions,
        conflicts,
        merge,
        judge,
        faithfulness,
        relevance,
        model,
        validate,
        submissions,
        site,
        release,
        verify,
        rescore,
        reproduce,
        attest,
        cost,
        grounding,
        predictions,
        retrieval,
        corpus,
        probes,
        systems,
    ):
        module.register(app, data_app)


_register()


def main() -> None:
    try:
        app()
    except LeaderboardError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        sys.exit(2)
    except OSError as exc:  # a full or read-only disk no writer caught: one line, not a traceback
        if not is_write_error(exc):
            raise
        typer.secho(f"error: {unhandled_write_error(exc)}", fg=typer.colors.RED, err=True)
        sys.exit(2)

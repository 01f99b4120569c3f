"""`disagreements`: every committed answer where the rgb and strict modes judge differently,
grouped by the strict rule that made the difference, counted per model and language (the RGB
abilities, as the committed audits count them; `--probes`: the probe answers instead)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from leaderboard.board.disagreements import KINDS, Disagreement, answers_differing, counts
from leaderboard.board.strict_audits import AUDIT_DIR, disagreement_payload
from leaderboard.board.strict_audits import write_audits as write_audits_files
from leaderboard.cli.arguments import DATA_DIR_HELP, submission_folders
from leaderboard.cli.console import console
from leaderboard.core.errors import ConfigError
from leaderboard.core.safe_io import output_file, write_text_atomic
from leaderboard.core.types import ABILITIES, PROBES
from leaderboard.data.manifest import data_root
from leaderboard.stats.version import scoring_version

SHOWN = 160  # characters of an answer a --list line shows


def _direction(strict: bool) -> str:
    return "strict yes, rgb no" if strict else "rgb yes, strict no"


def _table(found: list[Disagreement]) -> Table:
    table = Table(title="rgb vs strict: answers judged differently, by the strict rule")
    for col in ("entry", "lang", "judgement", "direction", "rule", "answers"):
        table.add_column(col, justify="right" if col == "answers" else "left")
    for c in counts(found):
        table.add_row(c.entry, c.lang, c.kind, _direction(c.strict), c.rule, str(c.n))
    return table


def _line(d: Disagreement) -> str:
    text = d.prediction.replace("\n", " ")
    text = text if len(text) <= SHOWN else text[:SHOWN] + "…"
    return f"{d.entry} {d.key} {d.kind} [{_direction(d.strict)}] {d.rule}: {text!r}"


def disagreements_cmd(
    submissions: list[Path] | None = typer.Argument(
        None, help="Submission folders (default: every submissions/*/ with a results.json)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    list_answers: bool = typer.Option(
        False,
        "--list",
        help="Also print every differing answer with its rule (and write them, with their "
        "reasons, into --json).",
    ),
    rule: str | None = typer.Option(None, "--rule", help="Only differences made by this rule."),
    json_out: Path | None = typer.Option(
        None, "--json", help="Write the counts (with --list, every differing answer too)."
    ),
    write_audits: bool = typer.Option(
        False,
        "--write-audits",
        help="Rewrite the committed audits audits/strict/after.json (counts of the entries it "
        "names), after-ranked.json (every differing answer of its entries) and "
        "after-agreement.json (agreement with the hand labels), which `verify` re-derives.",
    ),
    probes: bool = typer.Option(
        False,
        "--probes",
        help="The probe answers (chain, replacement, closedbook, closedbook_fact) instead of the "
        "RGB abilities: both modes score them, but they are no RGB score and no committed audit.",
    ),
) -> None:
    """List every committed answer where rgb and strict differ (correct, rejected, error
    detected), grouped by the strict rule that made the difference, with counts per model and
    language."""
    if json_out is not None:
        output_file(json_out, ConfigError, "--json", "disagreements.json")
    root = data_root(data_dir)
    if write_audits and probes:
        raise ConfigError(
            "--write-audits rewrites the audits of the RGB abilities; --probes lists the probe "
            "answers, which no committed audit holds: use one or the other"
        )
    if write_audits:
        named = list(submissions or [])
        for path in write_audits_files(AUDIT_DIR, root, named, named):
            typer.echo(f"wrote {path}")
        return
    folders = submission_folders(submissions)
    abilities = PROBES if probes else ABILITIES
    payload, found = disagreement_payload(folders, root, list_answers, abilities)
    if rule is not None:
        found = [d for d in found if d.rule == rule]
    out = console()
    out.print(_table(found))
    for (entry, lang), n in sorted(answers_differing(found).items()):
        typer.echo(f"{entry} {lang}: {n} answer(s) judged differently")
    by_kind = {k: sum(1 for d in found if d.kind == k) for k in KINDS}
    typer.echo(
        f"{len(folders)} entries{' (probe answers)' if probes else ''}, "
        f"scoring version {scoring_version()}: " + ", ".join(f"{k} {n}" for k, n in by_kind.items())
    )
    if list_answers:
        for d in found:
            typer.echo(_line(d))
    if json_out is not None:
        if rule is not None:
            payload = {
                **payload,
                "counts": [c.as_dict() for c in counts(found)],
                "answers": [d.as_dict() for d in found] if list_answers else [],
            }
        write_text_atomic(
            json_out, json.dumps(payload, ensure_ascii=False, indent=1) + "\n", ConfigError
        )
        typer.echo(f"wrote {json_out}")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("disagreements")(disagreements_cmd)

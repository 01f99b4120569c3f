"""`instances`: exactly what a model is shown, one JSON object a line, built as the runner builds
them (`run/plan.split_instances`), so a reader can check a prompt without running a model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.errors import ConfigError
from leaderboard.core.types import DEFAULT_NOISE_RATES, PROBES, Ability
from leaderboard.data.manifest import data_root
from leaderboard.protocol.prompts import build_request, messages_as_dicts
from leaderboard.run.plan import split_instances

_PROBE_PASSAGES = {
    "chain": "its passages are ranked by BM25",
    "replacement": "its passages are of unrelated questions",
    "closedbook": "it shows no passage",
    "closedbook_fact": "it shows no passage",
}


def instances_cmd(
    lang: Literal["zh", "en"] = typer.Option(..., "--lang", help="Language."),
    ability: Ability = typer.Option(
        ...,
        "--ability",
        help="RGB ability, or a probe (chain: BM25 top passages of the question's own pool; "
        "replacement: passages of unrelated questions; closedbook, closedbook_fact: the noise or "
        "counterfactual file's questions with no passage), built as the runner builds them.",
    ),
    noise_rate: list[float] | None = typer.Option(
        None,
        "--noise-rate",
        help="Noise rate (repeatable); default: the RGB protocol rates for the ability.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N records."),
    variant: Literal["refine", "original"] = typer.Option(
        "refine",
        "--variant",
        help="noise/rejection data: *_refine.json (default) or the original en.json/zh.json.",
    ),
    allow_partial: bool = typer.Option(
        False,
        "--allow-partial-data",
        help="If en_refine.json is missing, use partial/en_head50.json (50 records, unofficial).",
    ),
    passage_num: int = typer.Option(5, "--passage-num", min=0, help="Passages per question."),
    show_prompt: bool = typer.Option(
        False, "--show-prompt", help="Add the chat messages built from the RGB reference prompts."
    ),
    any_noise_rate: bool = typer.Option(
        False, "--any-noise-rate", help="Allow noise rates outside the RGB protocol (warns)."
    ),
) -> None:
    """Print test instances, one JSON object a line: the passages in the order the model sees
    (for a probe also where each passage comes from)."""
    if ability in PROBES and noise_rate:
        raise ConfigError(
            f"--noise-rate: the {ability} probe has no noise rate ({_PROBE_PASSAGES[ability]}); "
            "drop it"
        )
    protocol = DEFAULT_NOISE_RATES.get(ability, (0.0,))
    off = [r for r in noise_rate or () if r not in protocol]
    if off and not any_noise_rate:
        raise ConfigError(
            f"--noise-rate {off[0]:g} is not an RGB protocol rate for {ability} "
            f"({', '.join(f'{r:.1f}' for r in protocol)}); pass --any-noise-rate to build it anyway"
        )
    if off:
        typer.secho(
            f"warning: noise rate(s) {', '.join(f'{r:g}' for r in off)} are outside the RGB "
            f"protocol for {ability}; results at them are not comparable with the paper",
            fg=typer.colors.YELLOW,
            err=True,
        )
    source, items = split_instances(
        data_root(data_dir),
        lang,
        ability,
        rates=noise_rate or DEFAULT_NOISE_RATES.get(ability),
        variant=variant,
        allow_partial=allow_partial,
        limit=limit,
        passage_num=passage_num,
    )
    if not source.complete:
        typer.echo(f"warning: using {source.name}, a partial unofficial stand-in", err=True)
    for inst in items:
        obj: dict[str, object] = {
            "id": inst.id,
            "lang": inst.lang,
            "ability": inst.ability,
            "noise_rate": inst.noise_rate,
            "query": inst.query,
            "answer": inst.answer,
            "docs": list(inst.docs),
            "data_file": source.name,
        }
        if inst.fakeanswer:
            obj["fakeanswer"] = inst.fakeanswer
        if inst.sources:
            obj["sources"] = list(inst.sources)
        if show_prompt:
            obj["messages"] = messages_as_dicts(build_request(inst))
        typer.echo(json.dumps(obj, ensure_ascii=False))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `instances`."""
    app.command("instances")(instances_cmd)

"""`data fetch`, `data status` and `instances`: verified data, and exactly what a model is shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import typer

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import ABILITIES, DEFAULT_NOISE_RATES, LANGS, PROBES
from leaderboard.data.fetch import fetch_files as fetch
from leaderboard.data.manifest import FETCH_COMMAND, FileStatus, data_root, status
from leaderboard.data.splits import split_file_name
from leaderboard.protocol.prompts import build_request, messages_as_dicts
from leaderboard.run.plan import split_instances

_DATA_DIR_HELP = (
    "Folder holding data_en/ and data_zh/ (default: $RGB_DATA_DIR, else the current folder "
    "if it has data_zh/MANIFEST.json, else the repository root)."
)


def _langs(lang: str) -> tuple[str, ...]:
    return LANGS if lang == "all" else (lang,)


def _state(s: FileStatus) -> str:
    if s.verified:
        return "verified" if s.official else "verified (partial, unofficial)"
    return "UNVERIFIED" if s.present else "missing"


def _print_table(rows: list[FileStatus], with_action: bool) -> None:
    header = ["file", "state", "records", "git blob"] + (["action"] if with_action else [])
    lines = [header]
    for s in rows:
        records = f"{s.records}" if s.records is not None else f"({s.expected_records})"
        name = f"data_{s.lang}/{s.name}" + (" [optional]" if s.optional else "")
        line = [name, _state(s), records, (s.blob_id or s.expected_blob_id)[:12]]
        lines.append(line + ([s.action] if with_action else []))
    widths = [max(len(r[i]) for r in lines) for i in range(len(header))]
    for r in lines:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def _print_notes(rows: list[FileStatus]) -> None:
    for s in rows:
        if not s.verified and not s.optional:
            typer.echo(f"note: data_{s.lang}/{s.name} is not available ({s.detail}).")
    if any(s.name in ("en_refine.json", "en_int.json") and not s.verified for s in rows):
        typer.echo(
            f"note: en_refine.json / en_int.json are not in that local copy; `{FETCH_COMMAND}` "
            "with internet access downloads them. Until then run only the available splits "
            "(en noise/rejection can use partial/en_head50.json with --allow-partial)."
        )


def data_fetch(
    source: Path | None = typer.Option(
        None,
        "--from",
        help="Copy from this local folder of the official files instead of downloading.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    lang: Literal["zh", "en", "all"] = typer.Option("all", "--lang", help="Language to fetch."),
    base_url: str | None = typer.Option(
        None,
        "--base-url",
        envvar="RGB_DATA_BASE_URL",
        help="Download from this URL prefix instead of the official raw GitHub URLs (a mirror).",
    ),
    optional: bool = typer.Option(
        True, "--optional/--no-optional", help="Also fetch the optional original en.json/zh.json."
    ),
    progress: bool = typer.Option(
        True, "--progress/--no-progress", help="Show a download progress bar."
    ),
) -> None:
    """Download (or copy with --from) the RGB data files; check each against its official blob id.

    A file whose bytes do not match is refused; nothing half-written is ever left in place.
    """
    root = data_root(data_dir)
    rows = fetch(
        root,
        source=source,
        langs=_langs(lang),
        include_optional=optional,
        progress=progress,
        base_url=base_url,
    )
    typer.echo(f"data root: {root}")
    _print_table(rows, with_action=True)
    _print_notes(rows)


def data_status(
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per file instead."),
) -> None:
    """Show which RGB data files (and so which splits) are present, verified or missing."""
    root = data_root(data_dir)
    rows = status(root)
    if as_json:
        for s in rows:
            typer.echo(json.dumps({**s.__dict__, "state": _state(s)}, ensure_ascii=False))
        return
    typer.echo(f"data root: {root}")
    _print_table(rows, with_action=False)
    verified = {(s.lang, s.name) for s in rows if s.verified}
    typer.echo("splits:")
    for lg in LANGS:
        for ab in ABILITIES:
            name = split_file_name(lg, ab)
            ok = (lg, name) in verified
            extra = ""
            if (
                not ok
                and (lg, "partial/en_head50.json") in verified
                and ab in ("noise", "rejection")
            ):
                extra = " (partial/en_head50.json usable with --allow-partial)"
            typer.echo(f"  {lg} {ab:<14} {name:<16} {'ready' if ok else 'missing'}{extra}")
    _print_notes(rows)


def instances_cmd(
    lang: Literal["zh", "en"] = typer.Option(..., "--lang", help="Language."),
    ability: Literal[
        "noise", "rejection", "integration", "counterfactual", "chain", "replacement"
    ] = typer.Option(
        ...,
        "--ability",
        help="RGB ability, or a probe (chain: BM25 top passages of the question's own pool; "
        "replacement: passages of unrelated questions), built as the runner builds them.",
    ),
    noise_rate: list[float] | None = typer.Option(
        None,
        "--noise-rate",
        help="Noise rate (repeatable); default: the RGB protocol rates for the ability.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=_DATA_DIR_HELP),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N records."),
    variant: Literal["refine", "original"] = typer.Option(
        "refine",
        "--variant",
        help="noise/rejection data: *_refine.json (default) or the original en.json/zh.json.",
    ),
    allow_partial: bool = typer.Option(
        False,
        "--allow-partial",
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
            f"--noise-rate: the {ability} probe has no noise rate (its passages are "
            f"{'ranked by BM25' if ability == 'chain' else 'of unrelated questions'}); drop it"
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
    """Add this module's commands to the CLI."""
    data_app.command("fetch")(data_fetch)
    data_app.command("status")(data_status)
    app.command("instances")(instances_cmd)

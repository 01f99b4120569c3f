"""`data fetch`, `data status` and `data audit`: the RGB files, accepted only byte-identical to
the manifest, and the data problems the scorer's own matching rules find in them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import typer
from rich.table import Table

from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.cli.console import console
from leaderboard.core.errors import DataError
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.data.fetch import fetch_files as fetch
from leaderboard.data.manifest import FETCH_COMMAND, FileStatus, data_root, status
from leaderboard.data.splits import split_file_name
from leaderboard.scoring.audit import audit, data_files


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
            "(en noise/rejection can use partial/en_head50.json with --allow-partial-data)."
        )


def data_fetch(
    source: Path | None = typer.Option(
        None,
        "--from",
        help="Copy from this local folder of the official files instead of downloading.",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
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
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
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
                extra = " (partial/en_head50.json usable with --allow-partial-data)"
            typer.echo(f"  {lg} {ab:<14} {name:<16} {'ready' if ok else 'missing'}{extra}")
    _print_notes(rows)


def audit_cmd(
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
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
    console().print(table)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    data_app.command("fetch")(data_fetch)
    data_app.command("status")(data_status)
    data_app.command("audit")(audit_cmd)

"""`corpus export`: the passage corpus a `system` submission searches, one {"id", "text"} a line,
with its licence notice beside it."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from leaderboard.core.errors import ConfigError
from leaderboard.core.files import atomic_write_text
from leaderboard.core.types import LANGS
from leaderboard.data.manifest import data_root
from leaderboard.protocol.corpus import LICENSE_NOTICE, load_corpus


def corpus_export(
    lang: str = typer.Option(..., "--lang", help="zh or en."),
    out: Path | None = typer.Option(
        None, "--out", help="JSONL file (default corpus-<lang>.jsonl)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="Folder holding data_<lang>/."),
    limit: int | None = typer.Option(
        None, "--limit", min=1, help="Only the passages of the first N records (as run --limit)."
    ),
) -> None:
    """Write the chain probe's passage corpus: one {"id", "text"} per line, ids stable (language +
    sha256 of the text), with the licence notice beside it (<out>.LICENSE.txt)."""
    if lang not in LANGS:
        raise ConfigError(f"--lang {lang!r}: use zh or en")
    source, passages = load_corpus(data_root(data_dir), lang, limit=limit)  # type: ignore[arg-type]
    path = out or Path(f"corpus-{lang}.jsonl")
    lines = [json.dumps({"id": p.id, "text": p.text}, ensure_ascii=False) for p in passages]
    atomic_write_text(path, "\n".join(lines) + "\n")
    notice = f"{LICENSE_NOTICE}\nSource file: {source.name} (git blob {source.file_blob_id}).\n"
    atomic_write_text(path.with_name(path.name + ".LICENSE.txt"), notice)
    flag = "" if source.complete else " (partial file, flagged partial)"
    first = f" (first {limit} records)" if limit else ""
    typer.echo(f"{path}: {len(passages)} passages from {source.name}{first}{flag}")
    typer.echo(LICENSE_NOTICE)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `corpus export`."""
    corpus_app = typer.Typer(help="The passage corpus a `system` submission searches.")
    corpus_app.command("export")(corpus_export)
    app.add_typer(corpus_app, name="corpus")

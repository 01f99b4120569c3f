"""`submissions pin`: a submission's hub branch or tag resolved to a commit and written into its
model.yaml, keeping every comment and line, so a run can be repeated on the same weights."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import typer

from leaderboard.cli.arguments import command_group
from leaderboard.core.errors import ConfigError, LeaderboardError
from leaderboard.core.submission import load_submission

HF_ENDPOINT_ENV = "HF_ENDPOINT"
DEFAULT_HF_ENDPOINT = "https://huggingface.co"


def resolve_revision(
    repo_id: str, revision: str, *, endpoint: str | None = None, timeout: float = 20.0
) -> str:
    """The commit a hub branch or tag points to, from
    `{endpoint}/api/models/{id}/revision/{rev}`."""
    import httpx

    base = (endpoint or os.environ.get(HF_ENDPOINT_ENV) or DEFAULT_HF_ENDPOINT).rstrip("/")
    url = f"{base}/api/models/{repo_id}/revision/{revision}"
    headers = {}
    token = os.environ.get("HF_TOKEN")
    if token:  # read from the environment only; never written anywhere
        headers["Authorization"] = f"Bearer {token}"
    try:
        resp = httpx.get(url, headers=headers, timeout=timeout, follow_redirects=True)
    except httpx.HTTPError as exc:
        raise LeaderboardError(
            f"cannot reach {base} to resolve {repo_id}@{revision} ({type(exc).__name__}: {exc}). "
            "Pinning needs the hub: run it where you are online (or set "
            f"{HF_ENDPOINT_ENV} to a mirror), "
            "or write the 40-hex commit into 'revision' yourself."
        ) from None
    if resp.status_code in (401, 403):
        raise LeaderboardError(
            f"{url}: HTTP {resp.status_code}; the model is gated or private: accept its "
            "licence on the hub and export HF_TOKEN, then retry"
        )
    if resp.status_code == 404:
        raise LeaderboardError(
            f"{url}: HTTP 404; no model {repo_id!r} with revision {revision!r} (check both)"
        )
    if resp.status_code != 200:
        raise LeaderboardError(f"{url}: HTTP {resp.status_code}; retry later")
    try:
        sha = resp.json()["sha"]
    except (ValueError, KeyError, TypeError):
        raise LeaderboardError(
            f"{url}: the answer has no 'sha' field; is {base} a Hugging Face hub API?"
        ) from None
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{40}", sha):
        raise LeaderboardError(f"{url}: 'sha' is {sha!r}, not a 40-hex commit")
    return sha


def write_revision(file: Path, sha: str, note: str) -> None:
    """Replace the `revision:` line (or add one after `model:`), keeping every comment and line."""
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    new = f"revision: {sha}  # {note}\n"
    for i, line in enumerate(lines):
        if re.match(r"^revision\s*:", line):
            lines[i] = new
            break
    else:
        idx = next((i for i, ln in enumerate(lines) if re.match(r"^model\s*:", ln)), len(lines) - 1)
        lines.insert(idx + 1, new)
    tmp = file.with_name(file.name + ".tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    os.replace(tmp, file)


def pin(
    path: Path = typer.Argument(..., help="submissions/<id>/model.yaml (or its folder)."),
    endpoint: str | None = typer.Option(
        None, "--endpoint", help=f"Hub URL (default ${HF_ENDPOINT_ENV} or {DEFAULT_HF_ENDPOINT})."
    ),
) -> None:
    """Resolve the submission's branch/tag revision to a commit on the hub and write
    it into the YAML."""
    sub = load_submission(path)
    file = sub.source_path
    assert file is not None
    if sub.weights is not None or sub.resolve_model().source != "hub":
        raise ConfigError(
            f"{file}: field 'model': {sub.model!r} is not a hub model; local files are "
            "identified by their sha256, there is nothing to pin"
        )
    if sub.revision_pinned:
        typer.echo(f"{file}: already pinned to {sub.revision}")
        return
    rev = sub.revision or "main"
    sha = resolve_revision(sub.model, rev, endpoint=endpoint)
    write_revision(file, sha, f"pinned from '{rev}'")
    load_submission(file)  # the edited file must still validate
    typer.echo(f"{file}: revision {rev} -> {sha}")
    typer.echo(json.dumps({"id": sub.id, "model": sub.model, "from": rev, "revision": sha}))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `submissions pin`."""
    subs = command_group("Manage submission files (pin revisions).")
    subs.command("pin")(pin)
    app.add_typer(subs, name="submissions")

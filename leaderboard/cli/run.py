"""`run`: from a model.yaml to predictions and results.json, resumably."""

from __future__ import annotations

import shlex
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path

import typer

from leaderboard.cli.arguments import DATA_DIR_HELP, comma_list
from leaderboard.core.checkout import PACKAGE_ROOT, git_state, repo_root
from leaderboard.core.entry_folders import conflict_dir, instruction_dir
from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import load_submission
from leaderboard.core.types import ABILITIES, LANGS, PROBES
from leaderboard.data.manifest import data_root
from leaderboard.protocol.conflicts import condition_ids, panel_conditions
from leaderboard.run.distributed import world
from leaderboard.run.dry_run import plan_submission
from leaderboard.run.lock import folder_lock
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection, panel_selection
from leaderboard.run.shard import ShardReport, run_shard
from leaderboard.run.shard_job import ShardSpec, run_shard_job


def parse_noise_rates(value: str | None) -> dict[str, list[float]] | None:
    """ "0,0.4" sets the rates of noise and integration (the abilities whose noise rate varies);
    "noise=0,0.4;integration=0" sets them per ability."""
    if value is None:
        return None

    def floats(text: str) -> list[float]:
        try:
            rates = [float(x) for x in text.split(",") if x.strip()]
        except ValueError:
            raise ConfigError(f"--noise-rates: {text!r} is not a comma list of numbers") from None
        if not rates or any(not 0 <= r <= 1 for r in rates):
            raise ConfigError(f"--noise-rates: {text!r}: give rates between 0 and 1")
        return rates

    if "=" not in value:
        rates = floats(value)
        return {"noise": rates, "integration": [r for r in rates if r <= 0.4] or [0.0]}
    out: dict[str, list[float]] = {}
    for part in value.split(";"):
        if not part.strip():
            continue
        ability, _, text = part.partition("=")
        ability = ability.strip()
        if ability not in ABILITIES:
            raise ConfigError(
                f"--noise-rates: unknown ability {ability!r}; use {', '.join(ABILITIES)}"
            )
        out[ability] = floats(text)
    return out


def run(
    path: Path = typer.Argument(..., help="submissions/<id>/model.yaml (or its folder)."),
    limit: int | None = typer.Option(
        None, "--limit", help="Only the first N records of each split (marked partial)."
    ),
    languages: str | None = typer.Option(
        None, "--languages", help="Comma list, e.g. zh,en (default: the YAML's run plan)."
    ),
    abilities: str | None = typer.Option(
        None,
        "--abilities",
        help="Comma list of noise,rejection,integration,counterfactual and the probes "
        "chain,replacement,closedbook,closedbook_fact.",
    ),
    noise_rates: str | None = typer.Option(
        None, "--noise-rates", help="'0,0.4' (noise+integration) or 'noise=0,0.4;integration=0'."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    out: Path | None = typer.Option(
        None, "--out", help="Output folder (default: the submission folder)."
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Print counts and the first prompt; load no model."
    ),
    allow_partial_data: bool | None = typer.Option(
        None,
        "--allow-partial-data/--no-partial-data",
        help="Use partial stand-in files and skip unavailable splits (default: the YAML's "
        "run plan).",
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Move predictions of other settings aside (never deletes)."
    ),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Generate again the instances that failed before."
    ),
    chunk_size: int | None = typer.Option(
        None, "--chunk-size", min=1, help="Prompts per append (default 4 x batch size)."
    ),
    progress: bool = typer.Option(
        True, "--progress/--no-progress", help="Show a progress bar with throughput and ETA."
    ),
    wait: bool = typer.Option(
        False, "--wait", help="If another run holds the output folder, wait for it to finish."
    ),
    instruction: str | None = typer.Option(
        None,
        "--instruction",
        help="Ask under an alternative instruction of the instruction-sensitivity track "
        "(`rgb-leaderboard instructions list`); its answers go to <entry>/instructions/<id>/, "
        "never into the ranked cells. Default: RGB's own.",
    ),
    panel: bool = typer.Option(
        False,
        "--panel",
        help="The instruction panel: zh/en rejection, noise 0.0 and counterfactual on their "
        "first 100/100/50 records (--limit caps each); --languages/--abilities narrow it.",
    ),
    conflicts: bool = typer.Option(
        False,
        "--conflicts",
        help="The knowledge-conflict track: the fact questions with true and altered passages "
        "side by side, every condition of the instruction's panel (RGB's: all; conflict_aware: "
        "t1f1, f1t1); answers go to <entry>/conflicts/<instruction>/.",
    ),
    conditions: str | None = typer.Option(
        None,
        "--conditions",
        help="With --conflicts: a comma list of conditions (`rgb-leaderboard conflicts list`).",
    ),
    shard: str | None = typer.Option(
        None,
        "--shard",
        help="K/N: generate only shard K (0..N-1) of the prompts the entry is missing, into "
        "--out DIR (a job of its own, no shared disk); then `rgb-leaderboard merge`.",
    ),
    allow_dirty: bool = typer.Option(
        False,
        "--allow-dirty",
        help="Write into submissions/ from a checkout with uncommitted changes (recorded; the "
        "answers are ranked only once `attest` re-generates a sample from a commit).",
    ),
) -> None:
    """Generate, score and write predictions.jsonl + results.json; rerunning resumes
    where it stopped. One run per output folder at a time (a second one is refused, or waits
    with --wait)."""
    sub = load_submission(path)
    root = data_root(data_dir)
    selection = Selection(
        limit=limit,
        languages=comma_list(languages, LANGS, "--languages"),  # type: ignore[arg-type]
        abilities=comma_list(abilities, ABILITIES + PROBES, "--abilities"),  # type: ignore[arg-type]
        noise_rates=parse_noise_rates(noise_rates),  # type: ignore[arg-type]
        allow_partial_data=allow_partial_data,
        instruction=instruction,
    )
    if panel:
        selection = panel_selection(selection)
    if conflicts or conditions is not None:
        if abilities is not None or panel or noise_rates is not None:
            raise ConfigError(
                "--conflicts runs the conflict conditions: leave out --abilities, --panel and "
                "--noise-rates"
            )
        chosen = comma_list(conditions, condition_ids(), "--conditions") or panel_conditions(
            instruction
        )
        selection = replace(selection, conflicts=tuple(chosen))
    command = "rgb-leaderboard " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    options = RunOptions(
        root=root,
        selection=selection,
        out_dir=out,
        overwrite=overwrite,
        retry_errors=retry_errors,
        chunk_size=chunk_size,
        progress=progress,
        command=command,
    )
    if dry_run:
        typer.echo(plan_submission(sub, options).render())
        return
    folder = out or sub.source_path.parent  # type: ignore[union-attr]
    refusal = dirty_refusal(folder, allow_dirty)
    if refusal:
        raise ConfigError(refusal)
    # several processes (`accelerate launch`, torchrun): each runs its share, rank 0 the rest
    entry = run_shard if world()[1] > 1 else run_submission
    if shard is not None:
        spec = ShardSpec.parse(shard)
        if world()[1] > 1:
            raise ConfigError("--shard is one job's part: start it as one process, not a launch")
        entry = partial(run_shard_job, spec=spec)
    folder = out or sub.source_path.parent  # type: ignore[union-attr]
    if out is None and selection.conflicts is not None:
        folder = conflict_dir(folder, selection.instruction)
    elif out is None and selection.instruction is not None:
        folder = instruction_dir(folder, selection.instruction)
    try:
        with folder_lock(folder, command, wait=wait, dry_run=False), _sigterm_interrupts():
            result = entry(sub, options)
    except KeyboardInterrupt as exc:
        typer.echo(
            f"interrupted: the answers written so far are kept in {folder}; "
            "rerun the same command to resume",
            err=True,
        )
        # the shell's convention: 128 + the signal's number (SIGTERM 15, Ctrl-C's SIGINT 2)
        raise typer.Exit(128 + (signal.SIGTERM if exc.args == (SIGTERM_NOTE,) else 2)) from None
    if isinstance(result, ShardReport):
        typer.echo(result.render())
        return
    typer.echo(f"results: {folder / 'results.json'}")
    note = server_note(result.provenance.extra.get("backend"))
    if note:
        typer.echo(note)
    for s in result.scores:
        if s.metric == "score" and s.value is not None:
            ci = f" [{s.ci[0]:.3f}, {s.ci[1]:.3f}]" if s.ci else ""
            flag = "" if s.complete else " (partial)"
            typer.echo(
                f"  {s.lang:<6}{s.mode:<7}{s.ability:<15}{s.value:.3f}{ci}  n={s.n_questions}{flag}"
            )
    if result.partial:
        typer.echo(
            f"partial results: {len(result.partial_reasons)} reason(s), first: "
            f"{result.partial_reasons[0]}"
        )


def server_note(backend: object) -> str | None:
    """One line on what a server's faults cost this run (an HTTP backend's recorded stats:
    retries by cause, requests that failed every attempt), None when it had none."""
    stats = backend.get("stats") if isinstance(backend, dict) else None
    if not isinstance(stats, dict):
        return None
    after = stats.get("retried_after") or {}
    failures = int(stats.get("failures") or 0)
    if not after and not failures:
        return None
    what = ", ".join(f"{reason} x{n}" for reason, n in after.items()) if after else "none"
    tail = (
        f"; {failures} request(s) failed every attempt and are recorded as errors (rerun with "
        "--retry-errors to ask again)"
        if failures
        else "; every answer arrived"
    )
    return f"note: server retries {sum(after.values())} ({what}){tail}"


SIGTERM_NOTE = "SIGTERM"


def dirty_refusal(folder: Path, allow_dirty: bool, where: Path = PACKAGE_ROOT) -> str | None:
    """The one line that stops a run writing into the board's submissions/ from code outside any
    commit (`where`: the checkout holding the code), or None: the tree is clean, the output is
    elsewhere, or --allow-dirty was given (the invocation then records it)."""
    top = repo_root(where)
    if allow_dirty or top is None:
        return None
    try:
        rel = Path(folder).resolve().relative_to(top.resolve())
    except ValueError:
        return None
    if not rel.parts or rel.parts[0] != "submissions":
        return None
    _, dirty = git_state(where, ignore=Path(folder))
    if not dirty:
        return None
    return (
        f"{folder}: the checkout has uncommitted changes (`git status`), and answers from code "
        "outside any commit are not ranked until attested; commit first, or pass --allow-dirty"
    )


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM (a scheduler's stop, `timeout`, `kill`) raises KeyboardInterrupt while a run is in
    progress, like Ctrl-C: the runner then records the interrupted invocation in results.json
    instead of dying with its answers on disk and no record of the machine that wrote them.
    Only in the main thread (signals cannot be set elsewhere); the old handler comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(SIGTERM_NOTE)

    old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("run")(run)

"""What a run records about itself: results.json's provenance block (`build_provenance`, from one
`RunFacts`: the one place it is built), with the checkout the code came from (`git_state`) and
paths written relative to the repository, so a record does not carry one machine's folder layout.
The fingerprint is `run.fingerprint`'s, the invocation history `run.invocations`'.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from leaderboard import __version__
from leaderboard.backends.base import Backend, BackendDescription
from leaderboard.backends.environment import device_name
from leaderboard.core.schema import PredictionRecord, Provenance, Results
from leaderboard.core.submission import Submission
from leaderboard.core.versions import versions
from leaderboard.run.fingerprint import fingerprint_inputs, jsonable, resolved_revision
from leaderboard.run.invocations import HISTORY_KEY, invocation_history, llama_build, peak_memory
from leaderboard.stats.version import scoring_version

if TYPE_CHECKING:  # generate.py imports this module: the counters' type only
    from leaderboard.run.generate import GenStats

DATA_CHOICES = "data_choices"  # provenance.extra: the run's allow_partial_data and limit
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def git_state(
    where: Path = PACKAGE_ROOT, ignore: Path | None = None
) -> tuple[str | None, bool | None]:
    """(HEAD commit, dirty) of the checkout holding the package; (None, None) outside git.

    `ignore` is the run's own output folder: its predictions and results are tracked files that
    the run itself changes, so they do not make the code that produced them "dirty".
    """
    spec: list[str] = []
    top = repo_root(where) if ignore is not None else None  # one git call only when needed
    if top is not None:
        try:
            rel = Path(ignore).resolve().relative_to(top.resolve())
        except ValueError:
            rel = None  # the output lies outside this checkout: nothing to leave out
        if rel is not None and rel.parts:
            spec = ["--", ".", f":(exclude){rel.as_posix()}"]
    try:
        head = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            [
                "git",
                "-C",
                str(top or where),
                "status",
                "--porcelain",
                "--untracked-files=no",
                *spec,
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    return head or None, bool(status.strip())


@lru_cache(maxsize=8)
def repo_root(where: Path | None = None) -> Path | None:
    """The git checkout holding `where` (default: the current folder), None outside git."""
    try:
        top = subprocess.run(
            ["git", "-C", str(where or Path.cwd()), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(top) if top else None


def repo_relative(text: str, roots: tuple[Path | None, ...] | None = None) -> str:
    """`text` (a command line, a message) with the absolute paths of the repository written
    relative to it: provenance must not record the folder layout of the machine it ran on.

    The roots are the checkout of the current folder, the one holding the package (usually the
    same) and the folder above any `.../submissions/<id>` path in the text (a run started from
    another checkout, e.g. a clean worktree, on this repository's submission); a path equal to a
    root becomes ".".
    """
    if roots is None:
        roots = (repo_root(), repo_root(PACKAGE_ROOT), *recorded_roots(text))
    for root in sorted({str(r) for r in roots if r is not None}, key=len, reverse=True):
        if root in ("", "/"):
            continue
        text = re.sub(
            re.escape(root) + r"(/|(?=[\s'\"]|$))", lambda m: "" if m.group(1) else ".", text
        )
    return text


_SUBMISSION_PATH = re.compile(r"(/[^\s'\"]*?)/submissions/[^/\s'\"]+")


def recorded_roots(text: str) -> tuple[Path, ...]:
    """Repository roots a recorded command names implicitly: the folder above any absolute
    `.../submissions/<id>` path (how a command written on another machine is made relative)."""
    return tuple(sorted({Path(m.group(1)) for m in _SUBMISSION_PATH.finditer(text)}))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


# ---------------------------------------------------------------- the provenance block


@dataclass(frozen=True)
class RunFacts:
    """What a results.json provenance block is built from, gathered by `run.assemble`: the
    submission and its fingerprint, the predictions the results hold and the data files they
    came from (file name -> blob id), the splits skipped, the data choices `verify` rebuilds
    with, the probes' construction, this invocation's counters and times, and the backend that
    generated (None: what `previous`, the earlier results.json, recorded)."""

    sub: Submission
    fingerprint: str
    records: Sequence[PredictionRecord]
    data_files: Mapping[str, str]
    skipped: Sequence[str]
    data_choices: Mapping[str, object]
    probes: Mapping[str, object]
    stats: GenStats
    backend: Backend | None
    previous: Results | None
    started: str
    wall_s: float
    command: str | None
    bootstrap_seed: int
    data_parallel: Mapping[str, object] | None = None
    out_dir: Path | None = None


@dataclass(frozen=True)
class _Described:
    """The backend's description as results.json stores it (`stored`, under extra.backend) and
    the named fields the provenance copies, typed."""

    stored: dict[str, object]
    chat_template_sha256: str | None = None
    chat_template_source: str | None = None
    device: str | None = None
    batch_size: int | str | None = None
    model_revision: str | None = None


def _described(backend: Backend | None, previous: Results | None) -> _Described:
    """The backend's own description; with no backend, what the run that generated recorded."""
    if backend is not None:
        d: BackendDescription = backend.describe()
        stored = jsonable(d.as_dict())
        return _Described(
            stored if isinstance(stored, dict) else {},
            d.chat_template_sha256,
            d.chat_template_source,
            d.device,
            d.batch_size,
            d.model_revision,
        )
    if previous is None:
        return _Described({})
    p = previous.provenance  # nothing generated: keep what the run that generated recorded
    named = (p.chat_template_sha256, p.chat_template_source, p.device, p.batch_size)
    stored: dict[str, object] = {
        "chat_template_sha256": named[0],
        "chat_template_source": named[1],
        "device": named[2],
        "batch_size": named[3],
        "model_revision": p.model_revision,
        "described_by_previous_run": True,
    }
    return _Described(stored, *named, p.model_revision)


def _invocation_extra(stats: GenStats, wall_s: float) -> dict[str, object]:
    """What this invocation did (a resumed run's results cover more than it generated)."""
    return {
        "generated_prompts": stats.generated,
        "recorded": stats.recorded,
        "reused_identical_prompts": stats.reused,
        "errors": stats.errors,
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "overhead_share": round(1 - stats.model_time_s / wall_s, 4) if wall_s > 0 else None,
    }


def build_provenance(facts: RunFacts) -> Provenance:
    """results.json's provenance: the code, data, model and settings that produced the numbers,
    and the invocations that wrote the answers."""
    sub, stats, records = facts.sub, facts.stats, facts.records
    info = _described(facts.backend, facts.previous)
    commit, dirty = git_state(ignore=facts.out_dir)
    finished = now_iso()
    device = str(info.device or device_name())
    current = (
        {
            "started": facts.started,
            "finished": finished,
            "git_commit": commit,
            # per invocation, since a resumed entry mixes them (trust.attest): a dirty one's
            # answers count once attested; `--allow-dirty` says the run was told to go ahead
            "git_dirty": dirty,
            **({"allow_dirty": True} if dirty and "--allow-dirty" in (facts.command or "") else {}),
            "device": device,
            "build": llama_build(info.stored),
            "generated": stats.generated,
            "answers": stats.recorded,
            **peak_memory(),
        }
        if stats.recorded > 0
        else None
    )
    previous = facts.previous.provenance.model_dump() if facts.previous is not None else None
    history = invocation_history(previous, current, [r.created for r in records])
    tps = (
        (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
        if stats.model_time_s > 0
        else None
    )
    generation = jsonable(sub.generation.model_dump())
    return Provenance(
        package_version=__version__,
        git_commit=commit,
        git_dirty=dirty,
        command=repo_relative(facts.command or " ".join(sys.argv)),
        data_blob_ids=dict(facts.data_files),
        model=sub.model,
        model_revision=str(info.model_revision or resolved_revision(sub) or "") or None,
        backend=sub.backend,
        dtype=sub.dtype,
        quantization=sub.quantization.describe(),
        chat_template_sha256=info.chat_template_sha256,
        chat_template_source=info.chat_template_source,
        generation=generation if isinstance(generation, dict) else {},
        seeds={"generation": sub.generation.seed, "bootstrap": facts.bootstrap_seed},
        batch_size=info.batch_size or sub.batch_size,
        fingerprint=facts.fingerprint,
        versions=versions(),
        device=device,
        started=facts.started,
        finished=finished,
        wall_time_s=round(facts.wall_s, 3),
        generation_time_s=round(stats.model_time_s, 3),
        prompt_tokens=sum(r.prompt_tokens or 0 for r in records),
        completion_tokens=sum(r.completion_tokens or 0 for r in records),
        tokens_per_s=round(tps, 2) if tps is not None else None,
        scoring_version=scoring_version(),
        extra={
            "hub_id": sub.hub_id,
            "revision_pinned": sub.revision_pinned,
            "fingerprint_inputs": jsonable(fingerprint_inputs(sub)),
            "this_invocation": _invocation_extra(stats, facts.wall_s),
            # every invocation that generated answers, and on which machine (a resumed run)
            HISTORY_KEY: history,
            "predictions_in_results": len(records),
            "sum_latency_s": round(sum(r.latency_s or 0.0 for r in records), 3),
            "skipped_splits": list(facts.skipped),
            # what `verify` rebuilds the instances with, whatever the command line said
            DATA_CHOICES: dict(facts.data_choices),
            "backend": info.stored,
            **facts.probes,
            **(
                {"data_parallel": dict(facts.data_parallel)}
                if facts.data_parallel is not None
                else {}
            ),
        },
    )

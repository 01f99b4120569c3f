"""What a run records about itself: the fingerprint that guards resume, and the provenance block
(`build_provenance`, from one `RunFacts`: the one place results.json's provenance is built).

The fingerprint is computed from the submission alone (no model load), so a dry run, a resume check
and a refusal to mix settings all happen before minutes of loading. It covers everything that
changes model outputs: the weights' identity (a local file's sha256, or hub id + revision), dtype,
quantization, chat template, system-prompt handling, generation config, input budget and truncation,
the prompt texts and the instance-building parameters. It leaves out what only changes speed
(batch size, device map, concurrency); the batch size is recorded per prediction instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from leaderboard import __version__
from leaderboard.backends.base import Backend, BackendDescription
from leaderboard.backends.environment import device_name
from leaderboard.backends.registry import backend_traits
from leaderboard.core.schema import PredictionRecord, Provenance, Results
from leaderboard.core.submission import Submission
from leaderboard.core.versions import versions
from leaderboard.core.weights import file_sha256
from leaderboard.stats.version import scoring_version

if TYPE_CHECKING:  # generate.py imports this module: the counters' type only
    from leaderboard.run.generate import GenStats

FINGERPRINT_VERSION = 1
DATA_CHOICES = "data_choices"  # provenance.extra: the run's allow_partial_data and limit
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _local_dir_identity(folder: Path) -> dict[str, object]:
    """A checkpoint folder: config/tokenizer files by content, weight shards by name and size
    (hashing tens of GB of shards on every run would cost minutes)."""
    small, shards = {}, {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        if p.suffix in {".json", ".jinja", ".model", ".txt", ".py", ".tiktoken"}:
            small[rel] = file_sha256(p)
        elif p.suffix in {".safetensors", ".bin", ".gguf", ".pt"}:
            shards[rel] = p.stat().st_size
    return {"folder_files_sha256": small, "weight_files_bytes": shards}


def model_identity(sub: Submission, read_weights: bool = True) -> dict[str, object]:
    """Identity of the weights without loading them. A local .gguf that declares no sha256 is
    hashed whole (minutes for GBs), unless `read_weights` is False (a dry run): its sha256 is
    then None."""
    if backend_traits(sub.backend).named_by_server:
        served = sub.openai.model if sub.openai and sub.openai.model else sub.model
        return {"served_model": served, "revision": sub.revision}
    if sub.weights is not None:  # joined from parts: the declared hash, no weights needed
        return {"gguf_file": sub.weights.file, "sha256": sub.weights.sha256}
    if sub.sha256 is not None:  # one declared file (checked when it loads): no weights needed
        return {"gguf_file": PurePosixPath(sub.model).name, "sha256": sub.sha256}
    resolved = sub.resolve_model()
    if resolved.source == "hub":
        return {
            "hub_id": resolved.path_or_id,
            "gguf_file": resolved.gguf_file,
            "revision": sub.revision or "main",
        }
    folder = Path(resolved.path_or_id)
    if resolved.gguf_file:
        digest = file_sha256(folder / resolved.gguf_file) if read_weights else None
        return {"gguf_file": resolved.gguf_file, "sha256": digest}
    return _local_dir_identity(folder)


def resolved_revision(sub: Submission) -> str | None:
    """What `model_revision` in the provenance says: a commit, or the local file's sha256."""
    ident = model_identity(sub)
    if "sha256" in ident:
        return f"sha256:{ident['sha256']}"
    return sub.revision


def prompts_sha256() -> str:
    """Hash of the packaged prompt texts (instruction.yaml).

    Code that assembles prompts is not hashed: a refactor must not invalidate a long resumable run.
    Any change that does alter a prompt is caught per instance instead, by comparing the stored
    prompt_sha256 with the one rebuilt now (see runner).
    """
    p = PACKAGE_ROOT / "protocol" / "resources" / "instruction.yaml"
    return hashlib.sha256(p.read_bytes() if p.exists() else b"<absent>").hexdigest()


def fingerprint_inputs(sub: Submission, read_weights: bool = True) -> dict[str, object]:
    template = sub.resolve_chat_template()
    return {
        "fingerprint_version": FINGERPRINT_VERSION,
        "backend": sub.backend,
        "model": model_identity(sub, read_weights),
        "dtype": sub.dtype,
        "quantization": sub.quantization.describe(),
        "chat_template": sub.chat_template if template is None else sha256_text(template),
        "system_prompt": sub.system_prompt,
        "generation": dataclasses.asdict(sub.generation.to_config()),
        "max_input_tokens": sub.max_input_tokens,
        "truncation": sub.truncation,
        "prompts_sha256": prompts_sha256(),
        "passage_num": sub.run.passage_num,
        "variant": sub.run.variant,
        # the key keeps the scripted backend's former name, and empty `rules` are left out (they
        # came later), so existing fingerprints stay valid
        "fake": _scripted_inputs(sub),
        **backend_traits(sub.backend).fingerprint,
    }


def _scripted_inputs(sub: Submission) -> dict[str, object] | None:
    if sub.scripted is None:
        return None
    return sub.scripted.model_dump(exclude=None if sub.scripted.rules else {"rules"})


def fingerprint(sub: Submission) -> str:
    """sha256 (first 16 hex) of the canonical JSON of `fingerprint_inputs`."""
    canon = json.dumps(fingerprint_inputs(sub), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def dry_run_fingerprint(sub: Submission, recorded: Results | None) -> str:
    """The fingerprint a dry run shows, reading no weights: the real one when the identity
    needs no hash; else the one results.json records when its inputs equal this model.yaml's
    in everything but the weights' hash (the weights are taken to be the same file); else a
    note saying why it is not known (a run hashes the weights first)."""
    light = jsonable(fingerprint_inputs(sub, read_weights=False))
    model = light.get("model") if isinstance(light, dict) else None
    if not (isinstance(model, dict) and "sha256" in model and model["sha256"] is None):
        return fingerprint(sub)
    if recorded is not None:
        inputs = recorded.provenance.extra.get("fingerprint_inputs")
        if isinstance(inputs, dict) and _without_weights_hash(inputs) == _without_weights_hash(
            light  # type: ignore[arg-type]
        ):
            return recorded.provenance.fingerprint
    return (
        f"(not computed: {model.get('gguf_file')} declares no sha256 and a dry run reads no "
        "weights; set `sha256:` in model.yaml)"
    )


def _without_weights_hash(inputs: dict[str, object]) -> dict[str, object]:
    model = inputs.get("model")
    if isinstance(model, dict):
        return {**inputs, "model": {k: v for k, v in model.items() if k != "sha256"}}
    return inputs


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


def jsonable(obj: object) -> object:
    """Round-trip through JSON so backend descriptions with odd types fit the schema."""
    return json.loads(json.dumps(obj, default=str))


# ---------------------------------------------------------------- where the answers were generated

HISTORY_KEY = "invocations"


def llama_build(info: dict[str, object]) -> str | None:
    """The CPU features llama.cpp was built with (its system info), from a backend description;
    None for other backends. Two builds of one library can round a float differently and so change
    a greedy answer: a run resumed on another build must say so."""
    lc = info.get("llamacpp")
    build = lc.get("system_info") if isinstance(lc, dict) else None
    return str(build).strip() if build else None


def peak_memory() -> dict[str, float]:
    """This process's peak memory so far, in MiB, for the invocation's record (what a submitter
    plans a machine by): `peak_rss_mib` (resident set, from getrusage: weights, KV cache and
    buffers of an in-process engine) and, when torch used a GPU, `peak_gpu_mib` (torch's peak
    allocation). Empty where the platform has no getrusage."""
    out: dict[str, float] = {}
    try:
        import resource
    except ImportError:  # not on Windows
        return out
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    out["peak_rss_mib"] = round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
    torch = sys.modules.get("torch")  # only when a backend loaded it: no import for a server run
    cuda = getattr(torch, "cuda", None)
    if cuda is not None and cuda.is_available() and cuda.is_initialized():
        out["peak_gpu_mib"] = round(
            sum(cuda.max_memory_allocated(i) for i in range(cuda.device_count())) / 2**20, 1
        )
    return out


def invocation_history(
    previous: dict[str, object] | None,
    current: dict[str, object] | None,
    created: list[str],
) -> list[dict[str, object]]:
    """Every invocation that wrote answers of this entry, oldest first, each with its machine and
    how many answers it wrote (`answers`, counted when it ran: exact, unlike timestamps to the
    second).

    `previous` is the earlier results.json's provenance (as a dict); its own history is kept as
    recorded. A results.json written before histories were recorded seeds one entry from its last
    invocation, covering every answer created up to its end (`created`: the predictions' ISO
    timestamps) and marked `seeded`: earlier invocations did not record their machine, so the
    entry says which machine the last one ran on and no more. `current` is this invocation (None
    when it wrote nothing: a rescore, a verify, a run with every answer already there).
    """
    history: list[dict[str, object]] = []
    # answers that existed before this invocation (timestamps are to the second: one written in
    # the second the previous run finished is this invocation's, not the seeded entry's)
    written = current.get("answers") if current else 0
    earlier = len(created) - (written if isinstance(written, int) else 0)
    if previous is not None:
        extra = previous.get("extra")
        extra = extra if isinstance(extra, dict) else {}
        recorded = extra.get(HISTORY_KEY)
        finished = str(previous.get("finished") or "")
        if isinstance(recorded, list):
            history = [dict(h) for h in recorded if isinstance(h, dict)]
        elif earlier > 0 and any(c <= finished for c in created):
            backend = extra.get("backend")
            backend = backend if isinstance(backend, dict) else {}
            history = [
                {
                    "started": min(created),
                    "finished": finished,
                    "git_commit": previous.get("git_commit"),
                    "device": str(backend.get("device") or previous.get("device") or ""),
                    "build": llama_build(backend),
                    "answers": min(sum(c <= finished for c in created), earlier),
                    "seeded": True,
                }
            ]
    if current is not None:
        history.append(dict(current))
    return history


def machines(history: list[dict[str, object]]) -> list[tuple[str, str | None, int]]:
    """(device, build, answers) per distinct machine of a history, in order of first use."""
    out: dict[tuple[str, str | None], int] = {}
    for h in history:
        key = (str(h.get("device") or ""), h.get("build") if h.get("build") else None)
        out[key] = out.get(key, 0) + int(h.get("answers") or 0)  # type: ignore[call-overload]
    return [(d, b, n) for (d, b), n in out.items()]


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

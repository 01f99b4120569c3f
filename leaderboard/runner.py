"""One submission from YAML to results.json: instances, generation with resume, scoring, provenance.

The runner owns the order of work and the files; everything model-specific is behind the Backend
seam. Generation is resumable at instance granularity: predictions are appended (and fsynced) after
every chunk, and a rerun of the same command skips every key already on disk under the same
fingerprint, so the results always come from ALL matching predictions on disk (within the plan).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard import __version__
from leaderboard import provenance as prov
from leaderboard.backends import Backend
from leaderboard.backends.environment import device_name
from leaderboard.config import Submission, submission_dir
from leaderboard.errors import ConfigError, DataError, ResultsError
from leaderboard.results import (
    PredictionWriter,
    compact_predictions,
    move_aside,
    predictions_paths,
    read_predictions_detailed,
    read_results,
    write_results,
)
from leaderboard.schema import PredictionRecord, Provenance, Results
from leaderboard.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    Ability,
    ChatRequest,
    Completion,
    Lang,
    TestInstance,
)

BOOTSTRAP_SEED = 2333
CHUNK_FACTOR = 4  # unique prompts per append = CHUNK_FACTOR x batch size
AUTO_BATCH_GUESS = 8  # chunking guess when batch_size is "auto" (the backend picks the real size)


@dataclass(frozen=True)
class WorkItem:
    """One instance with the request it becomes and the hashes that identify that request."""

    instance: TestInstance
    request: ChatRequest
    prompt_sha256: str
    passage_sha256: tuple[str, ...]


@dataclass(frozen=True)
class PlannedSplit:
    lang: Lang
    ability: Ability
    source: object  # data.SplitSource
    items: tuple[WorkItem, ...]


@dataclass
class Plan:
    splits: list[PlannedSplit]
    skipped: list[str]  # splits left out because their data is not available (with allow_partial)
    partial_reasons: list[str]
    items: list[WorkItem] = field(default_factory=list)


@dataclass(frozen=True)
class DryRunReport:
    """What `run --dry-run` prints: counts per split, what resume will skip, and the
    first prompt."""

    submission_id: str
    fingerprint: str
    out_dir: Path
    splits: list[tuple[str, str, str, bool, int, int]]  # lang, ability, file, complete, n, done
    skipped: list[str]
    partial_reasons: list[str]
    total: int
    done: int
    to_generate: int  # unique prompts still to generate
    first_request: ChatRequest | None

    def render(self) -> str:
        lines = [
            f"submission {self.submission_id}  fingerprint {self.fingerprint}",
            f"output folder {self.out_dir}",
            f"{'split':<24}{'data file':<26}{'instances':>10}{'on disk':>9}",
        ]
        for lang, ability, name, complete, n, done in self.splits:
            flag = "" if complete else "  (partial file)"
            lines.append(f"{lang + '/' + ability:<24}{name:<26}{n:>10}{done:>9}{flag}")
        lines.append(
            f"total {self.total} instances, {self.done} already predicted, "
            f"{self.to_generate} unique prompts to generate"
        )
        lines += [f"skipped: {s}" for s in self.skipped]
        lines += [f"partial: {r}" for r in self.partial_reasons]
        if self.first_request is not None:
            lines.append("--- first prompt ---")
            for m in self.first_request.messages:
                lines.append(f"[{m.role}]")
                lines.append(m.content)
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------ plan


def _effective_rates(
    sub: Submission, noise_rates: dict[Ability, Sequence[float]] | None
) -> dict[Ability, list[float]]:
    rates = {a: list(r) for a, r in sub.run.noise_rates.items()}
    for ability, values in (noise_rates or {}).items():
        rates[ability] = sorted({float(v) for v in values})
    return rates


def _split_missing(root: Path, lang: Lang, ability: Ability, variant: str) -> bool:
    from leaderboard.data import lang_dir, split_file_name

    return not (lang_dir(root, lang) / split_file_name(lang, ability, variant)).exists()


def build_plan(
    sub: Submission,
    root: Path,
    *,
    limit: int | None = None,
    languages: Sequence[Lang] | None = None,
    abilities: Sequence[Ability] | None = None,
    noise_rates: dict[Ability, Sequence[float]] | None = None,
    allow_partial_data: bool | None = None,
) -> Plan:
    """Instances and requests for the run, plus why the results will be partial (if they are)."""
    from leaderboard.instances import build_instances
    from leaderboard.prompts import build_request, passage_sha256, prompt_sha256

    langs = list(languages or sub.run.languages)
    abls = list(abilities or sub.run.abilities)
    rates = _effective_rates(sub, noise_rates)
    allow = sub.run.allow_partial_data if allow_partial_data is None else allow_partial_data
    reasons: list[str] = []
    if limit is not None:
        reasons.append(f"--limit {limit}: only the first {limit} records of each split")
    if set(langs) != set(LANGS):
        reasons.append(f"languages limited to {', '.join(langs)}")
    if set(abls) != set(ABILITIES):
        reasons.append(f"abilities limited to {', '.join(abls)}")
    for a in abls:
        if tuple(rates[a]) != tuple(DEFAULT_NOISE_RATES[a]):
            reasons.append(f"{a}: noise rates {rates[a]} instead of {list(DEFAULT_NOISE_RATES[a])}")
    plan = Plan(splits=[], skipped=[], partial_reasons=reasons)
    for lang in langs:
        for ability in abls:
            try:
                source, instances = build_instances(
                    root,
                    lang,
                    ability,
                    noise_rates=rates[ability],
                    variant=sub.run.variant,
                    allow_partial=allow,
                    limit=limit,
                    passage_num=sub.run.passage_num,
                )
            except DataError as exc:
                if allow and _split_missing(root, lang, ability, sub.run.variant):
                    plan.skipped.append(f"{lang}/{ability}: data not available ({exc})")
                    reasons.append(f"{lang}/{ability}: not run, data file not available")
                    continue
                raise
            if not source.complete:
                reasons.append(
                    f"{lang}/{ability}: partial data file {source.name} "
                    f"(stands in for the official split of {source.expected_n} records)"
                )
            items = []
            for inst in instances:
                req = build_request(inst)
                items.append(
                    WorkItem(
                        inst, req, prompt_sha256(req), tuple(passage_sha256(d) for d in inst.docs)
                    )
                )
            plan.splits.append(PlannedSplit(lang, ability, source, tuple(items)))
            plan.items.extend(items)
    if not plan.items:
        raise ConfigError(
            f"{sub.source_path or sub.id}: the run plan selects no instances "
            f"(languages {langs}, abilities {abls}); check --languages/--abilities and the data "
            "(`rgb-leaderboard data status`)."
        )
    return plan


# ---------------------------------------------------------------------------------------- resume


def load_existing(
    out_dir: Path,
    fingerprint: str,
    *,
    overwrite: bool = False,
    dry_run: bool = False,
    progress: bool = True,
) -> dict[str, PredictionRecord]:
    """Predictions already on disk for this fingerprint, by key. Another fingerprint -> refuse."""
    gz_path, plain_path = predictions_paths(out_dir)
    read = read_predictions_detailed(out_dir)
    for where in read.truncated_tail:
        _say(
            progress,
            f"note: {where}: dropped a cut-off last line (interrupted write); it is regenerated",
        )
    others = sorted({r.fingerprint for r in read.records} - {fingerprint})
    if others:
        if not overwrite:
            raise ResultsError(
                f"{out_dir}: the predictions there were made with different settings (fingerprint "
                f"{', '.join(others)}; this run is {fingerprint}). Predictions of "
                "different settings are "
                "never mixed. Use a new output folder (--out DIR), or pass "
                "--overwrite to move the old "
                "files aside (renamed *.superseded-TIME, nothing is deleted)."
            )
        if dry_run:  # report what a real --overwrite run would do, move nothing
            _say(
                progress,
                f"--overwrite would move aside predictions of fingerprint {', '.join(others)}",
            )
            return {}
        stamp = time.strftime("%Y%m%dT%H%M%S")
        moved = move_aside([gz_path, plain_path, out_dir / "results.json"], stamp)
        _say(progress, "moved aside: " + ", ".join(str(m) for m in moved))
        return {}
    return {r.key: r for r in read.records}


def _check_prompts(
    items: Sequence[WorkItem], existing: dict[str, PredictionRecord], out_dir: Path
) -> None:
    stale = [
        it.instance.key
        for it in items
        if it.instance.key in existing
        and existing[it.instance.key].prompt_sha256 != it.prompt_sha256
    ]
    if stale:
        raise ResultsError(
            f"{out_dir}: {len(stale)} stored predictions were made from a different "
            "prompt than the one "
            f"built now (first: {stale[0]}); the data or the prompt code changed. Use a new output "
            "folder (--out DIR) or --overwrite (moves the old files aside)."
        )


def _record(
    item: WorkItem, c: Completion, fingerprint: str, batch_size: int | None
) -> PredictionRecord:
    inst = item.instance
    return PredictionRecord(
        key=inst.key,
        fingerprint=fingerprint,
        lang=inst.lang,
        ability=inst.ability,
        noise_rate=inst.noise_rate,
        id=inst.id,
        prompt_sha256=item.prompt_sha256,
        passage_sha256=list(item.passage_sha256),
        prediction=c.text if c.error is None else (c.text or ""),
        error=c.error,
        prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens,
        latency_s=c.latency_s,
        batch_size=batch_size,
        created=prov.now_iso(),
    )


def _copy_for(item: WorkItem, rec: PredictionRecord) -> PredictionRecord:
    """Reuse the answer to an identical prompt under another key (generated once,
    recorded for all)."""
    inst = item.instance
    return rec.model_copy(
        update={
            "key": inst.key,
            "lang": inst.lang,
            "ability": inst.ability,
            "noise_rate": inst.noise_rate,
            "id": inst.id,
            "passage_sha256": list(item.passage_sha256),
            "created": prov.now_iso(),
        }
    )


# ------------------------------------------------------------------------------------ generation


@dataclass
class GenStats:
    generated: int = 0  # unique prompts sent to the model in this invocation
    recorded: int = 0  # prediction lines written in this invocation
    reused: int = 0  # keys answered from an identical prompt already on disk
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_time_s: float = 0.0  # time inside backend.generate


def _say(enabled: bool, msg: str) -> None:
    if enabled:
        print(msg, file=sys.stderr, flush=True)


def _progress_bar(total: int, enabled: bool):
    if not enabled or total == 0:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="prompt", desc="generating", file=sys.stderr, dynamic_ncols=True)


def generate_pending(
    backend: Backend,
    sub: Submission,
    pending: list[tuple[WorkItem, list[WorkItem]]],
    writer: PredictionWriter,
    fingerprint: str,
    *,
    chunk_size: int,
    progress: bool,
    stats: GenStats,
) -> None:
    """Generate each unique prompt once, longest first, appending after every chunk."""
    config = sub.generation.to_config()
    declared_bs = sub.batch_size if isinstance(sub.batch_size, int) else None
    bar = _progress_bar(len(pending), progress)
    try:
        for start in range(0, len(pending), chunk_size):
            chunk = pending[start : start + chunk_size]
            t0 = time.perf_counter()
            completions = backend.generate([lead.request for lead, _ in chunk], config)
            stats.model_time_s += time.perf_counter() - t0
            if len(completions) != len(chunk):
                raise ResultsError(
                    f"backend {sub.backend} returned {len(completions)} completions "
                    f"for {len(chunk)} "
                    "requests (the Backend contract is exactly one per request); "
                    "nothing of this chunk "
                    "was recorded. This is a backend bug: report it."
                )
            records = []
            for (_, group), c in zip(chunk, completions, strict=True):
                bs = c.extra.get("batch_size", declared_bs) if c.extra else declared_bs
                for item in group:
                    records.append(
                        _record(item, c, fingerprint, bs if isinstance(bs, int) else None)
                    )
                stats.generated += 1
                stats.errors += c.error is not None
                stats.prompt_tokens += c.prompt_tokens or 0
                stats.completion_tokens += c.completion_tokens or 0
            stats.recorded += writer.append(records)
            if bar is not None:
                bar.update(len(chunk))
                if stats.model_time_s > 0:
                    tps = (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
                    bar.set_postfix(tok_s=f"{tps:.0f}", errors=stats.errors)
    finally:
        if bar is not None:
            bar.close()


def group_pending(
    items: Sequence[WorkItem], existing: dict[str, PredictionRecord], retry_errors: bool = False
) -> tuple[list[PredictionRecord], list[tuple[WorkItem, list[WorkItem]]]]:
    """(records reusable from identical prompts on disk, unique prompts still to generate).

    Unique prompts are sorted longest first: batches then hold similar lengths (little padding)
    and an out-of-memory shows up in the first batch rather than hours in.
    """
    by_prompt: dict[str, PredictionRecord] = {}
    for rec in existing.values():
        if rec.error is None:
            by_prompt.setdefault(rec.prompt_sha256, rec)
    reused: list[PredictionRecord] = []
    groups: dict[str, list[WorkItem]] = {}
    for it in items:
        prev = existing.get(it.instance.key)
        if prev is not None and not (retry_errors and prev.error is not None):
            continue
        if it.prompt_sha256 in by_prompt:
            reused.append(_copy_for(it, by_prompt[it.prompt_sha256]))
            continue
        groups.setdefault(it.prompt_sha256, []).append(it)
    pending = [(g[0], g) for g in groups.values()]
    pending.sort(key=lambda p: -sum(len(m.content) for m in p[0].request.messages))
    return reused, pending


# --------------------------------------------------------------------------------------- results


def _score(plan: Plan, records: dict[str, PredictionRecord]) -> list:
    """Both scoring modes for every planned instance that has a prediction (errors included)."""
    from leaderboard.metrics import scored_items

    return scored_items(
        (it.instance, records[it.instance.key].prediction, records[it.instance.key].error)
        for it in plan.items
        if it.instance.key in records
    )


def _split_infos(plan: Plan) -> dict[tuple[str, str], object]:
    from leaderboard.metrics import SplitInfo

    return {
        (s.lang, s.ability): SplitInfo(
            s.source.name, bool(s.source.complete), int(s.source.expected_n)
        )
        for s in plan.splits
    }


def _backend_info(backend: Backend | None, previous: Results | None) -> dict[str, object]:
    if backend is not None:
        return dict(prov.jsonable(backend.describe()))  # type: ignore[arg-type]
    if previous is not None:  # nothing generated: keep what the run that generated recorded
        p = previous.provenance
        return {
            "chat_template_sha256": p.chat_template_sha256,
            "chat_template_source": p.chat_template_source,
            "device": p.device,
            "batch_size": p.batch_size,
            "model_revision": p.model_revision,
            **({"described_by_previous_run": True}),
        }
    return {}


def _previous_results(out_dir: Path, fingerprint: str) -> Results | None:
    path = out_dir / "results.json"
    if not path.exists():
        return None
    try:
        res = read_results(path)
    except ResultsError:
        return None
    return res if res.provenance.fingerprint == fingerprint else None


def run_submission(
    sub: Submission,
    *,
    root: Path,
    out_dir: Path | None = None,
    backend: Backend | None = None,
    limit: int | None = None,
    languages: Sequence[Lang] | None = None,
    abilities: Sequence[Ability] | None = None,
    noise_rates: dict[Ability, Sequence[float]] | None = None,
    dry_run: bool = False,
    allow_partial_data: bool | None = None,
    overwrite: bool = False,
    retry_errors: bool = False,
    chunk_size: int | None = None,
    progress: bool = True,
    command: str | None = None,
    resamples: int = 1000,
) -> Results | DryRunReport:
    """Run (or resume) a submission and write predictions + results.json into `out_dir`."""
    started, t_start = prov.now_iso(), time.perf_counter()
    out_dir = Path(out_dir) if out_dir is not None else submission_dir(sub)
    if out_dir is None:
        raise ConfigError(
            "no output folder: pass out_dir (--out DIR) for a submission built in code"
        )
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be a positive number of records per split (got {limit})")
    plan = build_plan(
        sub,
        Path(root),
        limit=limit,
        languages=languages,
        abilities=abilities,
        noise_rates=noise_rates,
        allow_partial_data=allow_partial_data,
    )
    fp = prov.fingerprint(sub)
    existing = load_existing(out_dir, fp, overwrite=overwrite, dry_run=dry_run, progress=progress)
    _check_prompts(plan.items, existing, out_dir)
    reused, pending = group_pending(plan.items, existing, retry_errors)
    if dry_run:
        return DryRunReport(
            submission_id=sub.id,
            fingerprint=fp,
            out_dir=out_dir,
            splits=[
                (
                    s.lang,
                    s.ability,
                    s.source.name,
                    bool(s.source.complete),
                    len(s.items),
                    sum(1 for it in s.items if it.instance.key in existing),
                )
                for s in plan.splits
            ],
            skipped=plan.skipped,
            partial_reasons=plan.partial_reasons,
            total=len(plan.items),
            done=sum(1 for it in plan.items if it.instance.key in existing),
            to_generate=len(pending),
            first_request=plan.items[0].request,
        )
    stats = GenStats()
    previous = _previous_results(out_dir, fp)
    if backend is None and (pending or previous is None):
        from leaderboard.backends import load_backend

        _say(progress, f"loading {sub.backend} backend for {sub.model} ...")
        backend = load_backend(sub)
    bs = sub.batch_size if isinstance(sub.batch_size, int) else AUTO_BATCH_GUESS
    with PredictionWriter(out_dir) as writer:
        if reused:
            stats.reused = stats.recorded = writer.append(reused)
        if pending:
            _say(
                progress,
                f"{len(pending)} unique prompts to generate "
                f"({len(existing)} predictions already on disk)",
            )
            generate_pending(
                backend,
                sub,
                pending,
                writer,
                fp,  # type: ignore[arg-type]
                chunk_size=chunk_size or CHUNK_FACTOR * bs,
                progress=progress,
                stats=stats,
            )
    records = load_existing(out_dir, fp, progress=False)
    results = assemble_results(
        sub,
        plan,
        records,
        fp,
        stats,
        backend,
        previous,
        started=started,
        wall_s=time.perf_counter() - t_start,
        command=command,
        resamples=resamples,
    )
    write_results(out_dir / "results.json", results)
    compact_predictions(out_dir)
    return results


def assemble_results(
    sub: Submission,
    plan: Plan,
    records: dict[str, PredictionRecord],
    fp: str,
    stats: GenStats,
    backend: Backend | None,
    previous: Results | None,
    *,
    started: str,
    wall_s: float,
    command: str | None,
    resamples: int,
) -> Results:
    """Score every prediction in the plan (both modes), compute metrics, attach provenance."""
    from leaderboard.metrics import compute_metrics

    scored = _score(plan, records)
    cells, scores, bootstrap = compute_metrics(
        scored, _split_infos(plan), resamples=resamples, seed=BOOTSTRAP_SEED
    )
    reasons = list(plan.partial_reasons)
    missing = [it.instance.key for it in plan.items if it.instance.key not in records]
    if missing:
        reasons.append(f"{len(missing)} planned instances have no prediction (first: {missing[0]})")
    for c in cells:
        if c.mode == "rgb" and c.n < c.expected_n:
            reasons.append(f"{c.lang}/{c.ability}/{c.noise_rate:.1f}: n={c.n} of {c.expected_n}")
    info = _backend_info(backend, previous)
    in_plan = [records[it.instance.key] for it in plan.items if it.instance.key in records]
    commit, dirty = prov.git_state()
    sources = {
        s.source.name: (s.source.blob_id or f"unverified:{s.source.file_blob_id}")
        for s in plan.splits
    }
    tps = (
        (stats.prompt_tokens + stats.completion_tokens) / stats.model_time_s
        if stats.model_time_s > 0
        else None
    )
    provenance = Provenance(
        package_version=__version__,
        git_commit=commit,
        git_dirty=dirty,
        command=command or " ".join(sys.argv),
        data_blob_ids=sources,
        model=sub.model,
        model_revision=str(info.get("model_revision") or prov.resolved_revision(sub) or "") or None,
        backend=sub.backend,
        dtype=sub.dtype,
        quantization=sub.quantization.describe(),
        chat_template_sha256=info.get("chat_template_sha256"),  # type: ignore[arg-type]
        chat_template_source=info.get("chat_template_source"),  # type: ignore[arg-type]
        generation=prov.jsonable(sub.generation.model_dump()),  # type: ignore[arg-type]
        seeds={"generation": sub.generation.seed, "bootstrap": BOOTSTRAP_SEED},
        batch_size=info.get("batch_size") or sub.batch_size,  # type: ignore[arg-type]
        fingerprint=fp,
        versions=prov.versions(),
        device=str(info.get("device") or device_name()),
        started=started,
        finished=prov.now_iso(),
        wall_time_s=round(wall_s, 3),
        generation_time_s=round(stats.model_time_s, 3),
        prompt_tokens=sum(r.prompt_tokens or 0 for r in in_plan),
        completion_tokens=sum(r.completion_tokens or 0 for r in in_plan),
        tokens_per_s=round(tps, 2) if tps is not None else None,
        extra={
            "hub_id": sub.hub_id,
            "revision_pinned": sub.revision_pinned,
            "fingerprint_inputs": prov.jsonable(prov.fingerprint_inputs(sub)),
            "this_invocation": {
                "generated_prompts": stats.generated,
                "recorded": stats.recorded,
                "reused_identical_prompts": stats.reused,
                "errors": stats.errors,
                "prompt_tokens": stats.prompt_tokens,
                "completion_tokens": stats.completion_tokens,
                "overhead_share": round(1 - stats.model_time_s / wall_s, 4) if wall_s > 0 else None,
            },
            "predictions_in_results": len(in_plan),
            "sum_latency_s": round(sum(r.latency_s or 0.0 for r in in_plan), 3),
            "skipped_splits": plan.skipped,
            "backend": info,
        },
    )
    return Results(
        submission_id=sub.id,
        display_name=sub.display_name,
        partial=bool(reasons),
        partial_reasons=reasons,
        provenance=provenance,
        bootstrap=bootstrap,
        cells=cells,
        scores=scores,
    )

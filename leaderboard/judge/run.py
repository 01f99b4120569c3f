"""The LLM judge loop: the reference judge prompts on a submission's predictions, every verdict
cached and appended as it comes, so a crash loses at most one chunk and a rerun judges only what
is missing.

Rejection is judged on the rejection instances (noise rate 1.0), error detection on the
counterfactual instances, as in the reference scripts. judgements.jsonl is append-only (flushed
and fsynced after every chunk; a line cut by kill -9 is dropped on read and cut before the next
append), keyed by (judge fingerprint, sha256 of the filled prompt): the same judge never sees the
same prompt twice, and a judge with other settings gets its own lines. The judge's raw reply is
kept, so a better parser can re-read old verdicts without calling the model again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from leaderboard import __version__
from leaderboard.backends.base import Backend
from leaderboard.core.checkout import git_state, now_iso, repo_relative
from leaderboard.core.errors import ResultsError
from leaderboard.core.files import repair_truncated_tail
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import JudgementRecord, JudgeTask
from leaderboard.core.types import ChatMessage, ChatRequest, Completion, Lang
from leaderboard.core.versions import versions
from leaderboard.core.write_errors import is_write_error, write_failed
from leaderboard.protocol.judge import (
    JUDGE_TASKS,
    PARSER_VERSION,
    decision,
    judge_prompt,
    parse_verdict,
    reference_decision,
    template_sha256,
)
from leaderboard.run.fingerprint import fingerprint_inputs, jsonable, resolved_revision

JUDGEMENTS_NAME = "judgements.jsonl"
JUDGE_FINGERPRINT_VERSION = 1
# Inputs of the run fingerprint that describe the RGB answering prompts, not the judge.
_NOT_JUDGE_INPUTS = ("prompts_sha256", "passage_num", "variant", "fingerprint_version")


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judge_fingerprint(judge: JudgeConfig) -> str:
    """What changes a judge's replies: the model settings (as a submission's fingerprint) and the
    judge templates. Batch size, concurrency and the verdict parser are left out."""
    inputs = {k: v for k, v in fingerprint_inputs(judge).items() if k not in _NOT_JUDGE_INPUTS}
    inputs["judge_fingerprint_version"] = JUDGE_FINGERPRINT_VERSION
    inputs["templates"] = {task: template_sha256(task) for task in JUDGE_TASKS}
    canon = json.dumps(inputs, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class JudgeItem:
    """One answer to judge: the prediction, the question it answered and the filled prompt."""

    key: str
    task: JudgeTask
    lang: Lang
    id: int | str
    question: str
    prediction: str
    prediction_fingerprint: str
    prediction_error: str | None = None  # a failed generation is not judged

    @property
    def ident(self) -> tuple[str, str]:
        """(instance key, task): one answer can be judged by both prompts."""
        return (self.key, self.task)

    @property
    def prompt(self) -> str:
        return judge_prompt(self.task, self.question, self.prediction)

    @property
    def prompt_sha256(self) -> str:
        return sha256_text(self.prompt)


class JudgementStore:
    """judgements.jsonl: read once (first line per cache key wins), appended with fsync.
    `record_type` is the line's model (the statement judge stores its own lines the same way)."""

    record_type: type = JudgementRecord

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.by_key: dict[tuple[str, str], JudgementRecord] = {}
        self.duplicates = 0
        self.truncated_tail = False
        if self.path.exists():
            self._read()

    def _read(self) -> None:
        lines = self.path.read_bytes().splitlines(keepends=True)
        for lineno, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                rec = self.record_type.model_validate_json(raw)
            except ValidationError as exc:
                if lineno == len(lines) and not raw.endswith(b"\n"):  # cut by kill -9
                    self.truncated_tail = True
                    continue
                first = exc.errors()[0]
                field = ".".join(str(p) for p in first["loc"]) or "(line)"
                raise ResultsError(
                    f"{self.path}:{lineno}: field '{field}': {first['msg']}. Earlier lines are "
                    "intact; remove that line (it is judged again) and rerun."
                ) from None
            ident = (rec.judge_fingerprint, rec.prompt_sha256)
            if ident in self.by_key:
                self.duplicates += 1
                continue
            self.by_key[ident] = rec

    def get(self, judge_fp: str, prompt_sha: str) -> JudgementRecord | None:
        return self.by_key.get((judge_fp, prompt_sha))

    def append(self, records: Sequence[JudgementRecord]) -> int:
        new = [r for r in records if (r.judge_fingerprint, r.prompt_sha256) not in self.by_key]
        if not new:
            return 0
        data = b"".join(r.model_dump_json().encode("utf-8") + b"\n" for r in new)
        size = self.path.stat().st_size if self.path.exists() else 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            repair_truncated_tail(self.path)
            size = self.path.stat().st_size if self.path.exists() else 0
            with open(self.path, "ab") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:  # disk full, quota, read-only: keep every complete verdict
            if not is_write_error(exc):
                raise
            if self.path.exists():
                os.truncate(self.path, size)
            raise write_failed(exc, self.path, f"{len(self.by_key)} verdicts kept") from None
        for r in new:
            self.by_key[(r.judge_fingerprint, r.prompt_sha256)] = r
        return len(new)


def make_judgement(
    item: JudgeItem, judge: JudgeConfig, judge_fp: str, completion: Completion
) -> JudgementRecord:
    """The stored line for one judge reply (verdict parsed now; the raw reply kept)."""
    failed = completion.error is not None
    parsed = None if failed else parse_verdict(item.task, completion.text)
    return JudgementRecord(
        key=item.key,
        task=item.task,
        lang=item.lang,
        id=item.id,
        prediction_fingerprint=item.prediction_fingerprint,
        prediction_sha256=sha256_text(item.prediction),
        judge_id=judge.id,
        judge_fingerprint=judge_fp,
        judge_model=judge.model,
        judge_backend=judge.backend,
        template_sha256=template_sha256(item.task),
        prompt_sha256=item.prompt_sha256,
        output=completion.text,
        error=completion.error,
        verdict=None if parsed is None else parsed.verdict,
        decision=None if parsed is None else decision(item.task, parsed.verdict),
        reference_decision=None if failed else reference_decision(item.task, completion.text),
        parser_version=PARSER_VERSION,
        latency_s=completion.latency_s,
        created=now_iso(),
    )


@dataclass
class JudgeStats:
    judged: int = 0  # judge calls made in this invocation
    cached: int = 0  # items answered from judgements.jsonl
    errors: int = 0  # judge calls that failed (judged again on the next run)
    skipped: int = 0  # failed generations, never judged


def pending_items(
    items: Iterable[JudgeItem], store: JudgementStore, judge_fp: str, stats: JudgeStats
) -> list[JudgeItem]:
    """Items without a stored verdict of this judge (a stored judge error is retried), one per
    distinct prompt."""
    out: dict[str, JudgeItem] = {}
    for item in items:
        if item.prediction_error is not None:
            stats.skipped += 1
            continue
        rec = store.get(judge_fp, item.prompt_sha256)
        if rec is not None and rec.error is None:
            stats.cached += 1
            continue
        out.setdefault(item.prompt_sha256, item)
    return list(out.values())


class Prompted(Protocol):
    """What the cached judging loop needs of an item: the filled prompt and its sha256."""

    @property
    def prompt(self) -> str: ...

    @property
    def prompt_sha256(self) -> str: ...


_Item = TypeVar("_Item", bound=Prompted)


def judge_cached(
    judge: JudgeConfig,
    load: Callable[[], Backend],
    items: Sequence[_Item],
    store: JudgementStore,
    judge_fp: str,
    record: Callable[[_Item, Completion], Any],
    *,
    chunk_size: int = 8,
) -> JudgeStats:
    """The statement and relevance judges' loop: judge every item without a stored verdict of
    this judge (a stored judge error is asked again), one call per distinct prompt, the model
    loaded only when something is left; `record` turns an item and its completion into the
    store's line (a failed call is not stored)."""
    stats = JudgeStats()
    todo: dict[str, _Item] = {}
    for it in items:
        rec = store.get(judge_fp, it.prompt_sha256)
        if rec is not None and rec.error is None:
            stats.cached += 1
        else:
            todo.setdefault(it.prompt_sha256, it)
    pending = list(todo.values())
    if not pending:
        return stats
    backend = load()
    config = judge.generation.to_config()
    for start in range(0, len(pending), chunk_size):
        chunk = pending[start : start + chunk_size]
        requests = [
            ChatRequest(messages=(ChatMessage(role="user", content=it.prompt),)) for it in chunk
        ]
        completions = backend.generate(requests, config)
        if len(completions) != len(chunk):
            raise ResultsError(
                f"judge backend {judge.backend} returned {len(completions)} completions for "
                f"{len(chunk)} requests; nothing of this chunk was recorded"
            )
        records = [record(it, c) for it, c in zip(chunk, completions, strict=True)]
        store.append([r for r in records if r.error is None])
        stats.errors += sum(r.error is not None for r in records)
        stats.judged += len(chunk)
    return stats


def run_judge(
    judge: JudgeConfig,
    load: Callable[[], Backend],
    items: Sequence[JudgeItem],
    store: JudgementStore,
    *,
    chunk_size: int = 8,
    on_chunk: Callable[[int, int, int], None] | None = None,
) -> tuple[JudgeStats, dict[str, object] | None]:
    """Judge every item without a stored verdict; returns the counts and the backend's
    describe() (None when everything was cached and no model was loaded)."""
    judge_fp = judge_fingerprint(judge)
    stats = JudgeStats()
    todo = pending_items(items, store, judge_fp, stats)
    if not todo:
        return stats, None
    backend = load()  # only now: loading a model takes minutes
    config = judge.generation.to_config()
    for start in range(0, len(todo), chunk_size):
        chunk = todo[start : start + chunk_size]
        requests = [
            ChatRequest(messages=(ChatMessage(role="user", content=it.prompt),)) for it in chunk
        ]
        t0 = time.perf_counter()
        completions = backend.generate(requests, config)
        if len(completions) != len(chunk):
            raise ResultsError(
                f"judge backend {judge.backend} returned {len(completions)} completions for "
                f"{len(chunk)} requests (the Backend contract is one per request); nothing of "
                "this chunk was recorded. This is a backend bug: report it."
            )
        records = [
            make_judgement(it, judge, judge_fp, c) for it, c in zip(chunk, completions, strict=True)
        ]
        # a failed judge call is not stored: the next run asks again
        store.append([r for r in records if r.error is None])
        stats.errors += sum(r.error is not None for r in records)
        stats.judged += len(chunk)
        if on_chunk is not None:
            on_chunk(stats.judged, len(todo), int((time.perf_counter() - t0) * 1000))
    return stats, jsonable(backend.describe().as_dict())  # type: ignore[return-value]


def judge_provenance(
    judge: JudgeConfig, describe: dict[str, object] | None, command: str
) -> dict[str, object]:
    """Who judged, with what: the judge file's settings, the backend's own description (None when
    no call was made this time), package and library versions, git state, the command."""
    commit, dirty = git_state()
    return {
        "package_version": __version__,
        "git_commit": commit,
        "git_dirty": dirty,
        "command": command,
        "judge_file": repo_relative(str(judge.source_path)) if judge.source_path else None,
        "judge_settings": jsonable(judge.model_dump(mode="json", exclude={"run"})),
        "model_revision": resolved_revision(judge),
        "backend": describe,
        "versions": versions(),
        "templates": {task: template_sha256(task) for task in JUDGE_TASKS},
        "parser_version": PARSER_VERSION,
    }

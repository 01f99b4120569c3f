"""`verify` for the relevance judge's run-folder files.

A run folder's relevance.jsonl: every line must be a verdict on an eligible answer as the answers
stand now (judge/relevance.py `eligible`: the same instance key, the run's prediction fingerprint
and the answer's sha256, the prompt those make, and the verdict its reply parses to); a stale or
extra line is named, never used silently. relevance_results.json beside it is recomputed from
those lines over every answer of the run (judge/relevance_figures.py), the sample redrawn as the
command drew it.

No judge model is run. The answers come from the caller (`verify` has rebuilt them already); the
check scores them again for their strict outcome (a refused answer is not the judge's).
The agreement file is checked by board/relevance_labelled.py, which reads the grounding labels.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from leaderboard.core.checks import FileCheck
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.judge_schema import RelevanceRecord
from leaderboard.core.types import TestInstance
from leaderboard.judge.faithfulness_check import MAX_NAMED
from leaderboard.judge.relevance import (
    RELEVANCE_NAME,
    RelevanceItem,
    RelevanceStore,
    parse_relevance_verdict,
    relevance_items,
)
from leaderboard.judge.relevance_figures import (
    RESULTS_NAME,
    read_relevance_results,
    relevance_rows,
)
from leaderboard.judge.results_check import row_differences
from leaderboard.judge.run import sha256_text
from leaderboard.scoring.outcome import scored_items

Answers = Iterable[tuple[TestInstance, str, str | None]]


def _line_problems(
    lineno: int, rec: RelevanceRecord, item: RelevanceItem | None, pred_fp: str
) -> list[str]:
    where = f"{RELEVANCE_NAME}:{lineno} ({rec.key})"
    if item is None:
        return [
            f"{where}: no such answer among the run's answers the relevance judge reads now "
            "(untyped question, not refused, no error claimed; a stale or extra line; remove it)"
        ]
    out = []
    if rec.prediction_fingerprint != pred_fp:
        out.append(
            f"{where} prediction_fingerprint: line has {rec.prediction_fingerprint}, the "
            f"run is {pred_fp}"
        )
    if rec.prediction_sha256 != sha256_text(item.prediction):
        out.append(f"{where} prediction_sha256: the line judged another answer text")
    if not out and rec.prompt_sha256 != item.prompt_sha256:
        out.append(
            f"{where} prompt_sha256: the prompt of this answer is another now (question or "
            "template changed)"
        )
    if rec.error is None and rec.verdict != parse_relevance_verdict(rec.output):
        out.append(
            f"{where} verdict: line has {rec.verdict!r}, its output parses as "
            f"{parse_relevance_verdict(rec.output)!r}"
        )
    return out


def _lines(path: Path, check: FileCheck) -> list[tuple[int, RelevanceRecord]]:
    out = []
    for lineno, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            out.append((lineno, RelevanceRecord.model_validate_json(raw)))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(line)"
            check.mismatches.append(f"{RELEVANCE_NAME}:{lineno}: field '{field}': {first['msg']}")
    return out


def check_relevance(folder: Path, answers: Answers | None, pred_fp: str) -> FileCheck | None:
    """The folder's relevance.jsonl against its answers (None: the run's answers could not be
    rebuilt, so only that is said) and relevance_results.json recomputed; None when the folder
    has neither file."""
    folder = Path(folder)
    lines_path, results_path = folder / RELEVANCE_NAME, folder / RESULTS_NAME
    if not lines_path.is_file() and not results_path.is_file():
        return None
    check = FileCheck(
        lines_path,
        fix=f"rewrite {RESULTS_NAME} with `rgb-leaderboard relevance {folder.as_posix()} "
        "--judge FILE` (stored verdicts are reused, no judge call is repeated)",
    )
    if not lines_path.is_file():
        check.mismatches.append(
            f"{RESULTS_NAME} without {RELEVANCE_NAME} beside it (nothing to recompute from)"
        )
        return check
    if answers is None:
        check.skipped = "not checked: the run's answers could not be rebuilt (see above)"
        return check
    scored = scored_items(answers)
    items = relevance_items(scored, pred_fp)
    by_key = {it.key: it for it in items}
    problems = []
    for lineno, rec in _lines(lines_path, check):
        problems += _line_problems(lineno, rec, by_key.get(rec.key), pred_fp)
    check.mismatches += problems[:MAX_NAMED]
    if len(problems) > MAX_NAMED:
        check.mismatches.append(f"... and {len(problems) - MAX_NAMED} more line problem(s)")
    if not results_path.is_file():
        check.mismatches.append(
            f"{RESULTS_NAME}: missing beside {RELEVANCE_NAME} (the site's figures come from it)"
        )
        return check
    try:
        results = read_relevance_results(results_path)
        store = RelevanceStore(lines_path)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    if results.prediction_fingerprint != pred_fp:
        check.mismatches.append(
            f"{RESULTS_NAME} prediction_fingerprint: file has "
            f"{results.prediction_fingerprint}, the run is {pred_fp}"
        )
        return check
    for s in results.judges:
        rows = relevance_rows(scored, items, store, s.judge_fingerprint, s.sample)
        check.mismatches += [
            f"{RESULTS_NAME} {m}"
            for m in row_differences("relevance", s.judge_id, s.rows, rows, ("lang", "ability"))
        ]
    return check

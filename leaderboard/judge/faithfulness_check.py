"""`verify` for the statement judge's files.

A run folder's faithfulness.jsonl: every line must be a verdict on a statement of a committed
answer as the answers stand now (the same instance key, the statement's index and text as
`split_statements` gives them, the run's prediction fingerprint and the answer's sha256, the
prompt those make, and the verdict its reply parses to); a stale or extra line is named, never
used silently. faithfulness_results.json beside it is recomputed from those lines over every
eligible statement of the run (judge/faithfulness_figures.py).

judges/faithfulness/agreement/<judge id>/agreement.json: recomputed from the faithfulness.jsonl
beside it and the labels files, which must be the ones recorded (sha256).

No judge model is run. The answers come from the caller (`verify` has rebuilt them already), so
the check adds the statement split of the run's answers, not another rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import ValidationError

from leaderboard.core.checks import FileCheck, rendered
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.judge_schema import FaithfulnessAgreement, StatementRecord
from leaderboard.core.types import TestInstance
from leaderboard.judge.agreement_check import (
    agreement_folders,
    is_agreement_root,
    read_recorded_labels,
)
from leaderboard.judge.faithfulness import (
    FAITHFULNESS_NAME,
    LABELS_DIR,
    LabelledStatement,
    StatementItem,
    StatementStore,
    answer_statements,
    read_labels,
)
from leaderboard.judge.faithfulness_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    RESULTS_NAME,
    agreement_rows,
    faithfulness_rows,
    labelled_verdicts,
    read_faithfulness_agreement,
    read_faithfulness_results,
)
from leaderboard.judge.results_check import row_differences
from leaderboard.judge.run import sha256_text
from leaderboard.judge.statements import parse_statement_verdict

MAX_NAMED = 10  # stale lines named one by one; the rest counted
Answers = Iterable[tuple[TestInstance, str, str | None]]


def _line_problems(
    lineno: int, rec: StatementRecord, item: StatementItem | None, pred_fp: str
) -> list[str]:
    where = f"{FAITHFULNESS_NAME}:{lineno} ({rec.key} statement {rec.statement})"
    if item is None:
        return [
            f"{where}: no such statement among the run's answers with two or more statements "
            "now (a stale or extra line; remove it)"
        ]
    out = []
    if rec.statement_text != item.statement:
        out.append(
            f"{where} statement_text: line has {rec.statement_text!r}, the answer's "
            f"statement now is {item.statement!r}"
        )
    if rec.prediction_fingerprint != pred_fp:
        out.append(
            f"{where} prediction_fingerprint: line has {rec.prediction_fingerprint}, the "
            f"run is {pred_fp}"
        )
    if rec.prediction_sha256 != sha256_text(item.prediction):
        out.append(f"{where} prediction_sha256: the line judged another answer text")
    if not out and rec.prompt_sha256 != item.prompt_sha256:
        out.append(
            f"{where} prompt_sha256: the prompt of this statement is another now "
            "(question, passages or template changed)"
        )
    if rec.error is None and rec.verdict != parse_statement_verdict(rec.output):
        out.append(
            f"{where} verdict: line has {rec.verdict!r}, its output parses as "
            f"{parse_statement_verdict(rec.output)!r}"
        )
    return out


def _lines(path: Path, check: FileCheck) -> list[tuple[int, StatementRecord]]:
    out = []
    raw_lines = path.read_bytes().splitlines()
    for lineno, raw in enumerate(raw_lines, start=1):
        if not raw.strip():
            continue
        try:
            out.append((lineno, StatementRecord.model_validate_json(raw)))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(line)"
            check.mismatches.append(
                f"{FAITHFULNESS_NAME}:{lineno}: field '{field}': {first['msg']}"
            )
    return out


def check_faithfulness(folder: Path, answers: Answers | None, pred_fp: str) -> FileCheck | None:
    """The folder's faithfulness.jsonl against its answers (None: the run's answers could not be
    rebuilt, so only that is said) and faithfulness_results.json recomputed; None when the
    folder has neither file."""
    folder = Path(folder)
    lines_path, results_path = folder / FAITHFULNESS_NAME, folder / RESULTS_NAME
    if not lines_path.is_file() and not results_path.is_file():
        return None
    check = FileCheck(
        lines_path,
        fix=f"rewrite {RESULTS_NAME} with `rgb-leaderboard faithfulness {folder.as_posix()} "
        "--judge FILE` (stored verdicts are reused, no judge call is repeated)",
    )
    if not lines_path.is_file():
        check.mismatches.append(
            f"{RESULTS_NAME} without {FAITHFULNESS_NAME} beside it (nothing to recompute from)"
        )
        return check
    if answers is None:
        check.skipped = "not checked: the run's answers could not be rebuilt (see above)"
        return check
    items = answer_statements(answers, pred_fp)
    by_statement = {(it.key, it.index): it for it in items}
    problems = []
    for lineno, rec in _lines(lines_path, check):
        problems += _line_problems(lineno, rec, by_statement.get((rec.key, rec.statement)), pred_fp)
    check.mismatches += problems[:MAX_NAMED]
    if len(problems) > MAX_NAMED:
        check.mismatches.append(f"... and {len(problems) - MAX_NAMED} more line problem(s)")
    if not results_path.is_file():
        check.mismatches.append(
            f"{RESULTS_NAME}: missing beside {FAITHFULNESS_NAME} (the site's figures come from it)"
        )
        return check
    try:
        results = read_faithfulness_results(results_path)
        store = StatementStore(lines_path)
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
        rows = faithfulness_rows(items, store, s.judge_fingerprint, s.sample)
        check.mismatches += [
            f"{RESULTS_NAME} {m}"
            for m in row_differences("faithfulness", s.judge_id, s.rows, rows, ("lang",))
        ]
    return check


def is_faithfulness_agreement_target(path: Path) -> bool:
    """An agreement.json of the statement judge, a folder holding one, or
    judges/faithfulness/agreement itself."""
    path = Path(path)
    if path.is_file():
        return path.name == AGREEMENT_NAME and _is_root(path.parent.parent)
    return _is_root(path) or ((path / AGREEMENT_NAME).is_file() and _is_root(path.parent))


def _is_root(path: Path) -> bool:
    return is_agreement_root(path, AGREEMENT_DIR)


def _labels(
    record: FaithfulnessAgreement, folder: Path, check: FileCheck
) -> list[LabelledStatement] | None:
    """The recorded labels files (repository-relative: resolved from the repository holding the
    agreement folder, the current folder, or the package's checkout); a changed one is named."""
    here = Path(folder).resolve()
    roots = [here.parents[3]] if _is_root(here.parent) else []
    roots += [Path.cwd(), Path(__file__).resolve().parents[2]]

    def find(key: str) -> Path | None:
        return next((r / key for r in roots if (r / key).is_file()), None)

    return read_recorded_labels(record.labels, find, read_labels, check, "faithfulness --labels")


def check_faithfulness_agreement(folder: Path) -> FileCheck:
    """The folder's agreement.json recomputed from its faithfulness.jsonl and the labels."""
    folder = Path(folder)
    check = FileCheck(
        folder / AGREEMENT_NAME,
        fix=f"regenerate it with `rgb-leaderboard faithfulness --labels {LABELS_DIR.as_posix()} "
        f"--split SPLIT --judge FILE --out {folder.as_posix()}` (stored verdicts are reused)",
    )
    try:
        record = read_faithfulness_agreement(check.path)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    judge_file = record.provenance.get("judge_file") or "FILE"
    check.fix = check.fix.replace("SPLIT", record.split).replace("FILE", str(judge_file))
    if folder.resolve().name != record.judge_id:
        check.mismatches.append(
            f"judge_id: file has {record.judge_id!r}, the folder is {folder.resolve().name!r} "
            f"({AGREEMENT_DIR.as_posix()}/<judge id>/)"
        )
    labels = _labels(record, folder, check)
    if labels is None:
        return check
    if not (folder / FAITHFULNESS_NAME).is_file():
        check.mismatches.append(
            f"{FAITHFULNESS_NAME}: missing beside it (nothing to recompute from)"
        )
        return check
    try:
        store = StatementStore(folder / FAITHFULNESS_NAME)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    judged = labelled_verdicts(store, record.judge_fingerprint)
    rows = agreement_rows(
        labels, record.split, judged, record.resamples, record.seed, stale=record.stale
    )
    check.mismatches += row_differences(
        "faithfulness kappa", record.judge_id, record.agreement, rows, ("lang",)
    )
    return check


def verify_faithfulness_agreements(targets: Sequence[Path]) -> tuple[list[str], int]:
    """Every statement-judge agreement folder under `targets`: printed lines, failures."""
    return rendered(check_faithfulness_agreement(folder) for folder in agreement_folders(targets))

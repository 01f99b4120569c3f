"""`verify` for a judge's agreement with the labels: judges/agreement/<judge id>/agreement.json
recomputed from the judgements.jsonl beside it and the labelled set.

The methodology page shows these kappas, so they go through the same trust chain as a
submission's judge_results.json (judge/results_check.py): the labels files must be the ones recorded
(sha256), the items are selected again (splits, sample limit), the stored replies are parsed again
with the current parser and the rates and kappas recomputed with the recorded bootstrap. No judge
model is run: a reply missing from judgements.jsonl counts as unjudged, as it does in the command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from leaderboard.core.checks import FileCheck, rendered
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.judge_schema import LabelAgreement
from leaderboard.judge.agreement import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    LABELS_DIR,
    LabelledAnswer,
    file_sha256,
    label_figures,
    labelled_items,
    n_items,
    read_agreement,
    read_labelled,
)
from leaderboard.judge.kappa import KAPPA_SEED
from leaderboard.judge.results_check import recorded_resamples, row_differences
from leaderboard.judge.run import JUDGEMENTS_NAME, JudgementStore


def is_agreement_target(path: Path) -> bool:
    """An agreement.json, a folder holding one, or a judges/agreement folder (all of them)."""
    path = Path(path)
    if path.is_file():
        return path.name == AGREEMENT_NAME
    return (path / AGREEMENT_NAME).is_file() or is_agreement_root(path)


T = TypeVar("T")


def is_agreement_root(path: Path, root: Path = AGREEMENT_DIR) -> bool:
    """Does `path` end with the committed agreement home `root` (judges/agreement, or the
    statement judge's judges/faithfulness/agreement)?"""
    parts = Path(path).resolve().parts
    return parts[-len(root.parts) :] == root.parts


def agreement_folders(targets: Sequence[Path]) -> list[Path]:
    """The folders to check: a file's folder, a folder itself, an agreement home's every
    <judge id>/ holding an agreement.json (both judges' homes use the same file name)."""
    out: list[Path] = []
    for target in map(Path, targets):
        if target.is_file():
            out.append(target.parent)
        elif (target / AGREEMENT_NAME).is_file():
            out.append(target)
        else:
            out += sorted(p.parent for p in target.glob(f"*/{AGREEMENT_NAME}"))
    return out


def _labels_file(key: str, folder: Path) -> Path | None:
    """A recorded labels path: absolute as written, else relative to the repository holding the
    agreement folder (judges/agreement/<id>), the current folder or the package's checkout."""
    path = Path(key)
    if path.is_absolute():
        return path if path.is_file() else None
    here = Path(folder).resolve()
    roots = [here.parents[2]] if is_agreement_root(here.parent) else []
    roots += [Path.cwd(), LABELS_DIR.parents[2]]
    return next((r / path for r in roots if (r / path).is_file()), None)


def read_recorded_labels(
    recorded: dict[str, str],
    find: Callable[[str], Path | None],
    read: Callable[[Path], list[T]],
    check: FileCheck,
    rerun: str,
) -> list[T] | None:
    """The items of every recorded labels file (key: its recorded path, value: its sha256), read
    in key order; a missing file or one changed since the agreement was written is a named
    mismatch (None: a file could not be read, so nothing can be recomputed). One home for the
    refusal judge's and the statement judge's agreement files."""
    out: list[T] = []
    for key, sha in sorted(recorded.items()):
        path = find(key)
        if path is None:
            check.mismatches.append(f"labels {key}: file not found")
            return None
        now = file_sha256(path)
        if now != sha:
            check.mismatches.append(
                f"labels {key} sha256: file has {sha}, the labels file now is {now} (the "
                f"labelled set changed since the judge ran; rerun `{rerun}`)"
            )
        try:
            out += read(path)
        except LeaderboardError as exc:
            check.mismatches.append(f"labels {key}: {exc}")
            return None
    return out


def _labelled(
    record: LabelAgreement, folder: Path, check: FileCheck
) -> list[LabelledAnswer] | None:
    """The recorded labels files' answers (read_recorded_labels)."""
    return read_recorded_labels(
        record.labels,
        lambda key: _labels_file(key, folder),
        read_labelled,
        check,
        "judge-agreement",
    )


def _fix(folder: Path, record: LabelAgreement | None) -> str:
    """The command that rewrites the file: the recorded judge file and split when readable."""
    judge = (record.provenance.get("judge_file") if record else None) or "FILE"
    split = "SPLIT" if record is None else record.splits[0] if len(record.splits) == 1 else "all"
    return (
        f"regenerate it with `rgb-leaderboard judge-agreement --judge {judge} --split {split} "
        f"--out {folder.as_posix()}` (stored verdicts are reused, no judge call is repeated)"
    )


def check_agreement(folder: Path) -> FileCheck:
    """The folder's agreement.json recomputed from its judgements.jsonl and the labels."""
    folder = Path(folder)
    check = FileCheck(folder / AGREEMENT_NAME, fix=_fix(folder, None))
    try:
        record = read_agreement(check.path)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    check.fix = _fix(folder, record)
    if folder.resolve().name != record.judge_id:
        check.mismatches.append(
            f"judge_id: file has {record.judge_id!r}, the folder is {folder.resolve().name!r} "
            "(judges/agreement/<judge id>/)"
        )
    answers = _labelled(record, folder, check)
    if answers is None:
        return check
    if not (folder / JUDGEMENTS_NAME).is_file():
        check.mismatches.append(f"{JUDGEMENTS_NAME}: missing beside it (nothing to recompute from)")
        return check
    items = labelled_items(answers, record.splits, record.limit)
    try:
        store = JudgementStore(folder / JUDGEMENTS_NAME)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    resamples = record.resamples
    if resamples is None:
        resamples = recorded_resamples(record.provenance)
    seed = KAPPA_SEED if record.seed is None else record.seed
    rates, entries = label_figures(answers, items, store, record.judge_fingerprint, resamples, seed)
    now = n_items(items)
    if now != record.n_items:
        check.mismatches.append(f"n_items: file has {record.n_items}, recomputed {now}")
    judge = record.judge_id
    check.mismatches += row_differences("rate", judge, record.rates, rates, ("lang", "task"))
    check.mismatches += row_differences(
        "kappa", judge, record.agreement, entries, ("lang", "task", "rater", "against")
    )
    return check


def verify_agreements(targets: list[Path]) -> tuple[list[str], int]:
    """Every agreement folder under `targets`: printed lines, failures."""
    return rendered(check_agreement(folder) for folder in agreement_folders(targets))

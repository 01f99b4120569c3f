"""The relevance judge against the grounding labels: the labelled answers it is checked on, and
`verify` of judges/relevance/agreement/<judge id>/agreement.json.

The labels are the grounding check's (scoring/labels/grounding_<lang>.jsonl, read by
board/grounding_labelled.py; field `relevant`, guide GUIDE_grounding.md). The judge is checked on
the labelled answers whose question fixes no type for its answer (the code decides the others)
and whose label has a relevance (null for refused and error claimed). Each answer's question and
prediction come from the label's own line, so the prompt is the one the judge would see for that
answer in its run folder.

This lives in board, not judge, because the labels are read by board/grounding_labelled.py; the
agreement's figures are judge/relevance_figures.py's, so the command and `verify` compute them
with one function.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from leaderboard.board.grounding_labelled import read_labels
from leaderboard.core.checks import FileCheck, rendered
from leaderboard.core.errors import DataError, LeaderboardError
from leaderboard.core.safe_io import read_text
from leaderboard.core.types import LANGS
from leaderboard.judge.agreement_check import (
    agreement_folders,
    is_agreement_root,
    read_recorded_labels,
)
from leaderboard.judge.relevance import (
    RELEVANCE_NAME,
    LabelledRelevance,
    RelevanceItem,
    RelevanceStore,
    judge_decides,
)
from leaderboard.judge.relevance_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    LABELS_DIR,
    agreement_rows,
    read_relevance_agreement,
)
from leaderboard.judge.results_check import row_differences

LABELLED = "labelled"  # the prediction fingerprint of a labelled answer's item (no run)


def labels_files(folder: Path) -> list[Path]:
    """The grounding labels files of a folder (grounding_<lang>.jsonl), in language order; an
    error when there is none."""
    found = [Path(folder) / f"grounding_{lang}.jsonl" for lang in LANGS]
    found = [p for p in found if p.is_file()]
    if not found:
        raise DataError(
            f"{folder}: no grounding labels file (grounding_zh.jsonl, grounding_en.jsonl); pass "
            f"--labels {LABELS_DIR.as_posix()}"
        )
    return found


def read_relevance_labels(path: Path) -> list[LabelledRelevance]:
    """The labelled answers of one grounding labels file the relevance judge is checked on:
    untyped question, a relevance label (not null)."""
    path = Path(path)
    lang = path.stem.removeprefix("grounding_")
    if lang not in LANGS:
        raise DataError(f"{path}: a grounding labels file is named grounding_<lang>.jsonl")
    out = []
    for lab in read_labels(f"labels/{path.name}", read_text(path, DataError), lang):  # type: ignore[arg-type]
        inst = lab.item.instance
        if lab.relevant is None or not judge_decides(inst.query, inst.lang):
            continue
        item = RelevanceItem(
            lab.id, inst.lang, lab.id, inst.ability, inst.query, lab.item.prediction, LABELLED
        )
        out.append(LabelledRelevance(lab.id, lab.split, lab.relevant, item))
    return out


def is_relevance_agreement_target(path: Path) -> bool:
    """An agreement.json of the relevance judge, a folder holding one, or
    judges/relevance/agreement itself."""
    path = Path(path)
    if path.is_file():
        return path.name == AGREEMENT_NAME and _is_root(path.parent.parent)
    return _is_root(path) or ((path / AGREEMENT_NAME).is_file() and _is_root(path.parent))


def _is_root(path: Path) -> bool:
    return is_agreement_root(path, AGREEMENT_DIR)


def check_relevance_agreement(folder: Path) -> FileCheck:
    """The folder's agreement.json recomputed from its relevance.jsonl and the labels files it
    records (which must be unchanged: sha256)."""
    folder = Path(folder)
    check = FileCheck(
        folder / AGREEMENT_NAME,
        fix=f"regenerate it with `rgb-leaderboard relevance --labels {LABELS_DIR.as_posix()} "
        f"--judge FILE --out {folder.as_posix()}` (stored verdicts are reused)",
    )
    try:
        record = read_relevance_agreement(check.path)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    check.fix = check.fix.replace("FILE", str(record.provenance.get("judge_file") or "FILE"))
    if folder.resolve().name != record.judge_id:
        check.mismatches.append(
            f"judge_id: file has {record.judge_id!r}, the folder is {folder.resolve().name!r} "
            f"({AGREEMENT_DIR.as_posix()}/<judge id>/)"
        )
    here = folder.resolve()
    roots = [here.parents[3]] if _is_root(here.parent) else []
    roots += [Path.cwd(), Path(__file__).resolve().parents[2]]

    def find(key: str) -> Path | None:
        if Path(key).is_absolute():
            return Path(key) if Path(key).is_file() else None
        return next((r / key for r in roots if (r / key).is_file()), None)

    labels = read_recorded_labels(
        record.labels, find, read_relevance_labels, check, "relevance --labels"
    )
    if labels is None:
        return check
    if not (folder / RELEVANCE_NAME).is_file():
        check.mismatches.append(f"{RELEVANCE_NAME}: missing beside it (nothing to recompute from)")
        return check
    try:
        store = RelevanceStore(folder / RELEVANCE_NAME)
    except LeaderboardError as exc:
        check.mismatches.append(str(exc))
        return check
    rows = agreement_rows(labels, store, record.judge_fingerprint, record.resamples, record.seed)
    check.mismatches += row_differences(
        "relevance kappa", record.judge_id, record.agreement, rows, ("split", "lang")
    )
    return check


def verify_relevance_agreements(targets: Sequence[Path]) -> tuple[list[str], int]:
    """Every relevance-judge agreement folder under `targets`: printed lines, failures."""
    return rendered(check_relevance_agreement(folder) for folder in agreement_folders(targets))

"""Which RGB file a retrieval split is read from, as questions with their passages.

Offline splits: zh_refine (300 questions), zh_int, zh_fact, en_fact and the 50-record
partial/en_head50.json (flagged partial); en_refine/en_int when fetched with internet access. A
question's candidates are its `positive` passages (zh_int's groups flattened) and its `negative`
ones; en/zh_fact's `positive_wrong` (planted counterfactual copies) are left out, as they are
neither relevant nor ordinary noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.errors import DataError
from leaderboard.core.types import Ability, Lang
from leaderboard.data.manifest import FETCH_COMMAND, file_blob_sha1, lang_dir, manifest
from leaderboard.data.records import kind_for_name, load_records
from leaderboard.data.splits import resolve_split, split_file_name

SPLITS = ("refine", "int", "fact", "partial")
_ABILITY: dict[str, Ability] = {
    "refine": "noise",
    "int": "integration",
    "fact": "counterfactual",
}


@dataclass(frozen=True)
class Question:
    qid: str  # the record id, as text (ir-measures ids are strings)
    query: str
    answers: tuple[tuple[str, ...], ...]  # answer elements, each a tuple of alternatives
    positives: tuple[str, ...]
    negatives: tuple[str, ...]


@dataclass(frozen=True)
class RetrievalSplit:
    lang: str
    name: str  # e.g. "zh_refine", "en_head50"
    file: str  # path under data_<lang>/
    partial: bool
    blob_id: str  # git blob id of the bytes read
    questions: tuple[Question, ...]


def _answers(answer) -> tuple[tuple[str, ...], ...]:
    return tuple((a,) if isinstance(a, str) else tuple(a) for a in answer)


def _flatten(positive) -> tuple[str, ...]:
    out: list[str] = []
    for p in positive:
        out.extend([p] if isinstance(p, str) else p)
    return tuple(out)


def _partial_file(root: Path, lang: str) -> tuple[Path, str, str]:
    entries = [e for e in manifest(lang) if e.role == "partial"]
    if not entries:
        raise DataError(f"--split partial: there is no partial file for {lang} (only for en)")
    e = entries[0]
    path = lang_dir(root, lang) / e.name
    if not path.is_file():
        raise DataError(f"{path} is missing: run `{FETCH_COMMAND}` (or `--from DIR`)")
    blob = file_blob_sha1(path)
    if blob != e.blob_id:
        raise DataError(f"{path}: git blob {blob} is not the manifest's {e.blob_id}; refetch it")
    return path, e.name, blob


def load_retrieval_split(
    root: Path, lang: Lang, split: str, limit: int | None = None
) -> RetrievalSplit:
    """The split's questions (the first `limit` of them); DataError with the fix when missing."""
    if lang not in ("zh", "en"):
        raise DataError(f"--lang {lang!r}: use zh or en")
    if split not in SPLITS:
        raise DataError(f"--split {split!r}: use one of {', '.join(SPLITS)}")
    if split == "partial":
        path, name, blob = _partial_file(root, lang)
        partial = True
    else:
        official = lang_dir(root, lang) / split_file_name(lang, _ABILITY[split])
        if not official.is_file():
            raise DataError(
                f"{official} is missing: run `{FETCH_COMMAND}` (en_refine and en_int need "
                "internet access), or pick a split that is there (en: --split fact or partial)"
            )
        src = resolve_split(root, lang, _ABILITY[split])
        path, name, blob, partial = src.path, src.name, src.file_blob_id or "", False
    records = load_records(path, kind=kind_for_name(name))
    questions = tuple(
        Question(
            qid=str(r.id),
            query=r.query,
            answers=_answers(r.answer),
            positives=_flatten(r.positive),
            negatives=tuple(r.negative),
        )
        for r in records
    )
    if limit is not None:
        questions = questions[:limit]
    if not questions:
        raise DataError(f"{path}: no questions to rank (empty split or --limit 0)")
    stem = Path(name).name.removesuffix(".json")
    return RetrievalSplit(lang, stem, name, partial, blob, questions)

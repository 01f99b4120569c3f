"""RGB splits: which verified file each (language, ability) is read from, and validated loading.

Which file backs a split is a decision (official, refined variant, the partial English stand-in);
`resolve_split` makes it once and `load_split` returns the validated records with that decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from leaderboard.core.errors import DataError
from leaderboard.core.types import Ability, Lang, Record
from leaderboard.data.manifest import (
    FETCH_COMMAND,
    ManifestEntry,
    entry,
    file_blob_sha1,
    lang_dir,
    manifest,
)
from leaderboard.data.records import kind_for_ability, load_records

Variant = Literal["refine", "original"]

# The data file family an ability's questions come from: noise and rejection ask the same refine
# questions, so a question there is one resampling cluster (leaderboard.stats.cells.cluster_of).
ROLE_OF_ABILITY: dict[str, str] = {
    "noise": "noise_rejection",
    "rejection": "noise_rejection",
    "integration": "integration",
    "counterfactual": "counterfactual",
    # the probes ask the noise split's questions (one question per record, answers in passages)
    "chain": "noise_rejection",
    "replacement": "noise_rejection",
    # the closed-book probes ask a file's questions with no passage
    "closedbook": "noise_rejection",
    "closedbook_fact": "counterfactual",
    # the conflict track mixes the fact file's true and altered passages
    "conflict": "counterfactual",
}
_NOISE_FILE = ("noise", "rejection", "chain", "replacement", "closedbook")


@dataclass(frozen=True)
class SplitSource:
    """The file an (language, ability) split is read from, and how trustworthy it is."""

    lang: Lang
    ability: Ability
    variant: Variant
    path: Path
    name: str  # e.g. "zh_refine.json" or "partial/en_head50.json"
    complete: bool  # False for a partial stand-in
    blob_id: str | None  # verified official git blob id, None when not an official file
    expected_n: int  # records in the official split (for a stand-in: in the file it replaces)
    file_blob_id: str | None = (
        None  # git blob id of the bytes actually read (also for partial files)
    )
    n_records: int | None = None  # records in the file read (= expected_n for official files)


# ------------------------------------------------------------------------------------------ splits


def split_file_name(lang: Lang, ability: Ability, variant: Variant = "refine") -> str:
    """The official file an ability is evaluated on (`variant` only matters for noise/rejection)."""
    if ability not in ROLE_OF_ABILITY:
        raise DataError(f"unknown ability {ability!r}: use one of {', '.join(ROLE_OF_ABILITY)}")
    if variant not in ("refine", "original"):
        raise DataError(f"unknown variant {variant!r}: use 'refine' or 'original'")
    if ability == "integration":
        return f"{lang}_int.json"
    if ability in ("counterfactual", "closedbook_fact", "conflict"):
        return f"{lang}_fact.json"
    return f"{lang}_refine.json" if variant == "refine" else f"{lang}.json"


def _partial_for(lang: Lang, ability: Ability) -> ManifestEntry | None:
    if ability not in _NOISE_FILE:
        return None
    return next((e for e in manifest(lang) if e.role == "partial"), None)


def _verified_path(root: Path, e: ManifestEntry) -> tuple[Path, str] | None:
    """The file's path and blob id if present; DataError if present but not the expected bytes."""
    path = lang_dir(root, e.lang) / e.name
    if not path.is_file():
        return None
    blob = file_blob_sha1(path)
    if blob != e.blob_id:
        raise DataError(
            f"{path}: git blob {blob} does not match the manifest ({e.blob_id}); the file is "
            f"corrupted or not the official one. Delete it and run `{FETCH_COMMAND}` "
            f"(or `{FETCH_COMMAND} --from DIR`)."
        )
    return path, blob


def _missing_message(root: Path, lang: Lang, name: str, ability: Ability, partial: bool) -> str:
    path = lang_dir(root, lang) / name
    msg = (
        f"{path} is missing (needed for {lang} {ability}). Run `{FETCH_COMMAND}` to download it "
        f"(or `{FETCH_COMMAND} --from DIR` to copy it from a local folder), or pass --data-dir."
    )
    if lang == "en" and name in ("en_refine.json", "en_int.json", "en.json"):
        msg += (
            f" {name} is not in the local copy it was fetched from; `{FETCH_COMMAND}` with "
            "internet access downloads it."
            " Restrict the run to the available splits"
        )
        msg += (
            ", or pass --allow-partial-data to use partial/en_head50.json (first 50 records of "
            "en.json)."
            if partial
            else "."
        )
    return msg


def resolve_split(
    root: Path,
    lang: Lang,
    ability: Ability,
    variant: Variant = "refine",
    allow_partial: bool = False,
) -> SplitSource:
    """Which verified file a split is read from; with allow_partial, en noise/rejection may use the
    50-record stand-in (marked complete=False) when the official file is missing."""
    name = split_file_name(lang, ability, variant)
    e = entry(lang, name)
    partial = _partial_for(lang, ability)
    # the official file, then (when allowed) the stand-in
    for read in [e, partial] if allow_partial and partial is not None else [e]:
        found = _verified_path(root, read)
        if found is None:
            continue
        path, blob = found
        official = read is e
        official_blob = blob if official else None
        return SplitSource(
            lang, ability, variant, path, read.name, official, official_blob, e.records, blob,
            read.records,
        )  # fmt: skip
    raise DataError(_missing_message(root, lang, name, ability, partial is not None))


def load_split(
    root: Path,
    lang: Lang,
    ability: Ability,
    variant: Variant = "refine",
    allow_partial: bool = False,
) -> tuple[SplitSource, tuple[Record, ...]]:
    """resolve_split + load_records with the record shape the ability needs."""
    src = resolve_split(root, lang, ability, variant, allow_partial)
    return src, load_records(src.path, kind=kind_for_ability(ability))

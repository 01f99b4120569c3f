"""`rgb-leaderboard predictions repair`: bring recorded predictions to what the current decoding
writes, deterministically, and record that it was done.

The one repair so far: generation that stopped inside a multi-byte character left a U+FFFD at the
end of the text (leaderboard.core.text). Every line of the folder's predictions (.gz, then
.jsonl, in order, duplicates kept) is read; a prediction ending in U+FFFD loses it, gets
`trimmed_incomplete_char: true` and `repaired_by: REPAIR_ID`; everything else is written back
unchanged. The result replaces predictions.jsonl.gz atomically (the plain file is folded into it).
The caller then rescores results.json (trust.verify) and records the repair in its provenance.
Running it again finds nothing to do and writes nothing.
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.core.errors import ResultsError
from leaderboard.core.files import _parse_lines, fsync_dir, read_gz_lines
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.text import REPLACEMENT, drop_incomplete_tail
from leaderboard.run.store import RunStore

REPAIR_ID = "incomplete-trailing-char/1"


@dataclass
class RepairSummary:
    folder: Path
    lines: int = 0
    trimmed: list[str] = field(default_factory=list)  # keys whose last character was dropped
    mid_text: list[str] = field(default_factory=list)  # keys with a U+FFFD inside (kept)

    def as_dict(self) -> dict[str, object]:
        return {
            "step": REPAIR_ID,
            "lines": self.lines,
            "trimmed_incomplete_char": len(self.trimmed),
            "replacement_char_inside_kept": len(self.mid_text),
        }


def repair_record(rec: PredictionRecord) -> PredictionRecord:
    """The record as the current decoding would have written it (the same object if unchanged)."""
    text, trimmed = drop_incomplete_tail(rec.prediction)
    if not trimmed:
        return rec
    return rec.model_copy(
        update={"prediction": text, "trimmed_incomplete_char": True, "repaired_by": REPAIR_ID}
    )


def _read_lines(store: RunStore) -> list[PredictionRecord]:
    """Every line of the merged files in order, duplicates included (the readers' parser)."""
    out: list[PredictionRecord] = []
    for path in (store.gz_path, store.plain_path):
        if not path.exists():
            continue
        lines = read_gz_lines(path) if path.suffix == ".gz" else path.read_bytes().splitlines(True)
        for item in _parse_lines(path, lines, tolerate_tail=False):
            out.append(item)  # type: ignore[arg-type]
    return out


def repair_folder(folder: Path, dry_run: bool = False) -> RepairSummary:
    """Repair every prediction line of a submission folder (see the module docstring)."""
    folder = Path(folder)
    store = RunStore(folder)
    if store.shard_paths():
        raise ResultsError(
            f"{folder}: data-parallel shards are present (a run is going on or crashed); finish "
            "the run (rerun it) before repairing"
        )
    records = _read_lines(store)
    if not records:
        raise ResultsError(f"{folder}: no predictions to repair")
    summary = RepairSummary(folder, lines=len(records))
    repaired = []
    for rec in records:
        new = repair_record(rec)
        if new is not rec:
            summary.trimmed.append(rec.key)
        if REPLACEMENT in new.prediction:
            summary.mid_text.append(rec.key)
        repaired.append(new)
    if summary.trimmed and not dry_run:
        _write_gz(store, repaired)
    return summary


def _write_gz(store: RunStore, records: list[PredictionRecord]) -> None:
    """All records into predictions.jsonl.gz (temporary file + rename), then drop the plain file."""
    gz_path, plain_path, folder = store.gz_path, store.plain_path, store.folder
    tmp = gz_path.with_name(gz_path.name + ".tmp")
    data = "".join(r.model_dump_json() + "\n" for r in records).encode("utf-8")
    with open(tmp, "wb") as out:
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
            gz.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, gz_path)
    fsync_dir(folder)
    if plain_path.exists():
        plain_path.unlink()
        fsync_dir(folder)

"""Releases of the board: a frozen, citable state of every entry's results, and what changed
between two of them.

A release is a folder `releases/<id>/` holding `release.json` (the id, the date, the scoring
versions, the data files' blob ids, every entry with its fingerprint and the sha256 of its
results.json, and the CHANGELOG lines present when it was cut), `board.json` and `board.csv` (every
score of every entry at that release, the CSV spreadsheet-safe through board/export). Nothing in
a release is recomputed later: a rescored entry, a new entry or a removed one shows up as a
difference against the previous release (`compare`), with the CHANGELOG lines added since that
name the entry, and every score that moved out of its earlier interval.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from leaderboard.board.export import to_csv
from leaderboard.board.export import to_json as frame_json
from leaderboard.board.frames import board_from
from leaderboard.board.load import SiteData
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.safe_io import json_loads, read_text

RELEASES_DIR = "releases"
RELEASE_FILE = "release.json"
BOARD_JSON = "board.json"
BOARD_CSV = "board.csv"
FORMAT = "board-release-v1"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# the score columns a release keeps (board.frames scores)
SCORE_KEY = ("model", "lang", "ability", "mode", "metric")


@dataclass(frozen=True)
class ReleasedEntry:
    id: str
    display_name: str
    fingerprint: str
    scoring_version: str | None
    results_sha256: str
    track: str


@dataclass(frozen=True)
class Release:
    id: str
    date: str  # YYYY-MM-DD
    scoring_versions: tuple[str, ...]
    data_blob_ids: dict[str, str]
    entries: tuple[ReleasedEntry, ...]
    changelog: tuple[str, ...]  # the CHANGELOG bullet lines when the release was cut
    digest: str  # sha256 of the above (entries and data): two equal boards share it
    scores: pd.DataFrame = field(repr=False, compare=False, default_factory=pd.DataFrame)

    def manifest(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "id": self.id,
            "date": self.date,
            "digest": self.digest,
            "scoring_versions": list(self.scoring_versions),
            "data_blob_ids": dict(sorted(self.data_blob_ids.items())),
            "entries": [e.__dict__ for e in self.entries],
            "changelog": list(self.changelog),
        }


@dataclass(frozen=True)
class Moved:
    entry: str
    lang: str
    ability: str
    mode: str
    before: float
    after: float
    interval: tuple[float, float]  # the earlier release's interval, which `after` is outside


@dataclass(frozen=True)
class Rescored:
    entry: str
    reason: str  # "rescored" (same answers) or "rerun" (other settings: a new fingerprint)
    changelog: tuple[str, ...]  # the CHANGELOG lines added since the previous release naming it
    changed: int = 0  # its values (every metric) that differ between the two releases


@dataclass(frozen=True)
class Changes:
    previous: str | None
    current: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    rescored: tuple[Rescored, ...] = ()
    moved: tuple[Moved, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.rescored or self.moved)


def check_id(release_id: str) -> str:
    if not _ID.match(release_id):
        raise LeaderboardError(
            f"release id {release_id!r}: use letters, digits, '.', '_' or '-' (at most 64, "
            "starting with a letter or digit), e.g. 2026.12.0"
        )
    return release_id


def changelog_lines(text: str) -> tuple[str, ...]:
    """The bullet lines of CHANGELOG.md ("- ..."), in file order."""
    return tuple(line[2:].strip() for line in text.splitlines() if line.startswith("- "))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest(entries: list[ReleasedEntry] | tuple[ReleasedEntry, ...], blobs: dict[str, str]) -> str:
    """The release digest: sha256 of the entries and the data files' blob ids, so two releases of
    the same board share it and `verify` can recompute it from what a release names."""
    body = json.dumps(
        {"entries": [x.__dict__ for x in entries], "data": sorted(blobs.items())}, sort_keys=True
    )
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def freeze(data: SiteData, release_id: str, date: str, changelog: str = "") -> Release:
    """The board of `data` as release `release_id` (nothing written)."""
    board = board_from(data)
    entries = []
    blobs: dict[str, str] = {}
    versions = set()
    tracks = dict(zip(board.models["model"], board.models["track"], strict=True))
    for e in data.submissions:
        prov = e.results.provenance
        blobs.update(prov.data_blob_ids)
        if prov.scoring_version:
            versions.add(prov.scoring_version)
        entries.append(
            ReleasedEntry(
                id=e.id,
                display_name=e.results.display_name,
                fingerprint=prov.fingerprint,
                scoring_version=prov.scoring_version,
                results_sha256=_sha256(e.dir / "results.json"),
                track=str(tracks.get(e.id, "model")),
            )
        )
    scores = board.scores.astype({c: str for c in ("lang", "ability", "mode")})
    return Release(
        id=check_id(release_id),
        date=date,
        scoring_versions=tuple(sorted(versions)),
        data_blob_ids=blobs,
        entries=tuple(entries),
        changelog=changelog_lines(changelog),
        digest=digest(entries, blobs),
        scores=scores.reset_index(drop=True),
    )


def release_dir(root: Path, release_id: str) -> Path:
    return Path(root) / RELEASES_DIR / check_id(release_id)


def write_release(root: Path, release: Release) -> Path:
    """releases/<id>/{release.json, board.json, board.csv}; an existing release is never
    overwritten (a release is frozen: cut another one)."""
    folder = release_dir(root, release.id)
    if folder.exists():
        raise LeaderboardError(
            f"{folder}: release {release.id} exists already; a release is frozen, cut a new one"
        )
    folder.mkdir(parents=True)
    manifest = json.dumps(release.manifest(), ensure_ascii=False, indent=1) + "\n"
    (folder / RELEASE_FILE).write_text(manifest, encoding="utf-8")
    scores = release.scores.assign(release=release.id)
    (folder / BOARD_JSON).write_text(frame_json(scores), encoding="utf-8")
    (folder / BOARD_CSV).write_text(to_csv(scores), encoding="utf-8")
    return folder


def read_release(folder: Path) -> Release:
    path = folder / RELEASE_FILE
    doc = json_loads(read_text(path, LeaderboardError), str(path), LeaderboardError)
    try:
        scores_doc = json.loads((folder / BOARD_JSON).read_text(encoding="utf-8"))
        entries = tuple(ReleasedEntry(**e) for e in doc["entries"])
        return Release(
            id=doc["id"],
            date=doc["date"],
            scoring_versions=tuple(doc["scoring_versions"]),
            data_blob_ids=dict(doc["data_blob_ids"]),
            entries=entries,
            changelog=tuple(doc.get("changelog", ())),
            digest=doc["digest"],
            scores=pd.DataFrame(scores_doc),
        )
    except (KeyError, TypeError, ValueError, OSError) as exc:
        raise LeaderboardError(f"{folder}: not a board release ({exc})") from None


def read_releases(root: Path) -> tuple[Release, ...]:
    """Every release under root/releases/, oldest first (by date, then id)."""
    base = Path(root) / RELEASES_DIR
    if not base.is_dir():
        return ()
    found = [read_release(p) for p in base.iterdir() if (p / RELEASE_FILE).is_file()]
    return tuple(sorted(found, key=lambda r: (r.date, r.id)))


def _names(e: ReleasedEntry) -> tuple[str, ...]:
    """How a CHANGELOG line may name an entry: its id, its display name, or that name without
    the parenthesis ("Qwen2.5-Coder-1.5B-Instruct" for "... (Q4_K_M GGUF)")."""
    short = e.display_name.split(" (")[0].strip()
    return tuple(n.lower() for n in {e.id, e.display_name, short} if len(n) >= 4)


def _explaining(e: ReleasedEntry, lines: tuple[str, ...]) -> tuple[str, ...]:
    """The lines that name the entry, or the scoring version it was rescored to: a rescore of
    every entry is one line ("every results.json rescored (3e9a5e9da702307b)"), not one each."""
    names = _names(e)
    if e.scoring_version:
        names += (e.scoring_version.lower(),)
    return tuple(line for line in lines if any(n in line.lower() for n in names))


def _indexed(scores: pd.DataFrame) -> dict[tuple, tuple[float, float, float]]:
    if scores.empty:
        return {}
    rows = scores[scores["metric"] == "score"]
    out = {}
    for r in rows.itertuples(index=False):
        key = tuple(str(getattr(r, k)) for k in SCORE_KEY)
        out[key] = (float(r.value), float(r.ci_low), float(r.ci_high))
    return out


def _values(scores: pd.DataFrame) -> dict[tuple, float | None]:
    """Every value of a release (all metrics), by key; a missing value is None."""
    if scores.empty:
        return {}
    out = {}
    for r in scores.itertuples(index=False):
        key = tuple(str(getattr(r, k)) for k in SCORE_KEY)
        value = r.value
        out[key] = None if value is None or value != value else float(value)
    return out


def changed_values(previous: Release, current: Release) -> dict[str, int]:
    """Per entry, how many of its values differ between the two releases (a value added or
    removed counts): a rescore that changed none is no change for a reader."""
    old, new = _values(previous.scores), _values(current.scores)
    counts: dict[str, int] = {}
    for key in set(old) | set(new):
        if old.get(key, "absent") != new.get(key, "absent"):
            counts[key[0]] = counts.get(key[0], 0) + 1
    return counts


def compare(previous: Release | None, current: Release) -> Changes:
    """What changed from `previous` to `current`: entries added and removed, entries whose
    results changed (rescored: same answers; rerun: another fingerprint) with the CHANGELOG lines
    added since that name them and how many of their values changed, and every score now
    outside its interval at `previous`."""
    if previous is None:
        return Changes(None, current.id, added=tuple(e.id for e in current.entries))
    before = {e.id: e for e in previous.entries}
    after = {e.id: e for e in current.entries}
    new_lines = tuple(line for line in current.changelog if line not in set(previous.changelog))
    rescored = []
    counts = changed_values(previous, current)
    for key in sorted(set(before) & set(after)):
        a, b = before[key], after[key]
        if a.results_sha256 == b.results_sha256:
            continue
        reason = "rescored" if a.fingerprint == b.fingerprint else "rerun"
        rescored.append(Rescored(key, reason, _explaining(b, new_lines), counts.get(key, 0)))
    old, new = _indexed(previous.scores), _indexed(current.scores)
    moved = []
    for key in sorted(set(old) & set(new)):
        (v0, lo, hi), (v1, _, _) = old[key], new[key]
        if any(x != x for x in (v0, lo, hi, v1)):  # NaN: no value or no interval
            continue
        if v1 < lo or v1 > hi:
            model, lang, ability, mode, _ = key
            moved.append(Moved(model, lang, ability, mode, v0, v1, (lo, hi)))
    return Changes(
        previous.id,
        current.id,
        added=tuple(sorted(set(after) - set(before))),
        removed=tuple(sorted(set(before) - set(after))),
        rescored=tuple(rescored),
        moved=tuple(moved),
    )


def history(releases: tuple[Release, ...]) -> tuple[tuple[Release, Changes], ...]:
    """Each release with what changed since the one before it, oldest first."""
    out = []
    previous = None
    for r in releases:
        out.append((r, compare(previous, r)))
        previous = r
    return tuple(out)


def current_release(data: SiteData, releases: tuple[Release, ...]) -> tuple[Release | None, bool]:
    """The latest release and whether the board is still exactly that release (every entry's
    results.json unchanged, none added or removed)."""
    if not releases:
        return None, False
    latest = releases[-1]
    now = {e.id: _sha256(e.dir / "results.json") for e in data.submissions}
    then = {e.id: e.results_sha256 for e in latest.entries}
    return latest, now == then

"""`verify` for releases: every number a release shows re-derived from the results.json files it
names.

A release is frozen (board/release), so it cannot be recomputed from today's entries; what it can
be checked against is what it names. For each `releases/<id>/`:

- each entry's results.json is found by the sha256 the release recorded: the file in the working
  tree when it is unchanged since, else the file in the commit that added the release (git); an
  entry whose file is in neither is reported, and without git history (a shallow or exported
  copy) the line says the entries it could not reach instead of failing;
- every score row of board.json equals the scores of those files (the same rows, value, interval,
  n, complete: exact, JSON floats round-trip), and so does every row of board.csv;
- the fingerprints, scoring versions, data blob ids and the digest in release.json follow from
  them.

The raw JSON of an old results.json is read (its `scores` and `provenance`), not the current
schema: a release cut before a schema change stays checkable.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

from leaderboard.board.export import spreadsheet_safe
from leaderboard.board.frames import score_row
from leaderboard.board.release import (
    BOARD_CSV,
    BOARD_JSON,
    RELEASE_FILE,
    RELEASES_DIR,
    Release,
    digest,
    read_release,
)
from leaderboard.core.checks import same
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.safe_io import json_loads
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.submission import is_slug

_FIELDS = ("lang", "ability", "mode", "metric")
_NUMBERS = ("value", "ci_low", "ci_high")


def is_release_target(path: Path) -> bool:
    """A releases/<id>/ folder or the releases/ folder itself."""
    path = Path(path)
    return (path / RELEASE_FILE).is_file() or (
        path.name == RELEASES_DIR and any(path.glob(f"*/{RELEASE_FILE}"))
    )


def release_folders(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        out += (
            [p]
            if (p / RELEASE_FILE).is_file()
            else sorted(q.parent for q in p.glob(f"*/{RELEASE_FILE}"))
        )
    return out


@dataclass(frozen=True)
class ReleaseCheck:
    folder: Path
    problems: tuple[str, ...]
    unreachable: tuple[str, ...]  # entries whose results.json no history here holds
    from_git: int  # entries read from the release's commit
    rows: int

    @property
    def ok(self) -> bool:
        return not self.problems

    def render(self, release: Release) -> str:
        where = f" ({self.from_git} from the commit that added it)" if self.from_git else ""
        if self.problems:
            return f"FAILED: {self.folder}: " + "; ".join(self.problems)
        reached = len(release.entries) - len(self.unreachable)
        line = (
            f"ok: {self.folder}: {self.rows} scores of {reached}"
            f" entries re-derived from the results.json files it names{where}; digest "
            f"{release.digest}"
        )
        if self.unreachable:
            line += (
                f"; not re-derived: {', '.join(self.unreachable)} (their results.json of that "
                "release is not in this checkout and no git history holds it)"
            )
        return line


def _git(repo: Path, *args: str) -> bytes | None:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def _release_commit(repo: Path, folder: Path) -> str | None:
    rel = (folder / RELEASE_FILE).resolve().relative_to(repo)
    out = _git(repo, "log", "--diff-filter=A", "--format=%H", "-1", "--", str(rel))
    return out.decode().strip() or None if out else None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _score_rows(entry_id: str, doc: object) -> list[dict[str, object]]:
    """The rows board/frames makes of a results.json's scores (only its `scores` are validated:
    the rest of an old file may predate today's schema)."""
    scores = doc.get("scores", []) if isinstance(doc, dict) else []
    return [score_row(entry_id, ScoreEntry.model_validate(s)) for s in scores]


def _same(a: object, b: object) -> bool:
    """core.checks.same; a missing number (JSON null, CSV empty, NaN) equals a missing one."""
    missing = [x is None or (isinstance(x, float) and math.isnan(x)) for x in (a, b)]
    return all(missing) or (not any(missing) and same(a, b))


def _key(row: dict[str, object]) -> tuple[str, ...]:
    return tuple(str(row[k]) for k in ("model", *_FIELDS))


def _compare(name: str, expected: list[dict], got: list[dict]) -> list[str]:
    """Rows of a board file against the rows re-derived; at most a few differences named."""
    want = {_key(r): r for r in expected}
    have = {_key(r): r for r in got}
    problems = []
    for key in sorted(set(want) ^ set(have))[:3]:
        side = "missing from" if key in want else "not derived from any results.json, in"
        problems.append(f"{name}: score {'/'.join(key)} {side} the file")
    for key in sorted(set(want) & set(have)):
        for col in (*_NUMBERS, "n_questions", "complete"):
            if not _same(want[key][col], have[key][col]):
                problems.append(
                    f"{name}: {'/'.join(key)} {col} is {have[key][col]!r}, its results.json "
                    f"says {want[key][col]!r}"
                )
                break
        if len(problems) >= 5:
            break
    return problems


def _csv_rows(text: str) -> list[dict[str, object]]:
    """board.csv's rows with the types board.json has (read by the csv module: float() of the
    written repr is exact on every Python, which a CSV parser's own float reading need not be)."""
    rows = []
    for r in csv.DictReader(io.StringIO(text)):
        row: dict[str, object] = {k: _unsafe(v) for k, v in r.items()}
        for col in _NUMBERS:
            row[col] = math.nan if r[col] == "" else float(r[col])
        row["n_questions"] = int(r["n_questions"])
        row["complete"] = r["complete"] == "True"
        rows.append(row)
    return rows


def _unsafe(text: str) -> str:
    """A text cell as it was before board/export made it spreadsheet-safe."""
    return text[1:] if text.startswith("'") and spreadsheet_safe(text[1:]) != text[1:] else text


def check_release(folder: Path) -> tuple[Release, ReleaseCheck]:
    """One release against the results.json files it names (see the module docstring); the
    repository is the one holding releases/<id>/."""
    repo = Path(folder).resolve().parents[1]
    release = read_release(folder)
    problems: list[str] = []
    unreachable: list[str] = []
    commit: str | None = None
    looked_up = False
    from_git = 0
    expected: list[dict[str, object]] = []
    blobs: dict[str, str] = {}
    versions: set[str] = set()
    for e in release.entries:
        if not is_slug(e.id):  # a path is built from it: never outside submissions/
            problems.append(f"release.json: entry id {e.id!r} is not a submission id")
            continue
        path = repo / "submissions" / e.id / "results.json"
        data = path.read_bytes() if path.is_file() else None
        if data is None or _sha256(data) != e.results_sha256:
            if not looked_up:
                commit, looked_up = _release_commit(repo, folder), True
            data = (
                _git(repo, "show", f"{commit}:submissions/{e.id}/results.json") if commit else None
            )
            if data is None:
                unreachable.append(e.id)
                continue
            if _sha256(data) != e.results_sha256:
                problems.append(
                    f"{e.id}: its results.json in {commit[:12] if commit else '?'} has sha256 "
                    f"{_sha256(data)[:16]}…, the release says {e.results_sha256[:16]}…"
                )
                continue
            from_git += 1
        doc = json_loads(data, str(path), LeaderboardError, constants=True)
        prov = doc.get("provenance", {}) if isinstance(doc, dict) else {}
        if prov.get("fingerprint") != e.fingerprint:
            problems.append(f"{e.id}: fingerprint {e.fingerprint} is not its results.json's")
        if prov.get("scoring_version") != e.scoring_version:
            problems.append(
                f"{e.id}: scoring version {e.scoring_version} is not its results.json's"
            )
        if prov.get("scoring_version"):
            versions.add(prov["scoring_version"])
        blobs.update(prov.get("data_blob_ids") or {})
        expected += _score_rows(e.id, doc)
    if unreachable:
        reachable = {e.id for e in release.entries} - set(unreachable)
        expected = [r for r in expected if r["model"] in reachable]
    scores = json.loads((folder / BOARD_JSON).read_text(encoding="utf-8"))
    csv_rows = _csv_rows((folder / BOARD_CSV).read_text(encoding="utf-8"))
    if unreachable:
        scores = [r for r in scores if r["model"] not in unreachable]
        csv_rows = [r for r in csv_rows if r["model"] not in unreachable]
    problems += _compare(BOARD_JSON, expected, scores)
    problems += _compare(BOARD_CSV, expected, csv_rows)
    if not unreachable:
        if tuple(sorted(versions)) != tuple(release.scoring_versions):
            problems.append("release.json: scoring_versions are not those of its entries")
        if blobs != release.data_blob_ids:
            problems.append("release.json: data_blob_ids are not those of its entries")
        if digest(release.entries, blobs) != release.digest:
            problems.append(
                f"release.json: digest {release.digest} does not follow from its entries"
            )
    check = ReleaseCheck(folder, tuple(problems), tuple(unreachable), from_git, len(expected))
    return release, check


def verify_releases(folders: list[Path]) -> tuple[list[str], int]:
    """One line per release (ok, or FAILED naming what differs) and the number that failed."""
    lines, failed = [], 0
    for folder in release_folders(folders):
        try:
            release, check = check_release(folder)
        except (LeaderboardError, OSError, KeyError, TypeError, ValueError) as exc:
            # pydantic's ValidationError is a ValueError; its first line names the field
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            lines.append(f"FAILED: {folder}: not a readable release ({first})")
            failed += 1
            continue
        lines.append(check.render(release))
        failed += not check.ok
    return lines, failed

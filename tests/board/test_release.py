"""board.release: a release freezes every entry's results; rescoring one entry shows up on the
next release as a change, with the CHANGELOG line that names it and the scores that moved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.board.release import (
    compare,
    current_release,
    freeze,
    history,
    read_releases,
    write_release,
)
from leaderboard.core.errors import LeaderboardError
from tests.site_factory import make_repo

CHANGELOG = "# Changelog\n\n## [Unreleased]\n- An earlier change.\n"


def _rescore(root: Path, sub_id: str, delta: float) -> None:
    """What `rgb-leaderboard rescore` leaves: the same answers (fingerprint), results.json
    rewritten with another scoring version and other numbers, the rescore recorded."""
    path = root / "submissions" / sub_id / "results.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["provenance"]["scoring_version"] = "rescored-0001"
    doc["provenance"]["extra"]["rescored"] = [{"command": f"rgb-leaderboard rescore {sub_id}"}]
    for s in doc["scores"]:
        if s["value"] is not None and s["metric"] == "score" and s["lang"] in ("zh", "en"):
            s["value"] = min(1.0, s["value"] + delta)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def test_rescoring_one_entry_is_a_change_on_the_next_release(tmp_path):
    root = make_repo(tmp_path, n_models=3, n=4, predictions=False)
    first = freeze(
        load_site_data(root, with_predictions=False), "2026.12.0", "2026-12-01", CHANGELOG
    )
    write_release(root, first)
    assert compare(None, first).added == ("model-000", "model-001", "model-002")
    data = load_site_data(root, with_predictions=False)
    assert current_release(data, read_releases(root)) == (read_releases(root)[0], True)

    _rescore(root, "model-001", 0.5)
    line = "model-001 rescored: the strict scorer now reads full-width digits."
    second = freeze(
        load_site_data(root, with_predictions=False),
        "2026.12.1",
        "2026-12-02",
        CHANGELOG + f"- {line}\n",
    )
    write_release(root, second)
    releases = read_releases(root)
    assert [r.id for r in releases] == ["2026.12.0", "2026.12.1"]
    changes = history(releases)[1][1]
    assert changes.previous == "2026.12.0" and not changes.added and not changes.removed
    assert [(r.entry, r.reason, r.changelog) for r in changes.rescored] == [
        ("model-001", "rescored", (line,))
    ]
    assert changes.rescored[0].changed > 0  # its zh and en scores moved
    assert changes.moved and {m.entry for m in changes.moved} == {"model-001"}
    assert all(m.after > m.interval[1] for m in changes.moved)
    assert current_release(load_site_data(root, with_predictions=False), releases)[1]


def test_a_line_naming_the_new_scoring_version_explains_every_rescored_entry(tmp_path):
    """A rescore of the whole board is one CHANGELOG line naming the new scoring version, not
    one line per entry; the Releases page must still say why each entry changed."""
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    first = freeze(load_site_data(root, with_predictions=False), "r1", "2026-12-01", CHANGELOG)
    for sub_id in ("model-000", "model-001"):
        _rescore(root, sub_id, 0.0)
    line = "Every results.json rescored for the new scoring version (rescored-0001)."
    data = load_site_data(root, with_predictions=False)
    second = freeze(data, "r2", "2026-12-02", CHANGELOG + f"- {line}\n- Unrelated.\n")
    assert [(r.entry, r.changelog, r.changed) for r in compare(first, second).rescored] == [
        ("model-000", (line,), 0),  # rescored, no value moved: no change for a reader
        ("model-001", (line,), 0),
    ]


def test_a_release_is_frozen_and_its_files_are_spreadsheet_safe(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    data = load_site_data(root, with_predictions=False)
    release = freeze(data, "v1", "2026-12-01")
    folder = write_release(root, release)
    manifest = json.loads((folder / "release.json").read_text(encoding="utf-8"))
    assert manifest["entries"][0]["fingerprint"] == "fp-model-000"
    assert manifest["data_blob_ids"] == {"zh_refine.json": "abc"}
    assert manifest["digest"] == release.digest and len(release.digest) == 16
    csv = (folder / "board.csv").read_text(encoding="utf-8")
    assert csv.splitlines()[0].endswith(",release") and "\n'=" not in csv
    rows = json.loads((folder / "board.json").read_text(encoding="utf-8"))
    assert rows and all(r["release"] == "v1" for r in rows)
    with pytest.raises(LeaderboardError, match="frozen"):
        write_release(root, release)
    with pytest.raises(LeaderboardError, match="release id"):
        freeze(data, "../x", "2026-12-01")
    _rescore(root, "model-000", 0.0)
    assert current_release(load_site_data(root, with_predictions=False), (release,))[1] is False

"""What a release changed, for a reader (site.pages.release_summary), on the repository's own
releases and on releases built from them: new places, scores outside their interval, and a
board-wide rescore that changed nothing said in one line, in both languages."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from leaderboard.board.release import compare, read_releases
from leaderboard.site.pages.release_summary import order, summary_lines

REPO = Path(__file__).resolve().parents[2]


def _releases():
    found = read_releases(REPO)
    assert len(found) >= 2
    return found[0], found[1]


def test_a_rescore_that_changed_nothing_is_one_line() -> None:
    _, second = _releases()
    changes = compare(second, dataclasses.replace(second, id="next"))
    assert changes.rescored == () and not changes.moved
    (line,) = summary_lines(second, second, changes, "en", {})
    assert line == "No change for a reader."


def test_places_and_new_scores_are_named_in_the_readers_language() -> None:
    first, second = _releases()
    changes = compare(first, second)
    names = {e.id: e.display_name for e in second.entries}
    en = summary_lines(first, second, changes, "en", names)
    zh = summary_lines(first, second, changes, "zh", names)
    gained = [m for m in order(second, "zh") if m not in order(first, "zh")]
    if gained:
        assert any(line.startswith("Now with a strict Chinese (zh) overall") for line in en)
        assert any("新获得严格模式中文（zh）总分" in line for line in zh)
    assert len(en) == len(zh)
    for line in zh:  # no identifiers and no English sentence on the first screen
        assert "fingerprint" not in line and "Rescored" not in line
        assert not any(v in line for v in second.scoring_versions)


def test_order_is_best_first_among_models() -> None:
    _, second = _releases()
    ids = order(second, "zh")
    models = {e.id for e in second.entries if e.track == "model"}
    assert ids and set(ids) <= models

"""The conflict track's hand-labelled answers load (100 or more per language, a held-out part),
a malformed line is one error naming file, line and field, and the outcome reader keeps its
agreement with the labels (a rule change that loses it fails here)."""

from __future__ import annotations

import pytest

from leaderboard.core.errors import DataError
from leaderboard.scoring.conflict_labelled import agreement, conflict_labels, parse_line


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_load_with_a_held_out_part(lang: str) -> None:
    items = conflict_labels(lang)
    assert len(items) >= 100
    assert {it.split for it in items} == {"dev", "test"}
    assert all(it.instance.roles and len(it.instance.roles) == 5 for it in items)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_reader_agrees_with_the_labels(lang: str) -> None:
    items = conflict_labels(lang)
    for split in ("dev", "test"):
        assert agreement(items, lang, split).share >= 0.85


def test_bad_line_names_file_line_and_field() -> None:
    with pytest.raises(DataError, match=r"^f.jsonl:3: field label"):
        parse_line(
            '{"id": "x", "lang": "en", "condition": "t1f1", "question": "q", "answer": ["a"], '
            '"fakeanswer": ["b"], "docs": [], "prediction": "a", "split": "dev", '
            '"label": "maybe", "with_true": null, "note": ""}',
            "f.jsonl:3",
            3,
        )

"""The shared reader of every labelled set: one line per fault naming file, line and field."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

from leaderboard.core.errors import DataError
from leaderboard.scoring.labelled import answer_of, labelled_set, read_labelled, validated_line


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    n: int


def _parse(text: str, where: str, index: int) -> _Row:
    return validated_line(_Row, text, where)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "x.jsonl:3: not JSON"),
        ('{"id": "a", "n": "many"}', "x.jsonl:3: field n: "),
        ('{"id": "a", "n": 1, "extra": 2}', "x.jsonl:3: field extra: "),
        ('{"n": 1}', "x.jsonl:3: field id: "),
    ],
)
def test_a_bad_line_names_file_line_and_field(text: str, message: str) -> None:
    with pytest.raises(DataError) as err:
        validated_line(_Row, text, "x.jsonl:3")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_read_labelled_skips_blank_lines_and_stops_on_a_repeated_id() -> None:
    rows = read_labelled(
        "x.jsonl", '{"id": "a", "n": 1}\n\n{"id": "b", "n": 2}\n', _parse, lambda r: r.id
    )
    assert [r.id for r in rows] == ["a", "b"]
    with pytest.raises(DataError, match=r"^leaderboard/scoring/x.jsonl:3: field id: 'a' repeats$"):
        read_labelled(
            "x.jsonl", '{"id": "a", "n": 1}\n\n{"id": "a", "n": 2}', _parse, lambda r: r.id
        )


def test_answer_of_keeps_alternatives_as_tuples() -> None:
    assert answer_of(["a", ["b", "B"]]) == ("a", ("b", "B"))


def test_the_packaged_sets_load() -> None:
    assert labelled_set("zh") and labelled_set("en", "audit")

"""The strict audit's two blind readings (board/audit_annotators.py): the packaged file agrees with
the audit sets, a line whose settled label does not follow from its readings fails naming file,
line and field, and the figures count what the file holds."""

from __future__ import annotations

import json

import pytest

from leaderboard.board.audit_annotators import (
    ANNOTATIONS,
    Annotation,
    annotations,
    annotator_rows,
    check_annotations,
    code_kappa,
    parse_annotation,
)
from leaderboard.core.errors import DataError
from leaderboard.scoring.labelled import read_labelled
from leaderboard.stats.scorer_eval import select

NONE = {"correct": False, "rejected": False, "error_detected": False, "corrected": False}
C = {**NONE, "correct": True}
R = {**NONE, "rejected": True}


def _line(**over: object) -> str:
    row = {
        "id": "zh-dis-m/zh/noise/0.0/1",
        "first": C,
        "second": C,
        "settled": C,
        "adjudicated": False,
        "note_second": "",
        "note_adjudicated": "",
    }
    return json.dumps({**row, **over})


def _read(*lines: str) -> tuple[Annotation, ...]:
    return read_labelled(ANNOTATIONS, "\n".join(lines), parse_annotation, lambda a: a.id)


def test_packaged_annotations_cover_the_disagreement_set_with_its_labels() -> None:
    assert check_annotations() == []
    dis = [i for items in select("all", batch="dis", collection="audit").values() for i in items]
    assert len(annotations()) == len(dis) > 0
    settled = [a for a in annotations().values() if a.adjudicated]
    assert all(not a.same for a in settled) and all(a.note_adjudicated for a in settled)


def test_a_settled_label_carries_the_note_of_whoever_settled_it() -> None:
    """The note beside a label argues for that label: where the third reading settled it, the
    first reader's note (which argued for the other code) is not left in the label file."""
    items = {
        i.id: i for group in select("all", batch="dis", collection="audit").values() for i in group
    }
    settled = [a for a in annotations().values() if a.adjudicated]
    assert settled
    for a in settled:
        assert items[a.id].note == a.note_adjudicated, a.id


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"settled": R}, "settled"),  # two readings agree: the label is theirs
        ({"second": R, "settled": C}, "adjudicated"),  # they differ: a third must settle it
        ({"extra": 1}, "extra"),
        ({"first": {**C, "maybe": True}}, "first.maybe"),
    ],
)
def test_a_bad_line_names_file_line_and_field(over: dict, field: str) -> None:
    with pytest.raises(DataError) as err:
        _read(_line(id="a"), _line(**over))
    assert f"{ANNOTATIONS}:2: field {field}" in str(err.value)


def test_an_id_twice_fails() -> None:
    with pytest.raises(DataError, match="repeats"):
        _read(_line(), _line())


def test_code_kappa_counts_every_label() -> None:
    same = _read(_line(id="a"), _line(id="b", first=R, second=R, settled=R))
    assert code_kappa(list(same)) == pytest.approx(1.0)
    split = _read(
        _line(id="a"),
        _line(id="b", first=R, second=R, settled=R),
        _line(id="c", second=R, settled=R, adjudicated=True, note_adjudicated="x"),
        _line(id="d", first=R, second=C, settled=C, adjudicated=True, note_adjudicated="x"),
    )
    # observed 2/4; chance (2*2 + 2*2) / 16 = 0.5 -> kappa 0
    assert code_kappa(list(split)) == pytest.approx(0.0)
    assert code_kappa([]) is None
    only = _read(_line(id="a"), _line(id="b"))
    assert code_kappa(list(only)) is None  # one code throughout: chance agreement is 1


def test_rows_count_the_file_and_score_the_first_reading() -> None:
    rows = {r["lang"]: r for r in annotator_rows("all")}
    total = rows["all"]
    assert total["n"] == rows["zh"]["n"] + rows["en"]["n"] == len(annotations())
    assert total["agree"] == sum(a.same for a in annotations().values())
    assert total["adjudicated"] == total["n"] - total["agree"]
    lo, hi = total["ci"]
    assert lo <= total["rate"] <= hi
    for mode in ("rgb", "strict"):
        first = total[f"first_{mode}"]
        assert first["n"] == total["n"] and 0 <= first["agree"] <= first["n"]
    test = {r["lang"]: r for r in annotator_rows("test")}["all"]
    assert 0 < test["n"] < total["n"]

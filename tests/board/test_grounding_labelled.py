"""The grounding check's hand-labelled answers: a line is rebuilt into the answer the board scores
(its instance key from its id), a malformed line is one error naming file, line and field, and the
three agreements (category with the passage's role, source, relevance) count what they should.
Cases are data: small synthetic lines, so the tests hold before the real labels are packaged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leaderboard.board.grounding_labelled import (
    MEASURES,
    Compared,
    agreement,
    agreements,
    compare,
    grounding_labels,
    label_comparisons,
    parse_line,
    read_labels,
)
from leaderboard.core.errors import DataError

NOBEL = {
    "question": "Who won the 2022 Nobel Prize in Literature?",
    "answer": ["Annie Ernaux"],
    "docs": [
        "Annie Ernaux won the 2022 Nobel Prize in Literature.",
        "Jon Fosse is a Norwegian writer of plays.",
    ],
}
SEATS = {
    "id": "m/en/rejection/1.0/3",
    "ability": "rejection",
    "question": "How many seats were up for election in the 2022 Senate race?",
    "answer": ["35"],
    "docs": ["The party lost 63 seats in 2010.", "Turnout was high."],
}
ALTERED = {
    "id": "m/en/counterfactual/0.0/2",
    "ability": "counterfactual",
    "fakeanswer": ["Jon Fosse"],
    "docs": [
        "Jon Fosse won the 2022 Nobel Prize in Literature.",
        "Annie Ernaux is a French writer.",
    ],
}
ZH = {
    "id": "m/zh/noise/0.2/5",
    "lang": "zh",
    "question": "2022年诺贝尔文学奖得主是谁？",
    "answer": ["安妮·埃尔诺"],
    "docs": ["2022年诺贝尔文学奖授予法国作家安妮·埃尔诺。", "挪威作家约恩·福瑟以戏剧闻名。"],
}
REFUSAL_EN = "I can not answer the question because of the insufficient information in documents."


def line(**fields: Any) -> str:
    base: dict[str, Any] = {
        "id": "m/en/noise/0.4/1",
        "lang": "en",
        "ability": "noise",
        **NOBEL,
        "fakeanswer": [],
        "prediction": "Annie Ernaux won it.",
        "split": "test",
        "category": "correct_grounded",
        "passages": [1],
        "relevant": True,
        "note": "",
    }
    return json.dumps(base | fields, ensure_ascii=False)


# (case, the line's fields, hand label, check's label, sources (hand, check), relevance (hand,
# check)); None: not compared
CASES = [
    ("correct, grounded", {}, "correct_grounded", "correct_grounded", None, (True, True)),
    (
        "wrong, a name from a noise passage",
        {"prediction": "Jon Fosse won it.", "category": "wrong_from_passage", "passages": [2]},
        "wrong_from_passage/noise",
        "wrong_from_passage/noise",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "invented name",
        {"prediction": "Olga Tokarczuk won it.", "category": "invented", "passages": []},
        "invented",
        "invented",
        ("invented", "invented"),
        (True, True),
    ),
    (
        "refused: no relevance compared",
        {"prediction": REFUSAL_EN, "category": "refused", "passages": [], "relevant": None},
        "refused",
        "refused",
        None,
        None,
    ),
    (
        "rejection, a number copied from noise",
        SEATS | {"prediction": "63 seats.", "category": "wrong_from_passage", "passages": [1]},
        "wrong_from_passage/noise",
        "wrong_from_passage/noise",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "rejection: the label says copied, the check invented",
        SEATS | {"prediction": "42 seats.", "category": "wrong_from_passage", "passages": [2]},
        "wrong_from_passage/noise",
        "invented",
        ("from_passage", "invented"),
        (True, True),
    ),
    (
        "the planted answer from the altered passage",
        ALTERED | {"prediction": "Jon Fosse won it.", "category": "wrong_from_passage"},
        "wrong_from_passage/altered",
        "wrong_from_passage/altered",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "the role differs: gold by hand, noise by the check",
        {"prediction": "Jon Fosse won it.", "category": "wrong_from_passage", "passages": [1]},
        "wrong_from_passage/gold",
        "wrong_from_passage/noise",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "passages of two roles: mixed",
        {"prediction": "Jon Fosse won it.", "category": "wrong_from_passage", "passages": [1, 2]},
        "wrong_from_passage/mixed",
        "wrong_from_passage/noise",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "undetermined by hand, invented by the check: no source compared",
        {"prediction": "The documents say a lot.", "category": "undetermined", "passages": []}
        | {"relevant": False},
        "undetermined",
        "invented",
        None,
        (False, False),
    ),
    (
        "zh, a name from a noise passage",
        ZH | {"prediction": "约恩·福瑟", "category": "wrong_from_passage", "passages": [2]},
        "wrong_from_passage/noise",
        "wrong_from_passage/noise",
        ("from_passage", "from_passage"),
        (True, True),
    ),
    (
        "zh, refused",
        ZH
        | {"prediction": "文档中没有足够的信息，无法回答。", "category": "refused"}
        | {"passages": [], "relevant": None},
        "refused",
        "refused",
        None,
        None,
    ),
    (
        "a question of no fixed type: relevance not compared",
        {"question": "What did Annie Ernaux win in 2022?", "prediction": "The Nobel Prize."}
        | {"answer": ["Nobel Prize"], "passages": [1]},
        "correct_grounded",
        "correct_grounded",
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("fields", "label", "check", "sources", "relevance"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_the_check_beside_the_label(
    fields: dict[str, Any],
    label: str,
    check: str,
    sources: tuple[str, str] | None,
    relevance: tuple[bool, bool] | None,
) -> None:
    c = compare(parse_line(line(**fields), "f.jsonl:1", 1))
    assert (c.label, c.check) == (label, check)
    assert (None if c.label_source is None else (c.label_source, c.check_source)) == sources
    got = None if c.label_relevant is None else (c.label_relevant, c.check_relevant)
    assert got == relevance


def test_the_answer_is_rebuilt_as_the_board_scores_it() -> None:
    item = parse_line(line(**SEATS, prediction="35"), "f.jsonl:1", 1).item
    assert item.instance.key == "en/rejection/1.0/3"
    assert item.error is None and item.scores["strict"].correct
    other = parse_line(line(id="free-form id"), "f.jsonl:7", 7).item
    assert other.instance.key == "en/noise/0.0/7"


# (the line's fields, the error's start)
BAD = [
    ({"category": "copied"}, r"^f\.jsonl:3: field category"),
    ({"extra": 1}, r"^f\.jsonl:3: field extra"),
    ({"passages": [3]}, r"^f\.jsonl:3: field passages: 3 is no passage shown \(1 to 2\)"),
    ({"passages": [0]}, r"^f\.jsonl:3: field passages: 0 is no passage shown"),
    ({"passages": []}, r"^f\.jsonl:3: field passages: correct_grounded names the passages"),
    ({"category": "invented", "passages": [1]}, r"^f\.jsonl:3: field passages: invented takes"),
    ({"category": "refused", "passages": []}, r"^f\.jsonl:3: field relevant: refused takes null"),
    ({"split": "train"}, r"^f\.jsonl:3: field split"),
]


@pytest.mark.parametrize(("fields", "error"), BAD)
def test_bad_line_names_file_line_and_field(fields: dict[str, Any], error: str) -> None:
    with pytest.raises(DataError, match=error):
        parse_line(line(**fields), "f.jsonl:3", 3)


def test_a_file_refuses_a_repeated_id_and_another_language() -> None:
    with pytest.raises(DataError, match=r"grounding_en\.jsonl:2: field id: .* repeats"):
        read_labels("labels/grounding_en.jsonl", line() + "\n" + line() + "\n", "en")
    with pytest.raises(DataError, match=r"grounding_zh\.jsonl: field lang"):
        read_labels("labels/grounding_zh.jsonl", line() + "\n", "zh")


def _compared(split: str, label: str, check: str, **kw: Any) -> Compared:
    fields: dict[str, Any] = {
        "label_source": None,
        "check_source": None,
        "label_relevant": None,
        "check_relevant": None,
    }
    return Compared("x", split, label, check, **(fields | kw))  # type: ignore[arg-type]


SET = (
    _compared("test", "invented", "invented", label_source="invented", check_source="invented"),
    _compared(
        "test",
        "invented",
        "wrong_from_passage/noise",
        label_source="invented",
        check_source="from_passage",
        label_relevant=True,
        check_relevant=False,
    ),
    _compared("test", "refused", "refused"),
    _compared(
        "dev", "correct_grounded", "correct_grounded", label_relevant=True, check_relevant=True
    ),
    _compared("dev", "invented", "wrong_from_passage/noise"),
)

# (split, measure, n, agreeing, confusions)
SHARES = [
    ("test", "category", 3, 2, (("invented", "wrong_from_passage/noise", 1),)),
    ("test", "source", 2, 1, (("invented", "from_passage", 1),)),
    ("test", "relevance", 1, 0, (("relevant", "not_relevant", 1),)),
    ("dev", "category", 2, 1, (("invented", "wrong_from_passage/noise", 1),)),
    ("dev", "source", 0, 0, ()),
    ("all", "category", 5, 3, (("invented", "wrong_from_passage/noise", 2),)),
    ("all", "relevance", 2, 1, (("relevant", "not_relevant", 1),)),
]


@pytest.mark.parametrize(("split", "measure", "n", "agree", "confusions"), SHARES)
def test_agreement_counts_each_measure_on_its_answers(
    split: str, measure: str, n: int, agree: int, confusions: tuple
) -> None:
    a = agreement(SET, "en", split, measure)  # type: ignore[arg-type]
    assert (a.n, a.agree, a.confusions) == (n, agree, confusions)
    assert a.share == (agree / n if n else 0.0)


def test_agreements_list_the_held_out_part_first_and_skip_empty_ones() -> None:
    got = [(a.split, a.measure) for a in agreements(SET, "en")]
    assert got[:3] == [("test", m) for m in MEASURES]
    assert ("dev", "source") not in got and got[-1] == ("all", "relevance")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_packaged_labels_load_with_a_held_out_part(lang: str) -> None:
    items = grounding_labels(lang)  # type: ignore[arg-type]
    if not items:
        pytest.skip(f"leaderboard/scoring/labels/grounding_{lang}.jsonl not packaged yet")
    assert len(items) >= 100
    assert {it.split for it in items} == {"dev", "test"}
    assert all(it.item.instance.lang == lang for it in items)


# floors under the agreement measured when the labels were packaged (every part at or above
# them then): a rule change of the check that loses agreement fails here
FLOORS = {"category": 0.6, "source": 0.75, "relevance": 0.75}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_check_keeps_its_agreement_with_the_labels(lang: str) -> None:
    compared = label_comparisons(lang)  # type: ignore[arg-type]
    if not compared:
        pytest.skip(f"leaderboard/scoring/labels/grounding_{lang}.jsonl not packaged yet")
    for split in ("dev", "test"):
        for measure, floor in FLOORS.items():
            a = agreement(compared, lang, split, measure)  # type: ignore[arg-type]
            assert a.n and a.share >= floor, (split, measure, a)

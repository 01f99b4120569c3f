"""The methodology page's grounding-check agreement: per language and part (held-out test
first), the three agreements as `grounding-agreement` computes them, the confusion counts one
click away and one line on where the check errs, in both languages; one line without labels."""

from __future__ import annotations

import pytest

from leaderboard.board.grounding_labelled import Compared, agreement
from leaderboard.scoring.grounding import CATEGORIES, ROLES
from leaderboard.site.pages.methodology import grounding_agreement as section
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Output


def _c(split: str, label: str, check: str, **kw: object) -> Compared:
    fields: dict[str, object] = dict.fromkeys(
        ("label_source", "check_source", "label_relevant", "check_relevant")
    )
    return Compared(f"model-a/{split}/{label}", split, label, check, **(fields | kw))  # type: ignore[arg-type]


LABELS = {
    "zh": (
        _c("test", "invented", "invented", label_source="invented", check_source="invented"),
        _c(
            "test",
            "invented",
            "wrong_from_passage/noise",
            label_source="invented",
            check_source="from_passage",
            label_relevant=True,
            check_relevant=False,
        ),
        _c("dev", "refused", "refused"),
    ),
    "en": (_c("dev", "correct_grounded", "correct_grounded"),),
}


@pytest.fixture
def labelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(section, "label_comparisons", lambda lang: LABELS[lang])


def test_one_row_per_language_part_and_measure_held_out_first(labelled: None) -> None:
    """The held-out part on the first screen; the tuning part and all answers one click away."""
    table, behind = section.agreement_table("en"), section.agreement_table("en", held_out=False)
    assert table is not None and behind is not None and table.id != behind.id

    def keys(t):
        return [tuple(r.cells[k].sort for k in ("lang", "split", "measure")) for r in t.rows]

    assert keys(table) == [
        ("zh", "test", "category"),
        ("zh", "test", "source"),
        ("zh", "test", "relevance"),
    ]
    assert keys(behind) == [
        ("zh", "dev", "category"),
        ("zh", "all", "category"),
        ("zh", "all", "source"),
        ("zh", "all", "relevance"),
        ("en", "dev", "category"),
        ("en", "all", "category"),
    ]
    for row in (*table.rows, *behind.rows):
        lang, split, measure = (row.cells[k].sort for k in ("lang", "split", "measure"))
        expected = agreement(LABELS[lang], lang, split, measure)  # type: ignore[arg-type]
        assert row.cells["n"].value == expected.n
        cell = row.cells["agreement"].value
        assert cell["value"] == expected.share
        assert cell["ci_low"] <= expected.share <= cell["ci_high"]


@pytest.mark.parametrize("lg", ["en", "zh"])
def test_the_section_renders_the_table_the_errors_and_the_confusions(
    labelled: None, lg: str
) -> None:
    html = section.grounding_agreement_section(Output(), lg)
    assert ui(lg, "grag.h") in html
    assert section.TABLE_ID in html and section.CONFUSION_ID in html
    first, details = html.split('<details class="lb-all">')
    assert f"{section.TABLE_ID}-dev-all" in details and f"{section.TABLE_ID}-dev-all" not in first
    assert "`model-a` 4" in html  # whose answers, counted over both languages
    errs = section.errs_line(lg)
    assert ui(lg, "grc.invented") in errs and ui(lg, "grc.wrong_from_noise") in errs
    assert esc(errs) in html
    if lg == "zh":
        assert "回答来源检查与人工标注对比" in html and "从未出错" in errs


def test_the_confusions_name_both_sides_in_the_page_language(labelled: None) -> None:
    table = section.confusion_table("zh")
    assert table is not None
    rows = [
        (r.cells["measure"].sort, r.cells["hand"].html, r.cells["check"].html) for r in table.rows
    ]
    assert ("category", "无据编造", "答错，来自噪声段落") in rows
    assert ("source", "无据编造", "来自段落") in rows
    assert ("relevance", "切题", "不切题") in rows
    assert all(r.cells["split"].sort != "all" for r in table.rows)


def test_every_value_a_comparison_can_give_has_a_name() -> None:
    values = {c for c in CATEGORIES if c != "wrong_from_passage"}
    values |= {f"wrong_from_passage/{r}" for r in (*ROLES, "mixed")}
    values |= {"from_passage", "invented", "relevant", "not_relevant"}
    for lg in ("en", "zh"):
        assert all(section.value_name(v, lg) for v in values)


@pytest.mark.parametrize("lg", ["en", "zh"])
def test_without_labels_the_section_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, lg: str
) -> None:
    monkeypatch.setattr(section, "label_comparisons", lambda lang: ())
    html = section.grounding_agreement_section(Output(), lg)
    assert esc(ui(lg, "grag.none")) in html and section.TABLE_ID not in html

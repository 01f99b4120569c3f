"""The methodology page's conflict-reader agreement: the packaged hand labels, per language and
part (held-out test first), as `conflicts agreement` computes them."""

from __future__ import annotations

from leaderboard.scoring.conflict_labelled import agreement, conflict_labels
from leaderboard.site.pages.methodology.conflict_agreement import (
    conflict_agreement_section,
    conflict_agreement_table,
)
from leaderboard.site.render.page import Output


def test_one_row_per_language_and_part_with_the_agreement_the_command_prints() -> None:
    table = conflict_agreement_table("en")
    assert table is not None
    keys = [(r.cells["lang"].sort, r.cells["split"].sort) for r in table.rows]
    assert keys == [("zh", "test"), ("zh", "dev"), ("en", "test"), ("en", "dev")]
    for row in table.rows:
        lang, split = row.cells["lang"].sort, row.cells["split"].sort
        expected = agreement(conflict_labels(lang), lang, split)
        assert row.cells["n"].value == expected.n
        assert row.cells["agreement"].value["value"] == expected.share
        cell = row.cells["agreement"].value
        assert cell["ci_low"] <= expected.share <= cell["ci_high"]


def test_the_section_names_whose_answers_were_labelled_in_both_languages() -> None:
    for lg in ("en", "zh"):
        html = conflict_agreement_section(Output(), lg)
        assert "smollm2-135m-instruct" in html and "qwen2.5-coder-0.5b-instruct" in html
        assert "conflict-reader-agreement" in html
    assert "结果判定与人工标注对比" in conflict_agreement_section(Output(), "zh")

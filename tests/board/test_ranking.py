"""Coverage per language (leaderboard.board.ranking.coverage): what the ranking tables' coverage
column and partial badge say. A model complete on the zh files must read as complete in the zh
table even when the English files are partial and the probes ran on a sample."""

from __future__ import annotations

import pytest

from leaderboard.board.ranking import coverage, reason_scope
from leaderboard.core.schema import CellMetrics, Results
from tests.site_factory import make_results


def _probe_cell(lang: str, mode: str, n: int, expected: int) -> CellMetrics:
    return CellMetrics(
        lang=lang,
        ability="chain",
        noise_rate=0.0,
        mode=mode,
        n=n,
        n_errors=0,
        expected_n=expected,
        data_file=f"{lang}_refine.json",
        data_complete=True,
        accuracy=0.5,
        accuracy_ci=(0.4, 0.6),
        rejection_rate=0.0,
        mean_output_chars=40.0,
    )


def _zh_complete_en_partial() -> Results:
    """zh complete on the four abilities, en on the 50-record head file, probes on 100 of 300:
    the shape of the committed Qwen 0.5B entry."""
    r = make_results("m", n=10)
    probes = [
        _probe_cell(lang, mode, 100, 300) for lang in ("zh", "en") for mode in ("rgb", "strict")
    ]
    reasons = [
        "en/noise: partial data file partial/en_head50.json (stands in for the official split)",
        "en/integration: not run, data file not available",
        "en/noise/0.0: n=50 of 300",
        "zh/chain/0.0: n=100 of 300",
        "en/chain/0.0: n=100 of 300",
    ]
    return r.model_copy(
        update={"cells": [*r.cells, *probes], "partial": True, "partial_reasons": reasons}
    )


def test_zh_complete_is_not_partial_because_of_en_or_probes() -> None:
    r = _zh_complete_en_partial()
    for mode in ("rgb", "strict"):
        zh = coverage(r, "zh", mode)
        assert (zh.partial, zh.reasons, zh.fraction) == (False, (), 1.0)
        assert zh.n == sum(
            c.n for c in r.cells if c.lang == "zh" and c.mode == mode and c.ability != "chain"
        )


def test_en_keeps_its_own_reasons_only() -> None:
    en = coverage(_zh_complete_en_partial(), "en", "strict")
    assert en.partial
    assert "en/noise/0.0: n=50 of 300" in en.reasons
    assert "en/integration: not run, data file not available" in en.reasons
    assert not any(r.startswith("zh/") or "/chain/" in r for r in en.reasons)


def test_all_languages_counts_abilities_and_every_language_reason() -> None:
    r = _zh_complete_en_partial()
    both = coverage(r, None, "rgb")
    assert both.partial
    assert both.n == sum(c.n for c in r.cells if c.mode == "rgb" and c.ability != "chain")
    assert "partial data file: partial/en_head50.json" in both.reasons


def test_run_level_reason_concerns_every_language() -> None:
    """A reason without a lang/ability prefix (the runner's own, e.g. --limit or planned
    instances with no prediction) marks every language partial."""
    r = make_results("m", n=10).model_copy(
        update={"partial": True, "partial_reasons": ["3 planned instances have no prediction"]}
    )
    assert coverage(r, "zh", "rgb").reasons == ("3 planned instances have no prediction",)


def test_short_zh_cell_is_partial_in_zh() -> None:
    r = make_results("m", n=10, expected_n=300, langs=("zh",))
    zh = coverage(r, "zh", "strict")
    assert zh.partial and "not every instance run" in zh.reasons
    assert abs(zh.fraction - 10 / 300) < 1e-9


@pytest.mark.parametrize(
    ("reason", "scope"),
    [
        ("zh/noise/0.2: n=40 of 300", ("zh", "noise")),
        ("en/noise: partial data file partial/en_head50.json (stands in for ...)", ("en", "noise")),
        ("en/integration: not run, data file not available", ("en", "integration")),
        ("zh/chain/0.0: n=100 of 300", ("zh", "chain")),
        ("--limit", (None, None)),
        ("abilities limited to none of the four", (None, None)),
        ("3 planned instances have no prediction (first: zh/noise/0.0/7)", (None, None)),
        ("data/zh_refine.json: missing", (None, None)),
    ],
)
def test_reason_scope(reason: str, scope: tuple[str | None, str | None]) -> None:
    assert reason_scope(reason) == scope

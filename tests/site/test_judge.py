"""Rej* and ED* on the site: the judged rates beside the paper's starred numbers, the judge named
on every cell, escaped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.errors import ResultsError
from leaderboard.core.judge_schema import JudgeRate, JudgeResults, JudgeSummary, KappaEntry
from leaderboard.site.build import render
from leaderboard.site.render.page import PAPER_JUDGE
from tests.site_factory import XSS, make_repo


def _summary(name: str) -> JudgeSummary:
    rates = [
        JudgeRate(
            lang=lang,
            task=task,
            metric=metric,
            value=value,
            ci=(value - 0.1, value + 0.1),
            n=40,
            n_unparsable=3,
            n_unjudged=57,
            n_prediction_errors=0,
            n_predictions=100,
            reference_rule_value=value,
            complete=False,
        )
        for lang in ("zh", "en")
        for task, metric, value in (
            ("rejection", "rej_star", 0.375),
            ("error_detection", "ed_star", 0.125),
        )
    ]
    kappa = KappaEntry(
        lang="zh",
        task="rejection",
        against="strict",
        n=40,
        observed=0.9,
        kappa=0.41,
        kappa_ci=(0.1, 0.7),
    )
    return JudgeSummary(
        judge_id="j",
        display_name=name,
        judge_fingerprint="f",
        model="m",
        backend="scripted",
        template_sha256={},
        parser_version=1,
        rates=rates,
        agreement=[kappa],
        provenance={},
        created="2026-11-30T00:00:00Z",
    )


def _repo(tmp_path: Path, fingerprint: str | None = None) -> Path:
    root = make_repo(tmp_path, n_models=2, n=4)
    sub = root / "submissions" / "model-001"
    fp = fingerprint or json.loads((sub / "results.json").read_text())["provenance"]["fingerprint"]
    judged = JudgeResults(
        submission_id="model-001", prediction_fingerprint=fp, judges=[_summary(f"Judge {XSS}")]
    )
    (sub / "judge_results.json").write_text(judged.model_dump_json(), "utf-8")
    return root


def test_ability_pages_show_judged_rates_beside_the_papers(tmp_path: Path) -> None:
    out = render(load_site_data(_repo(tmp_path)))
    rej = out.pages["abilities/zh-rejection.md"]
    assert "Rej* (LLM judge)" in rej and "paper only" not in rej.split("Acc.")[0]
    assert (
        "37.5" in rej and "judge: Judge &lt;script&gt;alert(1)&lt;/script&gt; · n=40 of 100" in rej
    )
    assert "3 more unparsable (not in n)" in rej and XSS not in rej
    # the paper's row: ChatGPT's Rej* (zh 43.33), named as the judge
    assert f'43.3<span class="lb-judge">judge: {PAPER_JUDGE}, as reported</span>' in rej
    cf = out.pages["abilities/en-counterfactual.md"]
    assert "ED* (LLM judge)" in cf and "12.5" in cf
    assert f"judge: {PAPER_JUDGE}, as reported" in cf  # ChatGPT's en ED* = 7
    for table in out.tables:  # every starred cell names its judge in the downloads too
        for column in table.columns:
            if column.key in ("rej_star", "ed_star"):
                for row in (*table.rows, *table.reported_rows):
                    cell = row.cells.get(column.key)
                    if cell is not None and isinstance(cell.value, dict):
                        assert cell.value["judge"]
    model = out.pages["models/model-001.md"]
    assert r"LLM judge (Rej\*, ED\*)" in model and "0.41 [0.10, 0.70]" in model


def test_judges_of_other_predictions_are_not_shown(tmp_path: Path) -> None:
    out = render(load_site_data(_repo(tmp_path, fingerprint="other-run")))
    assert "judge: Judge" not in out.pages["abilities/zh-rejection.md"]
    assert r"LLM judge (Rej\*, ED\*)" not in out.pages["models/model-001.md"]


def test_a_bad_judge_results_file_stops_the_build_naming_it(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    path = root / "submissions" / "model-001" / "judge_results.json"
    data = json.loads(path.read_text("utf-8"))
    data["judges"][0]["rates"][0]["value"] = "high"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ResultsError, match=r"judge_results.json: field 'judges.0.rates.0.value'"):
        load_site_data(root)

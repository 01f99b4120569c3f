"""The methodology page's rgb-vs-strict section (site/pages/methodology/strict_audit.py) and the
instance browser's "why strict said no" (site/pages/instances/parts.why_not), in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.board.audit_annotators import annotator_rows
from leaderboard.core.types import TestInstance
from leaderboard.scoring.strict import judge_strict
from leaderboard.site.pages.instances.page import ELEMENT_STATUSES, JS_KEYS, WHY_RULES
from leaderboard.site.pages.instances.parts import why_not
from leaderboard.site.pages.methodology.strict_audit import annotators_line, strict_audit_section
from leaderboard.site.render.i18n import SITE_LANGS, ui
from leaderboard.stats.scorer_eval import answer_agreement


def _write(folder: Path, name: str, payload: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(payload), encoding="utf-8")


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_section_gives_counts_before_and_now(tmp_path: Path, lg: str) -> None:
    folder = tmp_path / "audits" / "strict"
    row = {"entry": "m", "lang": "zh", "kind": "correct", "strict": False, "rule": "copy"}
    _write(folder, "before.json", {"counts": [{**row, "n": 5}]})
    _write(folder, "after.json", {"counts": [{**row, "n": 2}]})
    text = strict_audit_section(tmp_path, lg)
    assert ui(lg, "saudit.row", entry="m", lang="zh", before=5, after=2) in text
    assert ui(lg, "saudit.set_dis") in text and ui(lg, "saudit.set_scorers_test") in text


def test_no_audit_files_no_section(tmp_path: Path) -> None:
    assert strict_audit_section(tmp_path, "en") == ""


def test_why_not_names_the_rule_and_the_elements() -> None:
    inst = TestInstance("zh", "noise", 0.0, 0, "q", ("12人", "20人"), (), ())
    score, reason = judge_strict("可能是12人或者30人。", inst)
    w = why_not("noise", score.rejected, score.error_detected, reason)
    assert w["r"] == "hedge" and [e[:2] for e in w["el"]] == [
        ["12人", "matched"],
        ["20人", "not_found"],
    ]
    assert why_not("rejection", False, False, reason)["r"] == "no_refusal"
    assert why_not("counterfactual", False, False, reason)["r"] == "no_error_claim"


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_every_rule_and_status_is_explained_in_both_languages(lg: str) -> None:
    for key in ("why", *(f"why_{r}" for r in WHY_RULES), *(f"el_{s}" for s in ELEMENT_STATUSES)):
        assert key in JS_KEYS
        assert ui(lg, f"inst.js.{key}", rule="x")
    assert ui("zh", "inst.js.why", rule="x").startswith("为什么严格模式判错")


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_section_says_how_far_the_two_readings_agree(tmp_path: Path, lg: str) -> None:
    folder = tmp_path / "audits" / "strict"
    _write(folder, "before.json", {"counts": []})
    line = annotators_line(lg)
    whole = next(r for r in annotator_rows("all") if r["lang"] == "all")
    assert f"{whole['agree']}/{whole['n']}" in line and str(whole["adjudicated"]) in line
    assert line in strict_audit_section(tmp_path, lg)


@pytest.mark.parametrize(
    ("doc", "fmt"),
    [
        ("docs/strict-audit.md", "**{k} of {n}**"),
        ("docs/zh/strict-audit.md", "**{n} 条中 {k} 条**"),
    ],
)
def test_the_audit_page_opens_with_the_figures_the_labels_give_now(doc: str, fmt: str) -> None:
    """The page's first paragraph states strict's agreement on the disagreement set, its held-out
    part and the agreement sample; a new labelled batch that moves them must move the page too."""
    text = (Path(__file__).resolve().parents[2] / doc).read_text(encoding="utf-8")
    opening = text.split("\n## ", 1)[0]
    for split, batch in (("all", "dis"), ("test", "dis"), ("all", "agr")):
        rows = answer_agreement(split, batch=batch, collection="audit")
        row = next(r for r in rows if r["lang"] == "all" and r["mode"] == "strict")
        low, high = (round(100 * x, 1) for x in row["ci"])  # type: ignore[union-attr]
        assert fmt.format(k=row["agree"], n=row["n"]) in opening, (doc, split, batch)
        assert f"[{low}, {high}]" in opening, (doc, split, batch, low, high)

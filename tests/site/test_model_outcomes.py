"""What the answers did, on the site (issue 38): the model page's outcome bars, table, closed-book
row and risk-coverage chart, the zh-vs-en truthfulness table, the ability pages' answer-rate
column and the methodology section, in both languages, from real scripted runs (the runner, the
scorer and the statistics, no hand-written results)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.site.pages.ability.page import ability_page
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.model.page import model_page
from leaderboard.site.pages.zh_en.page import zh_vs_en_page
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output
from leaderboard.stats.risk_coverage import DEFINITION
from tests.helpers import write_scripted_submission
from tests.site.zh_scan import _Reader, _svg_text, english_words, repository_data

REPO = Path(__file__).resolve().parents[2]
ABILITIES = ("noise", "rejection", "counterfactual", "closedbook", "closedbook_fact")
POLICIES = {"answers": "top_candidate", "refuses": "refuse"}
RISK = {
    "lang": "zh",
    "mode": "strict",
    "ability": "closedbook",
    "n": 4,
    "accuracy": 0.5,
    "aurc": 0.1,
    "area": 1.0,
    "coverage": [1.0, 0.75, 0.5, 0.25],
    "selective_accuracy": [0.5, 0.667, 1.0, 1.0],
    "definition": DEFINITION,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory, data_root: Path) -> Path:
    root = tmp_path_factory.mktemp("outcomes")
    (root / "site").mkdir()
    shutil.copyfile(REPO / "site" / "mkdocs.yml", root / "site" / "mkdocs.yml")
    for name, policy in POLICIES.items():
        path = write_scripted_submission(
            root / "submissions" / name,
            display_name=f"Policy {name}",
            scripted={"policy": policy},
            run={"allow_partial_data": True},
        )
        selection = Selection(limit=3, languages=("zh", "en"), abilities=ABILITIES)
        run_submission(
            load_submission(path), RunOptions(root=data_root, selection=selection, progress=False)
        )
    results = root / "submissions" / "answers" / "results.json"
    data = json.loads(results.read_text("utf-8"))
    data["risk_coverage"] = [RISK]  # as if the answers had recorded their confidence
    results.write_text(json.dumps(data), "utf-8")
    return root


@pytest.fixture(scope="module")
def data(repo: Path):
    return load_site_data(repo)


def _entry(data, sub_id: str):
    return next(s for s in data.submissions if s.id == sub_id)


def _section(page: str, heading: str) -> str:
    start = page.index(f"\n## {heading}\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end > 0 else None]


def _names(repo: Path) -> list[str]:
    return [*repository_data(repo), *(f"Policy {name}" for name in POLICIES)]


def _zh_english(text: str, repo: Path) -> list[str]:
    reader = _Reader()
    reader.feed(text)
    return [w for _, piece in reader.pieces for w in english_words(piece, _names(repo))]


def test_the_model_page_shows_what_the_answers_did(data) -> None:
    out = Output()
    page = model_page(Context(data, out), _entry(data, "answers"))
    section = _section(page, "When the answer is not right")
    # the first screen: what it does with no passage holding the answer, then the bars
    assert "with no passage holding the answer (rejection questions, n = 3)" in section
    assert 'src="../charts/model-answers-outcomes.svg"' in section
    alt = section.split('alt="')[1].split('"')[0]
    assert "Chinese (zh) · Noise robustness: correct" in alt and "(n = 3)" in alt
    # the numbers with intervals one click away, the closed-book row and the risk chart
    assert '<details class="lb-all"><summary>Numbers with 95% intervals' in section
    assert 'id="wrap-model-answers-outcomes"' in section
    assert 'id="wrap-model-answers-closed-book"' in section
    assert "Closed book, noise file" in section and "Knew, repeated the fake" in section
    assert 'src="../charts/model-answers-risk-coverage.svg"' in section
    assert "(area 1.00, n = 4)" in section
    chart = out.pending_charts["charts/model-answers-outcomes.svg"]
    svg = chart[0](*chart[1])
    assert "error claimed" in svg and "wrong" in svg


def test_the_refusing_policy_reads_all_refused(data) -> None:
    out = Output()
    page = model_page(Context(data, out), _entry(data, "refuses"))
    assert "made up an answer 0.0%, refused 100.0%, answered correctly from memory 0.0%" in page
    table = next(t for t in out.tables if t.id == "model-refuses-outcomes")
    for row in table.rows:
        assert row.cells["refused"].value["value"] == 1.0
        assert row.cells["truthfulness"].value["value"] == 0.0
        assert row.cells["answer_rate"].value["value"] == 0.0
    assert "risk-coverage" not in page  # no answer recorded a confidence


def test_the_zh_model_page_says_it_in_chinese(data, repo: Path) -> None:
    out = Output()
    page = model_page(Context(data, out, lg="zh"), _entry(data, "answers"))
    section = _section(page, "答不对的时候")
    assert "没有任何段落含有答案时" in section and "本来就知道" in section
    assert not _zh_english(section, repo)
    for name, (draw, args) in out.pending_charts.items():
        if "outcomes" in name or "risk" in name:
            words = [w for t in _svg_text(draw(*args)) for w in english_words(t, _names(repo))]
            assert not words, (name, words)


def test_zh_vs_en_has_truthfulness_per_ability(data, repo: Path) -> None:
    headings = {"en": "Truthfulness, zh against en", "zh": "真实性得分：中文与英文对比"}
    for lg, heading in headings.items():
        out = Output()
        page = zh_vs_en_page(Context(data, out, lg=lg))
        assert f"### {heading}" in page
        (table,) = [t for t in out.tables if t.id == "zh-vs-en-truthfulness-strict"]
        rows = (*table.rows, *table.baseline_rows)  # scripted policies: the baseline band
        assert len(rows) == 2 * 3  # noise, rejection, counterfactual: measured in both
        diff = rows[0].cells["diff"].value
        assert diff["ci_low"] <= diff["value"] <= diff["ci_high"]


def test_ability_pages_have_an_answer_rate_column(data) -> None:
    for ability in ("noise", "rejection", "counterfactual"):
        out = Output()
        ability_page(Context(data, out), "zh", ability)
        for table in out.tables:
            if "answer_rate" not in {c.key for c in table.columns}:
                continue
            rates = {
                r.cells["model"].value: r.cells["answer_rate"].value["value"]
                for r in (*table.rows, *table.baseline_rows)
            }
            assert rates["Policy refuses"] == 0.0 and rates["Policy answers"] > 0.0
            break
        else:
            raise AssertionError(f"no answer-rate column on the {ability} page")


def test_methodology_defines_outcomes_and_states_rgb_issue_9(data, repo: Path) -> None:
    en = methodology_page(Context(data, Output()))
    assert "## When the answer is not right" in en
    assert 'href="https://github.com/chen700564/RGB/issues/9"' in en
    assert "counts as a failure to reject" in en and "2022 and 2023" in en
    zh = methodology_page(Context(data, Output(), lg="zh"))
    section = _section(zh, "答不对的时候：回答结果、真实性得分与闭卷")
    assert "2022–2023" in section
    assert not _zh_english(section, repo)


def test_the_instance_browser_pages_closed_book_answers(data) -> None:
    """Closed-book predictions get browser pages with their rule in both languages (a build
    with them failed on a missing inst.pass_rule.closedbook)."""
    from leaderboard.site.pages.instances.parts import group_docs

    groups, docs = group_docs(data)
    found = {g.ability: doc for g, (doc, _) in zip(groups, docs, strict=True)}
    assert {"closedbook", "closedbook_fact"} <= set(found)
    assert "no passage" in found["closedbook"]["pass_rule"]
    for lg in ("en", "zh"):
        for ability in ("closedbook", "closedbook_fact"):
            assert ui(lg, f"inst.pass_rule.{ability}")

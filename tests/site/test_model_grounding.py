"""Where the answers came from, on the site: the model page's correct x grounded table, the figures
with intervals (omission on the integration questions), the conflict track's table per condition,
and the methodology page's rejection, omission and conflict tables, in both languages, from real
scripted runs (the runner, the scorer, the grounding check and the statistics, no hand-written
results)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.model.grounding import BUCKETS
from leaderboard.site.pages.model.page import model_page
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output
from tests.helpers import write_scripted_submission
from tests.site.zh_scan import _Reader, english_words, repository_data

REPO = Path(__file__).resolve().parents[2]
POLICIES = {"copies": "copy_first", "refuses": "refuse", "commits": "top_candidate"}


@pytest.fixture(scope="module")
def repo(tmp_path_factory, rgb_root: Path) -> Path:
    root = tmp_path_factory.mktemp("grounding")
    (root / "site").mkdir()
    shutil.copyfile(REPO / "site" / "mkdocs.yml", root / "site" / "mkdocs.yml")
    for name, policy in POLICIES.items():
        path = write_scripted_submission(
            root / "submissions" / name,
            display_name=f"Policy {name}",
            scripted={"policy": policy},
            run={"allow_partial_data": True},
        )
        abilities = ("noise", "rejection", "integration")
        selection = Selection(limit=5, languages=("zh", "en"), abilities=abilities)
        run_submission(
            load_submission(path), RunOptions(root=rgb_root, selection=selection, progress=False)
        )
    # the conflict track, under RGB's instruction, for the copying policy
    conflicts = Selection(limit=4, languages=("zh", "en"), conflicts=("t1f1", "f1t1"))
    run_submission(
        load_submission(root / "submissions" / "copies"),
        RunOptions(root=rgb_root, selection=conflicts, progress=False),
    )
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


def test_the_model_page_has_the_correct_by_grounded_table(data) -> None:
    out = Output()
    page = model_page(Context(data, out), _entry(data, "copies"))
    section = _section(page, ui("en", "gr.h"))
    assert 'id="wrap-model-copies-grounding"' in section
    assert 'id="wrap-model-copies-grounding-figures"' in section
    assert 'href="../docs/grounding.html"' in section
    assert "rejection questions (no passage holds the answer, n = 5)" in section
    table = next(t for t in out.tables if t.id == "model-copies-grounding")
    for row in table.rows:
        n = row.cells["n"].value
        assert sum(row.cells[b].value for b in BUCKETS) == n
    # copying the first passage on a rejection question copies a noise passage
    rejection = [r for r in table.rows if r.cells["ability"].value == ui("en", "ability.rejection")]
    assert rejection and all(r.cells["wrong_from_noise"].value > 0 for r in rejection)


def test_a_refusing_policy_is_all_refused(data) -> None:
    out = Output()
    model_page(Context(data, out), _entry(data, "refuses"))
    table = next(t for t in out.tables if t.id == "model-refuses-grounding")
    for row in table.rows:
        assert row.cells["refused"].value == row.cells["n"].value


def test_the_zh_pages_say_it_in_chinese(data, repo: Path) -> None:
    names = [*repository_data(repo), *(f"Policy {name}" for name in POLICIES)]
    pages = {
        "gr.h": model_page(Context(data, Output(), lg="zh"), _entry(data, "copies")),
        "mgr.h": methodology_page(Context(data, Output(), lg="zh")),
    }
    for heading, page in pages.items():
        section = _section(page, ui("zh", heading))
        reader = _Reader()
        reader.feed(section)
        words = [w for _, piece in reader.pieces for w in english_words(piece, names)]
        assert not words, (heading, words)


def test_the_methodology_page_has_the_rejection_figures(data) -> None:
    out = Output()
    page = methodology_page(Context(data, out))
    section = _section(page, ui("en", "mgr.h"))
    assert 'href="docs/grounding.html"' in section
    table = next(t for t in out.tables if t.id == "grounding-rejection")
    models = {r.cells["model"].value for r in table.rows}
    assert models == {f"Policy {name}" for name in POLICIES}
    for row in table.rows:
        assert row.cells["made_up"].value["ci_low"] is not None


def test_omission_on_the_model_page_and_the_methodology_page(data) -> None:
    out = Output()
    page = model_page(Context(data, out), _entry(data, "commits"))
    figures = next(t for t in out.tables if t.id == "model-commits-grounding-figures")
    integration = next(
        r for r in figures.rows if r.cells["ability"].value == ui("en", "ability.integration")
    )
    omission = integration.cells["omission"].value
    assert omission["value"] is not None and omission["ci_low"] is not None
    assert "integration questions: of the" in _section(page, ui("en", "gr.h"))
    out = Output()
    methodology_page(Context(data, out))
    table = next(t for t in out.tables if t.id == "grounding-omission")
    assert {r.cells["model"].value for r in table.rows} == {"Policy commits"}


def test_the_conflict_track_on_the_model_page_and_the_methodology_page(data) -> None:
    out = Output()
    page = model_page(Context(data, out), _entry(data, "copies"))
    assert 'id="wrap-model-copies-grounding-conflicts"' in _section(page, ui("en", "gr.h"))
    table = next(t for t in out.tables if t.id == "model-copies-grounding-conflicts")
    conditions = {r.cells["condition"].value for r in table.rows}
    assert conditions == {ui("en", "conf.short.t1f1"), ui("en", "conf.short.f1t1")}
    for row in table.rows:
        assert row.cells["copied_altered"].value["value"] is not None
    # no conflict answers, no conflict table
    model_page(Context(data, out := Output()), _entry(data, "refuses"))
    assert not any(t.id == "model-refuses-grounding-conflicts" for t in out.tables)
    out = Output()
    methodology_page(Context(data, out))
    table = next(t for t in out.tables if t.id == "grounding-conflicts")
    assert {r.cells["model"].value for r in table.rows} == {"Policy copies"}
    assert len(table.rows) == 2  # t1f1, zh and en

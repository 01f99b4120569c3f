"""The instruction track's page "Does the instruction decide?" in both languages, the model
page's row and the methodology texts, from real panel runs of the always-refusing baseline."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from leaderboard.board.instructions import instruction_panels
from leaderboard.board.load import load_site_data
from leaderboard.core.submission import load_submission
from leaderboard.protocol.instructions import load_instruction
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection, panel_selection
from leaderboard.site.pages.instructions import (
    PANELS,
    instructions_page,
    model_row,
    texts_section,
)
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import SITE_LANGS, ui
from leaderboard.site.render.page import Context, Output

MEASURED = ("abstain_user", "no_refusal")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, data_root: Path) -> Path:
    root = tmp_path_factory.mktemp("instr")
    entry = root / "submissions" / "baseline-refuse"
    shutil.copytree(repo_root / "submissions" / "baseline-refuse", entry)
    sub = load_submission(entry)
    for instruction in MEASURED:
        selection = panel_selection(Selection(instruction=instruction, limit=10))
        run_submission(sub, RunOptions(root=data_root, selection=selection, progress=False))
    return root


@pytest.fixture(scope="module")
def ctx_data(repo: Path, data_root: Path):
    data = load_site_data(repo)
    panels = instruction_panels(data.submissions, data_root)
    return dataclasses.replace(data, extra={**data.extra, PANELS: panels})


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_the_page_answers_first_then_chart_then_table(ctx_data, lg: str) -> None:
    out = Output()
    page = instructions_page(Context(ctx_data, out, lg))
    assert ui(lg, "instr.h1") in page
    # the first screen: the sentence per language before the first chart
    first_chart = page.index("lb-chart")
    assert page.index(ui(lg, "instr.lead")[:20]) < first_chart
    for iid in MEASURED:
        assert load_instruction(iid).title[lg] in page
    assert "charts/" in page and len(out.pending_charts) == 2  # zh and en
    ids = {t.id for t in out.tables}
    assert ids == {"instructions-zh", "instructions-en"}
    zh = next(t for t in out.tables if t.id == "instructions-zh")
    assert len(zh.rows) == 1 + len(MEASURED)  # RGB's instruction and the two measured
    # partial coverage is said in a few words, never averaged in silently
    assert ui(lg, "instr.partial", done=0, expected=0).split("0")[0][:6] in page


def test_refusal_and_over_refusal_are_100_for_the_refusing_policy(ctx_data) -> None:
    out = Output()
    instructions_page(Context(ctx_data, out, "en"))
    zh = next(t for t in out.tables if t.id == "instructions-zh")
    for row in zh.rows:
        assert row.cells["refused"].value["value"] == 1.0
        assert row.cells["over_refusal"].value["value"] == 1.0


def test_every_instruction_text_is_on_the_page_in_both_languages(ctx_data) -> None:
    for lg in SITE_LANGS:
        section = texts_section(lg)
        for iid in ("rgb", *MEASURED, "typo_fixed"):
            ins = load_instruction(iid)
            assert esc(ins.title[lg]) in section
            for lang in ("zh", "en"):
                if ins.system(lang):
                    assert esc(ins.system(lang)) in section


def test_model_page_row_and_methodology(ctx_data) -> None:
    for lg in SITE_LANGS:
        row = model_row(Context(ctx_data, Output(), lg), "baseline-refuse", "../")
        assert "instructions.md" in row and esc(load_instruction("abstain_user").title[lg]) in row
        method = methodology_page(Context(ctx_data, Output(), lg))
        assert ui(lg, "instr.method_h") in method and ui(lg, "instr.col.made_up") in method


def test_without_any_measured_instruction_the_page_says_so(repo: Path) -> None:
    data = load_site_data(repo)
    for lg in SITE_LANGS:
        assert ui(lg, "instr.none") in instructions_page(Context(data, Output(), lg))

"""The methodology page's "Judges against the labels" section
(site/pages/methodology/judge_agreement.py):
a committed judges/agreement/<id>/agreement.json of a real scripted-judge run shown in en and zh,
with the judge's and the scorers' kappas as the file holds them, its downloads, and one line when
no file is committed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.judge.agreement import AGREEMENT_NAME, read_agreement
from leaderboard.site.build import render
from leaderboard.site.pages.methodology.judge_agreement import TABLE_ID, judge_agreement_table
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output
from tests.helpers import write_agreement
from tests.site.zh_scan import _Reader, english_words
from tests.site_factory import make_repo


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic board with one committed agreement (the scripted judge, test split)."""
    root = make_repo(tmp_path_factory.mktemp("judgeagree"), n_models=1, n=3, predictions=False)
    write_agreement(root)
    return root


def _section(page: str, lg: str) -> str:
    head = f"## {ui(lg, 'agree.judge_heading')}\n"
    return page.split(head, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def test_the_table_shows_the_files_kappas_in_both_languages(board: Path) -> None:
    data = load_site_data(board)
    (record,) = data.label_agreements
    assert record == read_agreement(board / "judges/agreement/scripted-keywords" / AGREEMENT_NAME)
    kappa = {(e.rater, e.lang, e.task): e for e in record.agreement if e.against == "labels"}
    for lg in ("en", "zh"):
        section = _section(methodology_page(Context(data, Output(), lg)), lg)
        assert f'id="{TABLE_ID}"' in section
        assert (
            section.count("<tr><td>Scripted keyword judge (pipeline check, not a model)</td>") == 4
        )
        assert "Rej*" in section and "ED*" in section
        rows = re.findall(r"<tr><td>(.*?)</tr>", section)
        zh_rej = next(r for r in rows if "<td>zh</td><td>Rej*</td>" in r)
        for rater in ("judge", "strict"):
            e = kappa[(rater, "zh", "rejection")]
            assert f'<td data-sort="{round(e.kappa, 6)}">{e.kappa:.2f} ' in zh_rej
            assert f"{e.kappa_ci[0]:.2f}–{e.kappa_ci[1]:.2f}" in zh_rej
        assert kappa[("rgb", "zh", "rejection")].kappa is None  # every answer the same: undefined
        assert f'<td data-sort="-2.0">{ui(lg, "model.kappa_undefined")}</td>' in zh_rej
        assert f"<td>{ui(lg, 'agree.judge_split_test')}</td>" in zh_rej
        assert "<td>33</td><td>33</td><td>0</td>" in zh_rej  # n, judged, unparsable
    en = _section(methodology_page(Context(data, Output(), "en")), "en")
    zh = _section(methodology_page(Context(data, Output(), "zh")), "zh")
    assert "## Judges against the labels" not in zh and "held-out test" in en
    lo, hi = kappa[("judge", "en", "rejection")].kappa_ci  # a negative bound: the page's words
    assert f"{lo:.2f} to {hi:.2f}" in en and f"−{-lo:.2f} 至 {hi:.2f}" in zh


def test_the_zh_section_is_in_chinese(board: Path) -> None:
    """What a reader sees of the zh section (code spans aside) has no English outside data."""
    data = load_site_data(board)
    section = _section(methodology_page(Context(data, Output(), "zh")), "zh")
    reader = _Reader()
    reader.feed(ui("zh", "agree.judge_heading") + re.sub(r"`([^`]*)`", r"<code>\1</code>", section))
    names = [r.display_name for r in data.label_agreements]
    found = [w for _, text in reader.pieces for w in english_words(text, names)]
    assert not found, found


def test_the_table_is_a_download(board: Path) -> None:
    out = render(load_site_data(board))
    rows = json.loads(out.files[f"downloads/{TABLE_ID}.json"])["rows"]
    assert len(rows) == 4
    first = rows[0]
    assert first["task"] == "Rej*" and first["lang"] == "zh" and first["n"] == 33
    e = load_site_data(board).label_agreements[0].agreement[0]  # judge, labels, zh, rejection
    assert (e.rater, e.against, e.lang, e.task) == ("judge", "labels", "zh", "rejection")
    assert first["kappa_judge"] == e.kappa and first["kappa_judge_n"] == e.n
    assert (first["kappa_judge_ci_low"], first["kappa_judge_ci_high"]) == tuple(e.kappa_ci)
    csv = out.files[f"downloads/{TABLE_ID}.csv"].decode("utf-8")
    assert csv.splitlines()[0].startswith("row_kind,judge,split,lang,task,n,judged,unparsable")


def test_a_sample_is_said_with_its_size(board: Path) -> None:
    record = load_site_data(board).label_agreements[0].model_copy(update={"limit": 20})
    table = judge_agreement_table([record], "zh")
    assert table.rows[0].cells["split"].value == "留出测试集，每种语言和指标抽样 20 条"


def test_without_an_agreement_file_the_section_says_so(tmp_path: Path) -> None:
    data = load_site_data(make_repo(tmp_path, n_models=1, n=3, predictions=False))
    assert data.label_agreements == ()
    for lg in ("en", "zh"):
        section = _section(methodology_page(Context(data, Output(), lg)), lg)
        assert section.strip() == ui(lg, "agree.judge_none")

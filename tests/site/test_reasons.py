"""site/render/reasons.py: the machine-written reasons shown in the page language (table-driven),
left as written in English and for unknown shapes; the writers' own formats are the inputs."""

from __future__ import annotations

import pytest

from leaderboard.site.render.reasons import joined, reason
from leaderboard.site.render.tables import Cell, Column, Row, Table, render_html

CASES = [
    (
        "no zh overall: not measured: rejection, integration; not complete official data: noise",
        "无 zh 总分：未评测：否定拒答、信息整合；未在完整的官方数据上评测：噪声鲁棒性",
    ),
    ("not measured", "未评测"),
    ("not every instance run", "并非所有实例都已运行"),
    ("incomplete scores (missing cells)", "分数不完整（缺少单元格）"),
    ("run marked partial", "运行被标记为部分覆盖"),
    ("partial data file: partial/en_head50.json", "使用部分数据文件：partial/en_head50.json"),
    (
        "--limit 100: only the first 100 records of each split",
        "--limit 100：每个数据划分只取前 100 条记录",
    ),
    (
        "en/noise: partial data file partial/en_head50.json "
        "(stands in for the official split of 300 records)",
        "en/noise：使用部分数据文件 partial/en_head50.json（代替 300 条记录的官方数据划分）",
    ),
    ("en/integration: not run, data file not available", "en/integration：未运行，数据文件不可用"),
    ("abilities limited to noise, rejection", "能力限于：噪声鲁棒性、否定拒答"),
    ("languages limited to zh", "语言限于：zh"),
    ("en/chain/0.0: n=50 of 300", "en/chain/0.0：n=50（共 300）"),
    (
        "scores cover every recorded prediction of these settings: 1492 beyond this invocation's "
        "selection (--limit 25: only the first 25 records of each split; abilities limited to "
        "none of the four)",
        "分数涵盖这些设置下的全部已记录预测：其中 1492 条超出本次调用的选择范围（--limit 25："
        "每个数据划分只取前 25 条记录；能力限于：四项能力均未选）",
    ),
    (
        "3 recorded predictions left out: their prompts differ from the data",
        "3 条已记录预测未计入：其提示词与数据不一致",
    ),
    (
        "2 planned instances have no prediction (first: zh/noise/0.0/3)",
        "2 个计划中的实例没有预测（第一个：zh/noise/0.0/3）",
    ),
    ("a reason nobody wrote a shape for", "a reason nobody wrote a shape for"),
]


@pytest.mark.parametrize(("english", "chinese"), CASES, ids=[c[0][:40] for c in CASES])
def test_known_reasons_in_chinese_and_unchanged_in_english(english: str, chinese: str) -> None:
    assert reason("zh", english) == chinese
    assert reason("en", english) == english


def test_the_writers_formats_are_the_inputs() -> None:
    """The shapes follow the code that writes the reasons (a change there must show here)."""
    from leaderboard.run.plan import _selection_reasons  # the writer, imported where checked

    assert _selection_reasons(100, ["zh"], ["noise"], {"noise": [0.0, 0.2, 0.4, 0.6, 0.8]})
    for text in _selection_reasons(100, ["zh"], ["noise"], {"noise": [0.0, 0.2, 0.4, 0.6, 0.8]}):
        assert reason("zh", text) != text, text


def test_missing_cell_reason_in_the_table_language_export_unchanged() -> None:
    why = "no zh overall: not measured: rejection"
    cell = Cell.missing(why)
    table = Table("t", "T", (Column("x", "X"),), (Row({"x": cell}),), ui="zh")
    html = render_html(table)
    assert '<span class="lb-why">无 zh 总分：未评测：否定拒答</span>' in html
    assert cell.value == {"value": None, "missing": why}  # downloads keep the written text
    en = render_html(Table("t", "T", (Column("x", "X"),), (Row({"x": cell}),)))
    assert f'<span class="lb-why">{why}</span>' in en
    assert joined("zh", ["not every instance run", "run marked partial"]) == (
        "并非所有实例都已运行；运行被标记为部分覆盖"
    )

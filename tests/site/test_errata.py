"""The data errata page (pages.errata): every audit finding in the page's language, with what
the board does and a link to the question; the zh page quotes data only, never the audit's
English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leaderboard.board.load import SiteData
from leaderboard.scoring.audit import AuditFinding
from leaderboard.site.pages.errata import action_key, errata_page, parse, reason_html
from leaderboard.site.render.page import Context, Output

REPO = Path(__file__).resolve().parents[2]
NEG = "{} found in negative passage(s) [{}] (of the first 5)"
_RAW = (  # (lang, file, id, kind, detail as the audit writes it)
    ("zh", "zh_fact.json", 0, "answer_in_fake", "answer '70' is inside the fake answer ('170',)"),
    (
        "zh",
        "zh_fact.json",
        82,
        "fake_equals_answer",
        "fake answer ('詹姆斯·卡梅隆',) equals the answer (('詹姆斯·卡梅隆', '卡梅隆'),)",
    ),
    ("zh", "zh_refine.json", 30, "answer_in_negative", NEG.format("'8.1%'", "2")),
    ("zh", "zh_int.json", 59, "answer_in_negative", NEG.format("'3%', '2%'", "0, 2")),
    (
        "zh",
        "zh_int.json",
        13,
        "answer_not_in_positive",
        "'8' not found in any of 17 positive passages",
    ),
    ("en", "en_fact.json", 46, "duplicate_query", "same question as id 22: 'when was X released?'"),
)
FINDINGS = tuple(AuditFinding(*r) for r in _RAW)


def _outside_quotes(html: str) -> str:
    return re.sub(r'<span class="lb-quote" lang="[a-z]+">.*?</span>', " ", html)


@pytest.mark.parametrize("finding", FINDINGS, ids=lambda f: f.kind)
def test_every_shape_reads_in_chinese_with_the_data_quoted(finding):
    e = parse(finding)
    assert e.parts is not None
    html = reason_html(e, "zh")
    plain = _outside_quotes(html)
    assert not re.search(r"\b(found|negative|passage|fake|answer|same|question)\b", plain), plain
    assert f'lang="{finding.lang}"' in html


def test_readers_count_passages_from_one_and_the_rule_is_the_scorers():
    assert "第 1、3 段" in reason_html(parse(FINDINGS[3]), "zh")
    assert "negative passages 3 (of the first 5)" in reason_html(parse(FINDINGS[2]), "en")
    assert action_key(FINDINGS[2]) == "errata.action_rejection"
    assert action_key(FINDINGS[3]) == "errata.action_kept_negative"


def test_an_unknown_shape_is_quoted_as_written():
    odd = AuditFinding("zh", "zh_fact.json", 1, "answer_in_fake", "something new")
    assert reason_html(parse(odd), "zh") == '<span class="lb-quote" lang="en">something new</span>'


@pytest.mark.skipif(not (REPO / "data_zh" / "zh_refine.json").is_file(), reason="no RGB data")
def test_the_page_lists_every_finding_with_a_link_in_both_languages():
    data = SiteData(submissions=(), root=REPO)
    zh = errata_page(Context(data, Output(), "zh"))
    en = errata_page(Context(data, Output(), "en"))
    assert "# 数据勘误" in zh and "负例段落中含有答案" in zh and "本榜的处理" in zh
    assert zh.count("<li>") == en.count("<li>") > 0
    assert 'href="instances/zh-rejection-1.0.html#q=%2330"' in zh
    assert "found in negative" not in zh and "What the board does" not in zh

"""The Retrieval page in a real `mkdocs build --strict`: tables with CIs, zh versus en, paired
comparisons, heat maps (SVG, nothing external), per-question pages, escaping; and the message
when no retrieval results are committed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leaderboard.retrieval.bm25 import BM25Retriever
from leaderboard.retrieval.compare import compare_results
from leaderboard.retrieval.evaluate import run_retrieval
from leaderboard.retrieval.grid import run_grid
from leaderboard.retrieval.results import result_path, write_json
from leaderboard.retrieval.split import load_retrieval_split
from leaderboard.site.build import build_site
from tests.site_factory import make_repo

pytestmark = pytest.mark.slow
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def built(tmp_path_factory, rgb_root: Path) -> Path:
    root = make_repo(tmp_path_factory.mktemp("site"), n_models=1, n=2, reported=False)
    board = root / "retrieval"
    zh = load_retrieval_split(rgb_root, "zh", "refine", limit=6)
    en = load_retrieval_split(rgb_root, "en", "fact", limit=6)
    zh_res = run_retrieval(zh, "pool", BM25Retriever("zh"))
    en_res = run_retrieval(en, "pool", BM25Retriever("en"))
    # a tampered file: every string it holds must reach the page escaped
    q0 = zh_res.per_question[0]
    top0 = q0.top[0].model_copy(update={"ref": {"field": XSS, "index": 0}})
    q0 = q0.model_copy(update={"top": [top0, *q0.top[1:]]})
    zh_res = zh_res.model_copy(update={"per_question": [q0, *zh_res.per_question[1:]]})
    write_json(result_path(board, zh.name, "pool", "bm25"), zh_res)
    write_json(result_path(board, en.name, "pool", "bm25"), en_res)
    other = en_res.model_copy(update={"retriever": "shuffled"})
    paired = compare_results(en_res, other, ["MRR", "NDCG@5"])
    write_json(board / "en_fact" / "compare-pool-bm25-vs-shuffled.json", paired)
    grid = run_grid(en, BM25Retriever("en"), sizes=(64, 512), overlaps=(0.0, 0.5))
    grid = grid.model_copy(update={"cells": grid.cells[:3]})  # one cell not run
    write_json(board / "en_fact" / "grid-bm25.json", grid)
    (root / "data_zh").symlink_to(rgb_root / "data_zh")
    (root / "data_en").symlink_to(rgb_root / "data_en")
    return build_site(root)


def test_retrieval_page(built: Path) -> None:
    html = (built / "retrieval.html").read_text(encoding="utf-8")
    assert "Pool setting" in html and "zh_refine" in html and "en_fact" in html
    assert 'class="lb-ci"' in html  # every metric with its CI
    assert "zh versus en" in html and "Paired comparisons" in html
    assert html.count("charts/retrieval-grid-en_fact-bm25-") == 2  # R@5 and NDCG@5 heat maps
    assert "retrieval/zh_refine-pool-bm25.html" in html
    nav = (built / "index.html").read_text(encoding="utf-8")
    assert 'href="retrieval.html"' in nav
    svg = (built / "charts" / "retrieval-grid-en_fact-bm25-R-5.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "not run" in svg  # 3 of 2x2 cells
    assert not re.search(r"(src|href)=\"https?://", svg)
    for csv in ("retrieval-pool", "retrieval-zh-vs-en", "retrieval-paired"):
        assert (built / "downloads" / f"{csv}.csv").is_file()


def test_question_page_escapes_and_shows_passages(built: Path) -> None:
    page = (built / "retrieval" / "zh_refine-pool-bm25.html").read_text(encoding="utf-8")
    assert XSS not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "first relevant at" in page and "✓" in page
    assert "<details>" in page and "<ol>" in page
    assert re.search(r"[\u4e00-\u9fff]{4}", page)  # the Chinese query and passages are shown


def test_no_results_says_so(tmp_path: Path) -> None:
    root = make_repo(tmp_path, n_models=1, n=2, reported=False)
    out = build_site(root)
    html = (out / "retrieval.html").read_text(encoding="utf-8")
    assert "No retrieval results are committed yet" in html

"""The Releases page, the footer naming the release, downloads naming it, and "cite this board"
(pages.releases), on a repository with two releases, the second after one entry was rescored."""

from __future__ import annotations

import json

from leaderboard.board.load import load_site_data
from leaderboard.board.release import freeze, write_release
from leaderboard.site.build import render
from leaderboard.site.pages.releases import release_status
from tests.site_factory import make_repo


def _rescore(root, sub_id: str) -> None:
    path = root / "submissions" / sub_id / "results.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["provenance"]["scoring_version"] = "rescored-0001"
    for s in doc["scores"]:
        if s["value"] is not None and s["metric"] == "score":
            s["value"] = min(1.0, s["value"] + 0.5)
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")


def test_pages_name_the_release_and_list_what_changed(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    log = "- First line.\n"
    write_release(root, freeze(load_site_data(root), "2026.12.0", "2026-12-01", log))
    out = render(load_site_data(root))
    assert "Board release 2026.12.0 (2026-12-01" in out.pages["index.md"]
    assert "榜单发布版本 2026.12.0" in out.pages["models/model-000.zh.md"]
    assert json.loads(out.files["downloads/ranking-zh-strict.json"])["release"] == "2026.12.0"
    assert (
        out.files["downloads/board-scores.csv"].decode().splitlines()[0].endswith("board_release")
    )
    assert "releases/2026.12.0/board.csv" in out.files
    assert "@misc{rgbboard2026_12_0," in out.pages["index.md"]
    home_zh = out.pages["index.zh.md"]
    assert "引用本榜" in home_zh and "chen2024benchmarking" in home_zh

    _rescore(root, "model-001")
    line = "Model 001 rescored: a scoring fix."
    data = load_site_data(root)
    assert release_status(data).label == "2026.12.0+unreleased"
    write_release(root, freeze(data, "2026.12.1", "2026-12-02", log + f"- {line}\n"))
    out = render(load_site_data(root))
    page = out.pages["releases.md"]
    assert page.index("## 2026.12.1") < page.index("## 2026.12.0")
    assert "Rescored (same answers, new results): Model 001." in page and line in page
    assert "outside its earlier interval" in page
    zh = out.pages["releases.zh.md"]
    assert "重新评分（回答不变，结果更新）：Model 001。" in zh and "超出此前的置信区间" in zh
    assert f'<span class="lb-quote" lang="en">{line}</span>' in zh

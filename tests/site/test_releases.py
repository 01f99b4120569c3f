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
    # not released yet: read as a released section reads, the record one click away
    pending = render(data).pages["releases.zh.md"]
    pending = pending[pending.index("## 最近一次发布之后的变化") : pending.index("## 2026.12.0")]
    summary, details = pending.split('<details class="lb-release-details">')
    assert "数值有变化（重新评分或重新运行）：Model 001。" in summary
    assert "Model 001 重新评分（回答不变）：" in details and "（更新日志未提及）。" in details
    write_release(root, freeze(data, "2026.12.1", "2026-12-02", log + f"- {line}\n"))
    out = render(load_site_data(root))
    page = out.pages["releases.md"]
    assert page.index("## 2026.12.1") < page.index("## 2026.12.0")
    changed = sum(
        1
        for s in json.loads((root / "submissions/model-001/results.json").read_text())["scores"]
        if s["value"] is not None
    )
    assert "Model 001 rescored (same answers): " in page and line in page
    assert "of its values changed." in page and "outside its earlier interval" in page
    assert "Values changed (rescored or rerun): Model 001." in page
    assert 0 < int(page.split("Model 001 rescored (same answers): ")[1].split()[0]) <= changed
    zh = out.pages["releases.zh.md"]
    assert "Model 001 重新评分（回答不变）：" in zh and "超出此前的置信区间" in zh
    assert f'<span class="lb-quote" lang="en">{line}</span>' in zh


def test_a_rescore_that_changed_no_value_is_one_line_not_one_per_entry(tmp_path):
    """Every entry rescored by new scoring code that moved no value: no entry is named, in the
    pending section and in the release that follows, in either language; the CHANGELOG line
    that says why is quoted once."""
    root = make_repo(tmp_path, n_models=3, n=4, predictions=False)
    write_release(root, freeze(load_site_data(root), "r1", "2026-12-01", "- First.\n"))
    for path in sorted((root / "submissions").glob("*/results.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["provenance"]["scoring_version"] = "rescored-0002"
        path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    why = "Every results.json rescored for the new scoring version (rescored-0002)."
    (root / "CHANGELOG.md").write_text(f"# Changelog\n\n- First.\n- {why}\n", encoding="utf-8")
    data = load_site_data(root)
    n = len(data.submissions)
    pending = render(data).pages
    write_release(root, freeze(data, "r2", "2026-12-02", f"- First.\n- {why}\n"))
    released = render(load_site_data(root)).pages
    for pages, head in ((pending, "## Changes since"), (released, "## r2")):
        en = pages["releases.md"]
        en = en[en.index(head) : en.index("## r1")]
        assert f"{n} entries rescored with new scoring code; no value changed." in en
        assert f"Rescored with no value changed: {n} entries." in en
        assert en.count(why) == 1 and "Model 00" not in en and "rescored (same" not in en
        zh = pages["releases.zh.md"]
        zh = zh[zh.index("## r2" if head == "## r2" else "## 最近") : zh.index("## r1")]
        assert f"{n} 个条目用新的评分代码重新评分，没有任何数值变化。" in zh
        assert f"重新评分，没有任何数值变化：{n} 个条目。" in zh and "Model 00" not in zh
        assert zh.count(why) == 1 and "更新日志未提及" not in zh

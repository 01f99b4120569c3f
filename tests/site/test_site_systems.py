"""The Systems page and the home page's band, rendered from the committed system entries next to
a model: both languages, every figure with its interval, systems kept out of the model tables."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from leaderboard.board.load import SiteData, load_entry
from leaderboard.board.systems import systems_board
from leaderboard.site.build import render
from leaderboard.site.pages.systems import PATH

REPO = Path(__file__).resolve().parents[2]
SYSTEMS = sorted(p.parent for p in (REPO / "submissions").glob("system-*/results.json"))


@pytest.fixture(scope="module")
def site(rgb_root: Path):
    if not SYSTEMS:
        pytest.skip("no system entry in this checkout")
    model = load_entry(REPO / "submissions" / "baseline-refuse")
    entries = (model, *(load_entry(p) for p in SYSTEMS))
    data = SiteData(submissions=entries, root=REPO)
    data = dataclasses.replace(data, extra={"systems": systems_board(data, rgb_root)})
    return render(data), entries


def test_the_systems_page_shows_every_system_with_intervals_in_both_languages(site) -> None:
    out, entries = site
    for path in (PATH, "systems.zh.md"):
        page = out.pages[path]
        for e in entries[1:]:
            assert e.name in page or e.name.replace("&", "&amp;") in page
        assert page.count('class="lb-ci"') >= 10  # rates, latencies and errors with intervals
        assert "systems-zh" in page and "systems-en" in page and "systems-paired" in page
    assert "端到端" in out.pages["systems.zh.md"] and "End-to-end" in out.pages[PATH]
    assert "system-api.v1.json" in out.pages[PATH]
    assert out.files["systems/system-api.v1.json"].startswith(b"{")
    for e in entries[1:]:
        assert f"systems/{e.id}/results.json" in out.files
    assert "downloads/systems-zh.csv" in out.files and "downloads/systems-paired.csv" in out.files


def test_the_floor_sits_in_the_band_and_systems_stay_off_the_model_tables(site) -> None:
    out, entries = site
    floor = next(e for e in entries if e.id == "system-floor-refuse")
    zh = out.pages[PATH].split("systems-zh", 1)[1].split("systems-en", 1)[0]
    assert zh.index("lb-baseline-body") < zh.index(floor.name)
    # the band's heading speaks of systems here, of models on the model tables
    assert "the floor a system has to beat" in zh and "a model has to beat" not in zh
    assert "系统至少应超过的下限" in out.pages["systems.zh.md"]
    for path in ("index.md", "index.zh.md"):
        assert "home-systems" in out.pages[path] and "systems.md" in out.pages[path]
    for path in ("models/index.md", "zh-vs-en.md", "abilities/zh-noise.md"):
        assert not any(e.id in out.pages[path] for e in entries[1:]), path
    assert not any(p.startswith("models/system-") for p in out.pages)


def test_the_nav_lists_the_systems_page_in_both_languages() -> None:
    config = yaml.safe_load(
        (REPO / "site" / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python", "#")
    )
    assert {"Systems": PATH} in config["nav"]
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    zh = next(lang for lang in i18n["languages"] if lang["locale"] == "zh")
    assert zh["nav_translations"]["Systems"] == "系统"


def test_the_zh_page_words_negative_intervals_in_chinese(site) -> None:
    """A paired difference whose interval crosses 0 reads "−21.3 至 1.8" on the zh page (the
    committed systems have such pairs), never the English "to"."""
    import re

    out, _ = site
    zh, en = out.pages["systems.zh.md"], out.pages[PATH]
    between = re.compile(r"\d (to|至) [-\u2212]?\d")
    assert {m.group(1) for m in between.finditer(zh)} == {"至"}
    assert {m.group(1) for m in between.finditer(en)} == {"to"}


def test_partial_systems_say_their_coverage_in_a_few_words(site) -> None:
    """The band (home) and the Systems page give a partial system the short coverage phrase of
    its chain questions, as the model tables do, never the runner's reasons in full."""
    out, _ = site
    for path, phrase in (
        ("index.md", "zh: 100 of 300 questions · en: 50 of 300 questions (partial file)"),
        (PATH, "en: 50 of 300 questions (partial file)"),
        ("index.zh.md", "zh：300 题中的 100 题 · en：300 题中的 50 题（部分数据文件）"),
        ("systems.zh.md", "en：300 题中的 50 题（部分数据文件）"),
    ):
        page = out.pages[path]
        assert phrase in page, path
        for raw in ("stands in for the official split", "none of the four"):
            assert raw not in page, (path, raw)

"""A real `mkdocs build --strict` of a repository whose submission ran the probes through the real
runner: the "From retrieval to answer" page, its stacked chart, the cliff markers on the noise
charts, the context-reliance table on the zh-versus-en page and the probes in the browser."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.site.build import build_site
from tests.helpers import write_tiny_hf_submission

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(rgb_root: Path, tiny_llama: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model entry (the tiny random Llama through the transformers backend: scripted
    baselines are drawn as a band, not as curves) with noise, rejection and both probes."""
    root = tmp_path_factory.mktemp("repo")
    (root / "site").mkdir()
    shutil.copyfile(REPO / "site" / "mkdocs.yml", root / "site" / "mkdocs.yml")
    for d in ("data_zh", "data_en"):
        (root / d).symlink_to(rgb_root / d)
    plan = {"allow_partial_data": True, "abilities": ["noise", "rejection"]}
    folder = root / "submissions" / "tiny-a"
    yaml_path = write_tiny_hf_submission(
        folder,
        tiny_llama,
        generation={"max_new_tokens": 4},
        batch_size=4,
        run=plan,
    )
    sub = load_submission(yaml_path)
    run_submission(sub, RunOptions(root=root, selection=Selection(limit=3), progress=False))
    probes = Selection(limit=3, abilities=("chain", "replacement"))
    run_submission(sub, RunOptions(root=root, selection=probes, progress=False))
    return build_site(root)


def test_probe_page_tables_and_chart(built: Path) -> None:
    html = (built / "retrieval-to-answer.html").read_text(encoding="utf-8")
    assert "From retrieval to answer" in html
    for label in ("Recall@5", "Acc. | support", "End-to-end", "Context reliance", "Below half at"):
        assert label in html
    assert "charts/chain-attribution-rgb.svg" in html
    svg = (built / "charts" / "chain-attribution-rgb.svg").read_text(encoding="utf-8")
    assert "retrieval miss" in svg and "generation miss" in svg
    assert "&lt;b&gt;" not in html or "<b>x</b>" not in html  # model text never raw HTML
    nav = (built / "index.html").read_text(encoding="utf-8")
    assert "retrieval-to-answer.html" in nav
    data = json.loads((built / "downloads" / "chain-rgb.json").read_text(encoding="utf-8"))
    assert data  # the table is downloadable like every other


def test_cliff_markers_on_the_noise_charts(built: Path) -> None:
    svg = (built / "charts" / "zh-noise-rgb.svg").read_text(encoding="utf-8")
    page = (built / "abilities" / "zh-noise.html").read_text(encoding="utf-8")
    assert "largest drop" in page  # the alt text says what the markers are
    assert ">cliff<" in svg  # the largest drop's thick segment is labelled


def test_reliance_on_zh_vs_en_and_probes_in_the_browser(built: Path) -> None:
    page = (built / "zh-vs-en.html").read_text(encoding="utf-8")
    assert "Context reliance zh" in page and "Context reliance en" in page
    index = (built / "instances" / "index.html").read_text(encoding="utf-8")
    assert "zh-chain-0.0.html" in index and "en-replacement-0.0.html" in index
    browser = (built / "instances" / "zh-replacement-0.0.html").read_text(encoding="utf-8")
    doc = json.loads(re.search(r'id="lb-instances-data">(.*?)</script>', browser, re.S).group(1))
    part = (built / "instances" / doc["parts"][0]["url"]).read_text(encoding="utf-8")
    items = json.loads(part)["items"]
    assert items and all(len(it["src"]) == 5 for it in items)
    assert all(s.startswith("zh_refine.json#") for s in items[0]["src"])

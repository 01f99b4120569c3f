"""A real `mkdocs build --strict` of a synthetic repository: files, determinism, links, no external
references, and the `rgb-leaderboard site build` command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from leaderboard.core.errors import LeaderboardError
from leaderboard.site.build import build_site
from tests.site_factory import make_repo

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("site"), n_models=3, n=3)
    return build_site(root)


def _tree(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.refs.append((tag, name, value))


def test_build_writes_every_page(built):
    for rel in (
        "index.html",
        "ranking-rgb.html",
        "zh-vs-en.html",
        "abilities/zh-noise.html",
        "abilities/en-counterfactual.html",
        "models/index.html",
        "models/model-000.html",
        "models/model-000/results.json",
        "models/model-000/predictions.jsonl.gz",
        "instances/index.html",
        "instances/zh-noise-0.0.html",
        "methodology.html",
        "downloads.html",
        "downloads/ranking-all-rgb.csv",
        "charts/zh-noise-rgb.svg",
        "assets/vendor/tablesort/tablesort.min.js",
        "assets/vendor/tablesort/LICENCE",
    ):
        assert (built / rel).is_file(), rel
    assert (built.parent / "docs" / "index.md").is_file()


def test_same_inputs_same_bytes(built, tmp_path):
    root = built.parent.parent
    again = build_site(root, tmp_path / "again")
    a, b = _tree(built), _tree(again)
    assert sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []


def test_links_resolve_and_nothing_external_is_loaded(built):
    for page in sorted(built.rglob("*.html")):
        parser = _Refs()
        parser.feed(page.read_text(encoding="utf-8"))
        for tag, attr, value in parser.refs:
            parts = urlsplit(value)
            if parts.scheme or value.startswith("//"):
                # outbound links are allowed (a click, not a request); loaded resources are not
                assert tag == "a", f"{page}: {tag} {attr}={value} loads from outside"
                continue
            if not parts.path:
                continue
            base = (
                built if parts.path.startswith("/") else page.parent
            )  # 404.html uses site-absolute
            target = (base / parts.path.lstrip("/")).resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{page.relative_to(built)}: broken {attr}={value}"
    css = "".join(p.read_text(encoding="utf-8") for p in built.rglob("*.css"))
    assert not re.search(r"url\((['\"]?)(https?:)?//", css), "a stylesheet loads a remote url()"
    assert "fonts.googleapis" not in (built / "index.html").read_text(encoding="utf-8")


def test_cli_site_build(tmp_path):
    root = make_repo(tmp_path / "cli", n_models=2, n=2, predictions=False, reported=False)
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leaderboard",
            "site",
            "build",
            "--repo",
            str(root),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "site built" in proc.stdout and (out / "index.html").is_file()
    # no predictions: the rank ranges cannot be narrowed; the build says why, the page says whose
    warned = "warning: not compared for the rank ranges: model-001: no predictions to compare"
    assert warned in proc.stderr
    home = (out / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in home  # the names are data: escaped
    assert "Rank ranges not narrowed for Model 000 &lt;script&gt;alert(1)&lt;/script&gt;" in home
    zh_home = (out / "zh" / "index.html").read_text(encoding="utf-8")
    assert "以下条目的名次区间未能通过配对比较收窄：Model 000 &lt;script&gt;" in zh_home


def test_cli_reports_bad_results_without_traceback(tmp_path):
    root = make_repo(tmp_path / "bad", n_models=1, n=2, predictions=False, reported=False)
    (root / "submissions" / "model-000" / "results.json").write_text("{}")
    proc = subprocess.run(
        [sys.executable, "-m", "leaderboard", "site", "build", "--repo", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "results.json: invalid results file: field" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_strict_build_fails_on_broken_markdown_link(tmp_path):
    root = make_repo(tmp_path / "s", n_models=1, n=2, predictions=False, reported=False)
    cfg = root / "site" / "mkdocs.yml"
    cfg.write_text(
        cfg.read_text().replace(
            "  - Downloads: downloads.md", "  - Downloads: downloads.md\n  - Gone: gone.md"
        )
    )
    with pytest.raises(LeaderboardError, match="mkdocs build failed"):
        build_site(root)


FAKE_YAML = """id: fake-site
display_name: Fake <b>site</b> check
model: fake
backend: scripted
scripted:
  policy: cycle
  responses:
    - 答案是12人。
    - 信息不足，无法回答。
    - 文档中存在事实性错误。
    - "<script>alert(1)</script>"
"""


def test_runner_output_builds_and_pass_fail_agrees_with_results(tmp_path):
    """End to end with the real runner (fake backend) and real data: every instance page's pass rate
    equals the cell rate in results.json (accuracy / rejection rate / CR over all)."""
    repo = Path(__file__).resolve().parents[2]
    if not (repo / "data_zh" / "zh_refine.json").is_file():
        pytest.skip("RGB data not fetched: run `rgb-leaderboard data fetch`")
    root = tmp_path / "e2e"
    (root / "submissions" / "fake-site").mkdir(parents=True)
    (root / "data_zh").symlink_to(repo / "data_zh")
    (root / "submissions" / "fake-site" / "model.yaml").write_text(FAKE_YAML, encoding="utf-8")
    run = [sys.executable, "-m", "leaderboard", "run", "submissions/fake-site/model.yaml"]
    proc = subprocess.run(
        [*run, "--limit", "3", "--languages", "zh"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(repo)},  # this checkout's package, not an install
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    built = build_site(root)
    results = json.loads((root / "submissions" / "fake-site" / "results.json").read_text())
    checked = 0
    for page in sorted((built / "instances").glob("zh-*.html")):
        text = page.read_text(encoding="utf-8")
        doc = json.loads(re.search(r'id="lb-instances-data">(.*?)</script>', text, re.S).group(1))
        doc["items"] = [  # the items are in data parts next to the page, loaded on demand
            item
            for ref in doc["parts"]
            for item in json.loads((page.parent / ref["url"]).read_text(encoding="utf-8"))["items"]
        ]
        for mode in ("rgb", "strict"):
            passes = [item["preds"]["fake-site"][mode] for item in doc["items"]]
            cell = next(
                c
                for c in results["cells"]
                if (c["lang"], c["ability"], c["mode"]) == (doc["lang"], doc["ability"], mode)
                and abs(c["noise_rate"] - doc["noise_rate"]) < 1e-9
            )
            if doc["ability"] == "counterfactual":
                if mode == "rgb":
                    continue  # rgb CR is corrected / detected: no per-item rate to compare
                expected = cell["cr_all"]
            elif doc["ability"] == "rejection":
                expected = cell["rejection_rate"]
            else:
                expected = cell["accuracy"]
            assert sum(passes) / len(passes) == pytest.approx(expected), (page.name, mode)
            checked += 1
    assert checked >= 15


def test_model_page_title_is_escaped_once(built):
    """Issue 13: the page title is set in front matter (escaped once), not taken from the heading,
    whose entities the theme's `striptags` decoded again into live markup."""
    page = (built / "models" / "model-000.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert title.startswith("Model 000 &lt;script&gt;alert(1)&lt;/script&gt; - ")
    assert page.count("<script>alert(1)") == 0

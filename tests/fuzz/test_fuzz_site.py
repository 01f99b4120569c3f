"""The hostile corpus (tests/fuzz/harness.py HOSTILE, plus a 1 MB string) pushed through every
field that reaches the site, in one real `mkdocs build` of a synthetic board, then checked in the
built HTML, SVG, CSV, JSON and search index, and in headless Chromium on every generated page (no
dialog opens, no request leaves 127.0.0.1).

Each model gets one group of payloads (joined to at most 200 characters, the display-name limit)
in every text field: display name, weights, provenance, partial reasons, data file, definitions,
bootstrap method, predictions and errors, model.yaml; the reported.yaml rows get them too.
Set SITE_SHOTS_DIR to save a screenshot of the model page whose name is `</title><script>...`.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from leaderboard.site.build import build_site
from leaderboard.site.pages.instances.parts import SHOWN_CHARS
from leaderboard.site.serve import serve_in_thread
from tests.fuzz.harness import BIG, HOSTILE
from tests.site.chromium import launched, require_browser
from tests.site_factory import make_predictions, make_repo, make_results, write_submission

pytestmark = pytest.mark.slow
TITLE_XSS = "</title><script>alert(1)</script>"
PAYLOAD_TAGS = re.compile(r"<\s*(script|img|svg|iframe|link|style|a\s+href\s*=\s*javascript)", re.I)


def _groups() -> list[str]:
    groups, current = [], ""
    for p in HOSTILE:
        if current and len(current) + len(p) + 3 > 200:
            groups.append(current)
            current = ""
        current = f"{current} | {p}" if current else p
    return [*groups, current]


def _hostile_submission(root: Path, k: int, text: str) -> None:
    sub_id = f"hostile-{k}"
    res = make_results(sub_id, text, seed=k, n=2, expected_n=4)
    prov = res.provenance.model_copy(
        update={
            "command": f"rgb-leaderboard run {text}",
            "model": text,
            "model_revision": text,
            "backend": text,
            "dtype": text,
            "quantization": {"mode": text, "method": text},
            "chat_template_source": text,
            "generation": {"temperature": text},
            "versions": {text: text},
            "device": text,
            "extra": {"params": text, "note": BIG if k == 0 else text},
        }
    )
    res = res.model_copy(
        update={
            "provenance": prov,
            "partial_reasons": [text],
            "cells": [c.model_copy(update={"data_file": text}) for c in res.cells],
            "scores": [s.model_copy(update={"definition": text}) for s in res.scores],
            "bootstrap": res.bootstrap.model_copy(update={"method": text}),
        }
    )
    preds = make_predictions(sub_id, 2, text=lambda s, key, i: BIG if k == i == 0 else text)
    preds = [
        p.model_copy(update={"error": text if i % 3 == 0 else None}) for i, p in enumerate(preds)
    ]
    comment = "".join(ch for ch in text if ch.isprintable())
    model_yaml = (
        f"id: {sub_id}\ndisplay_name: {json.dumps(text)}\nparams: {json.dumps(text)}\n"
        f"# {comment}\nbackend: hf\n"
    )
    write_submission(root, res, preds, gz=k % 2 == 0, model_yaml=model_yaml)


def _reported(root: Path, groups: list[str]) -> None:
    models = [
        {
            "id": f"paper-{k}",
            "display_name": g,
            "zh": {"noise": {0.0: 90.0, 0.2: 80.0}, "rejection": {"rej": 10.0}},
            "en": {"counterfactual": {"acc": 50.0, "ed": 5.0, "cr": 10.0}},
        }
        for k, g in enumerate(groups)
    ]
    doc = {
        "format": "reported-v1",
        "source": {
            "citation": groups[0],
            "doi": groups[1],
            "url": HOSTILE[5],
            "tables": groups[-1],
        },
        "units": "percent",
        "notes": groups,
        "models": models,
    }
    (root / "submissions" / "rgb-paper" / "reported.yaml").write_text(
        yaml.safe_dump(doc, allow_unicode=False), encoding="utf-8"
    )


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("hostile"), n_models=1, n=2)
    groups = _groups()
    for k, text in enumerate(groups):
        _hostile_submission(root, k, text)
    _reported(root, groups)
    return build_site(root)


class _Markup(HTMLParser):
    """Everything in a page that could run or load something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action", "formaction") and value:
                v = re.sub(r"\s", "", value).lower()
                if v.startswith(("javascript:", "vbscript:", "data:text/html")):
                    self.problems.append(f"<{tag} {name}={value[:60]}>")
                if name == "src" and v.startswith(("http:", "https:", "//")):
                    self.problems.append(f"external <{tag} src={value[:60]}>")
        if tag in ("iframe", "object", "embed", "frame", "base"):
            self.problems.append(f"<{tag}>")
        if tag == "link" and re.sub(r"\s", "", a.get("href") or "").startswith(("http", "//")):
            self.problems.append(f"external <link href={a.get('href')}>")
        if tag == "script":
            self._script = a

    def handle_data(self, data):
        script = self._script
        if script is not None and "alert(" in data and script.get("type") != "application/json":
            self.problems.append("a script with a payload")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


def test_built_files_carry_the_payloads_only_as_text(hostile_site: Path) -> None:
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > 30
    for page in pages:
        text = page.read_text(encoding="utf-8")
        parser = _Markup()
        parser.feed(text)
        assert parser.problems == [], f"{page.relative_to(hostile_site)}: {parser.problems}"
        title = re.search(r"<title>(.*?)</title>", text, re.S)
        assert title and "<" not in title.group(1), page
    for svg in sorted(hostile_site.rglob("*.svg")):
        root = ET.fromstring(svg.read_bytes())  # well-formed (no NUL, no broken escape)
        for el in root.iter():
            assert not el.tag.endswith(("script", "foreignObject")), svg
            assert not [k for k in el.attrib if k.startswith("on")], svg
    for path in sorted((hostile_site / "downloads").glob("*.csv")):
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))):
            for cell in row:
                if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
                    float(cell)  # only a number may start like a formula
    for path in sorted((hostile_site / "downloads").glob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))
    index = json.loads((hostile_site / "search" / "search_index.json").read_text())
    for doc in index["docs"]:
        assert not PAYLOAD_TAGS.search(doc["title"] + doc["text"]), doc["location"]
    model = next(p for p in (hostile_site / "models").glob("hostile-*.html") if TITLE_XSS in _h1(p))
    title = re.search(r"<title>(.*?)</title>", model.read_text(encoding="utf-8")).group(1)
    assert title.startswith("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;")


def _h1(page: Path) -> str:
    import html

    m = re.search(r"<h1[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8"), re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""


def test_every_page_in_chromium_runs_no_payload(hostile_site: Path) -> None:
    require_browser()
    requests: list[str] = []
    dialogs: list[str] = []
    with serve_in_thread(hostile_site) as base, launched() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("request", lambda r: requests.append(r.url))
        page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))
        pages = sorted(p.relative_to(hostile_site).as_posix() for p in hostile_site.rglob("*.html"))
        for rel in pages:
            page.goto(base + rel, wait_until="load", timeout=90_000)
            page.wait_for_timeout(30)  # lb.js renders the instance browser after load
        # The 1 MB answer shows as its first SHOWN_CHARS characters and a note (the whole of
        # it kept Chromium's renderer busy for minutes: the next page timed out).
        page.goto(base + _page_with_a_cut_answer(hostile_site), wait_until="load", timeout=90_000)
        page.wait_for_selector(".lb-clipped")
        longest = page.eval_on_selector_all(
            ".lb-output", "tds => Math.max(...tds.map(td => td.textContent.length))"
        )
        assert SHOWN_CHARS < longest < SHOWN_CHARS + 200
        assert "1,000,000" in page.inner_text(".lb-clipped")
        target = next(
            p
            for p in pages
            if p.startswith("models/hostile-") and TITLE_XSS in _h1(hostile_site / p)
        )
        page.goto(base + target, wait_until="load", timeout=90_000)
        assert page.title().startswith(TITLE_XSS)
        assert TITLE_XSS in page.inner_text("h1")
        shots = os.environ.get("SITE_SHOTS_DIR")
        if shots:
            _screenshot(page, Path(shots))
    external = [u for u in requests if not u.startswith((base, "data:", "blob:", "about:"))]
    assert external == [], external[:5]
    assert dialogs == [], dialogs[:5]
    assert len(pages) > 30


def _page_with_a_cut_answer(site: Path) -> str:
    """A Chinese instance page whose data holds a cut answer that is shown (not an error)."""
    for part in sorted((site / "zh" / "instances" / "data").glob("*/*.json")):
        items = json.loads(part.read_text(encoding="utf-8"))["items"]
        if any("tn" in p and not p["e"] for item in items for p in item["preds"].values()):
            return f"zh/instances/{part.parent.name}.html"
    raise AssertionError("no page shows the 1 MB answer")


def _screenshot(page, out: Path) -> None:
    """The model page with its document.title written into a banner (a title is not visible in
    a page screenshot otherwise); the banner uses textContent, so it shows text only."""
    out.mkdir(parents=True, exist_ok=True)
    page.evaluate(
        """() => { const b = document.createElement('div');
        b.style.cssText = 'position:fixed;bottom:0;left:0;right:0;z-index:9;padding:8px;'
          + 'background:#ffe;border-top:2px solid #c00;font:14px monospace';
        b.textContent = 'document.title = ' + JSON.stringify(document.title);
        document.body.appendChild(b); }"""
    )
    page.screenshot(path=str(out / "xss-model-page-title.png"))

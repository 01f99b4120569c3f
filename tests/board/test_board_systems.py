"""The systems table's figures: latency quantiles with bootstrap intervals, paired comparisons on
the same questions, the floor band and the error-share rule, from real run folders."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
import yaml

from leaderboard.board.load import SiteData, load_entry
from leaderboard.board.systems import (
    MAX_ERROR_SHARE,
    compare_pair,
    is_system,
    latency_quantile,
    models_only,
    system_row,
    systems_board,
)
from leaderboard.core.submission import load_submission
from leaderboard.protocol.corpus import load_corpus
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection

REPO = Path(__file__).resolve().parents[2]
FLOOR = REPO / "submissions" / "system-floor-refuse"


def test_latency_quantiles_carry_a_bootstrap_interval() -> None:
    x = np.linspace(1.0, 10.0, 100)
    p50, p95 = latency_quantile(x, 0.5), latency_quantile(x, 0.95)
    assert p50.value == pytest.approx(5.5) and p95.value == pytest.approx(np.quantile(x, 0.95))
    assert p50.ci and p50.ci[0] < p50.value < p50.ci[1]
    assert p95.ci and p95.ci[0] <= p95.value <= p95.ci[1]
    assert latency_quantile(x, 0.5) == p50  # seeded: the same figure every build
    assert latency_quantile([], 0.5).value is None and latency_quantile([2.0], 0.5).ci is None


def test_paired_comparison_on_shared_questions() -> None:
    a = {i: {"strict": i < 30, "rgb": i < 30} for i in range(40)}
    b = {i: {"strict": i < 10, "rgb": i < 10} for i in range(45)}  # 5 questions only b answered
    pair = compare_pair(a, b, "zh", "strict", ("a", "b"))
    assert pair.n == 40 and pair.only_a == 20 and pair.only_b == 0
    assert pair.diff == pytest.approx(0.5) and pair.sign == 1
    same = compare_pair(a, a, "zh", "strict", ("a", "a2"))
    assert same.diff == 0 and same.ci and same.ci[0] < 0 < same.ci[1] and same.sign == 0


def test_the_floor_is_a_band_never_ranked() -> None:
    if not (FLOOR / "results.json").exists():
        pytest.skip("the floor's run is not in this checkout")
    entry = load_entry(FLOOR)
    assert is_system(entry)
    row = system_row(entry, "zh")
    assert row is not None and row.floor and not row.ranked
    assert row.n >= 100 and row.errors == 0 and row.end_to_end["strict"].value == 0.0
    assert row.recall.value == 0.0 and row.retrieval_miss.value == 1.0
    assert row.error_share.ci is not None and row.error_share.ci[1] > 0
    board = systems_board(SiteData(submissions=(entry,)), None)
    assert {r.lang for r in board.rows} == {"zh", "en"} and board.pairs == ()
    assert models_only(SiteData(submissions=(entry,))).submissions == ()


PASTE = REPO / "submissions" / "system-floor-paste"


def test_a_declared_trivial_system_citing_passages_is_floor_band() -> None:
    """The pasted-top-passage strategy cites passages, yet its model.yaml's `system.trivial`
    keeps it in the floor band; its strict accuracy stays far under rgb's substring credit."""
    if not (PASTE / "results.json").exists():
        pytest.skip("the pasting strategy's run is not in this checkout")
    entry = load_entry(PASTE)
    for lang in ("zh", "en"):
        row = system_row(entry, lang)
        assert row is not None and row.floor and not row.ranked and row.recall.value
        strict, rgb = row.end_to_end["strict"].value, row.end_to_end["rgb"].value
        assert strict is not None and rgb is not None and strict < rgb / 2


def test_a_run_over_the_error_share_is_listed_unranked(rgb_root: Path, tmp_path: Path) -> None:
    """A real run where one question in three gets a 500: the row shows the errors and is not
    ranked; a second, healthy system on the same questions is compared with it."""
    _, passages = load_corpus(rgb_root, "zh", limit=3)
    ids = [p.id for p in passages[:5]]
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if self.path == "/broken":
                seen.append(body["question"])
            broken = self.path == "/broken" and len(seen) == 1  # the first question it is asked
            data = json.dumps({"answer": "不知道", "passage_ids": ids}).encode()
            self.send_response(500 if broken else 200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    entries = []
    try:
        for name in ("broken", "healthy"):
            folder = tmp_path / name
            folder.mkdir()
            spec = {
                "id": name,
                "display_name": name,
                "model": name,
                "backend": "system",
                "system": {"url": f"http://127.0.0.1:{httpd.server_port}/{name}", "max_retries": 0},
                "run": {"abilities": ["chain"], "allow_partial_data": True},
            }
            (folder / "model.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
            sub = load_submission(folder / "model.yaml")
            run_submission(
                sub,
                RunOptions(
                    root=rgb_root, selection=Selection(limit=3, languages=("zh",)), progress=False
                ),
            )
            entries.append(load_entry(folder))
    finally:
        httpd.shutdown()
    board = systems_board(SiteData(submissions=tuple(entries)), rgb_root)
    rows = {r.id: r for r in board.rows}
    assert rows["broken"].errors == 1 and rows["broken"].error_share.value > MAX_ERROR_SHARE
    assert not rows["broken"].ranked and rows["healthy"].ranked
    assert [r.id for r in board.rows] == ["healthy", "broken"]  # ranked first
    assert rows["healthy"].latency_p50.value is not None
    strict = [p for p in board.pairs if p.mode == "strict"]
    assert (
        len(strict) == 1
        and strict[0].n == 3
        and (strict[0].a, strict[0].b) == ("broken", "healthy")
    )


def test_systems_show_prints_the_table_and_the_pairs(rgb_root: Path) -> None:
    from typer.testing import CliRunner

    from leaderboard.cli import app

    if not (FLOOR / "results.json").exists():
        pytest.skip("the floor's run is not in this checkout")
    res = CliRunner().invoke(
        app, ["systems", "show", "--repo", str(REPO), "--data-dir", str(rgb_root)]
    )
    assert res.exit_code == 0, res.output
    assert "system-floor-refuse (floor, n=" in res.output and "end-to-end strict" in res.output
    assert "paired comparisons" in res.output

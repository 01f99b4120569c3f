"""Site build at scale: 100 synthetic models with full predictions (targets: build under 60 s,
home page under 500 KB).

Each model gets a complete results.json and one prediction per instance of every split at full
size (zh and en: noise 300 records x 5 noise rates, rejection 300, integration 100 x 3,
counterfactual 100 = 2,200 predictions per language, 4,400 per model, 440,000 in all, gzipped).
When the RGB data is fetched in the repository (data_zh/, data_en/) it is copied in, so the
instance browser pages carry real passages and pass/fail scoring too. Generating the inputs is not
timed; loading, rendering, writing docs/ and `mkdocs build --strict` are, separately and together.

Run: python benchmarks/bench_site.py [--models 100] [--no-data] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from leaderboard.board.load import load_site_data  # noqa: E402
from leaderboard.site.build import (  # noqa: E402
    _config,
    render,
    run_mkdocs,
    source_date_epoch,
    write_docs,
)
from tests.site_factory import (  # noqa: E402
    make_predictions,
    make_repo,
    make_results,
    write_submission,
)

FULL = {"noise": 300, "rejection": 300, "integration": 100, "counterfactual": 100}
TARGET_S = 60.0
HOME_KB = 500.0
PAGE_KB = 500.0  # any page with the data it fetches at open
_MANIFEST = re.compile(r'id="lb-instances-data">(.*?)</script>', re.S)


def _at_open_kb(page: Path) -> float:
    """A page's HTML plus the data it fetches at open (an instance page's first data part)."""
    text = page.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))
    found = _MANIFEST.search(text)
    if found:
        parts = json.loads(found.group(1)).get("parts") or []
        if parts:
            size += (page.parent / parts[0]["url"]).stat().st_size
    return size / 1024


def _make(root: Path, models: int, with_data: bool) -> None:
    make_repo(root, n_models=0)
    for i in range(models):
        sub_id = f"model-{i:03d}"
        res = make_results(sub_id, f"Synthetic model {i:03d}", seed=i, n=300)
        write_submission(root, res, make_predictions(sub_id, FULL))
    if with_data:
        for lang in ("zh", "en"):
            src = REPO / f"data_{lang}"
            if src.is_dir():
                shutil.copytree(src, root / f"data_{lang}", dirs_exist_ok=True)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (mkdocs, forked workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _size_kb(path: Path) -> float:
    return path.stat().st_size / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--no-data", action="store_true", help="do not copy the fetched RGB data in")
    ap.add_argument("--keep", type=Path, help="build here and keep it (default: a temp folder)")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench_site_"))
    with_data = not args.no_data and (REPO / "data_zh").is_dir()
    t0 = time.perf_counter()
    _make(root, args.models, with_data)
    t_gen = time.perf_counter() - t0

    config = _config(root)
    built = config.parent / "build"
    times: dict[str, tuple[float, float]] = {}
    state: dict[str, object] = {}

    def phase(name: str, fn) -> None:
        t, c = time.perf_counter(), _cpu()
        fn()
        times[name] = (time.perf_counter() - t, _cpu() - c)

    start, cpu0 = time.perf_counter(), _cpu()
    phase("load", lambda: state.update(data=load_site_data(root)))
    phase("render", lambda: state.update(out=render(state["data"])))
    phase("write docs", lambda: write_docs(config.parent / "docs", state["out"]))
    epoch = source_date_epoch(state["data"])
    phase("mkdocs build --strict", lambda: run_mkdocs(config, built, True, epoch))
    total, total_cpu = time.perf_counter() - start, _cpu() - cpu0
    data = state["data"]

    pages = sorted(built.rglob("*.html"), key=lambda p: p.stat().st_size, reverse=True)
    site_mb = sum(p.stat().st_size for p in built.rglob("*") if p.is_file()) / 2**20
    home = _size_kb(built / "index.html")
    n_preds = sum(len(s.predictions) for s in data.submissions)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(
        f"inputs: {args.models} models, {n_preds:,} predictions, RGB data copied in: {with_data}"
        f" (generated in {t_gen:.1f} s, not timed)"
    )
    for name, (secs, cpu) in times.items():
        print(f"  {name:24s} {secs:7.1f} s wall  {cpu:7.1f} s CPU")
    print(
        f"build total: {total:.1f} s wall, {total_cpu:.1f} s CPU (target < {TARGET_S:.0f} s)"
        f" -> {'OK' if total < TARGET_S else 'OVER'}"
    )
    print(
        f"home page: {home:.0f} KB (target < {HOME_KB:.0f} KB) -> "
        f"{'OK' if home < HOME_KB else 'OVER'}"
    )
    print(f"pages: {len(pages)} HTML, site total {site_mb:.1f} MiB; largest pages:")
    for p in pages[:5]:
        print(f"  {p.relative_to(built)}: {_size_kb(p):.0f} KB")
    for name in ("zh-vs-en.html", "abilities/zh-noise.html", "models/model-000.html"):
        print(f"  {name}: {_size_kb(built / name):.0f} KB")
    at_open = sorted(((_at_open_kb(p), p) for p in pages), reverse=True)
    worst, worst_page = at_open[0]
    print(
        f"largest page with what it loads at open: {worst_page.relative_to(built)} "
        f"{worst:.0f} KB (target < {PAGE_KB:.0f} KB) -> {'OK' if worst < PAGE_KB else 'OVER'}"
    )
    inst = [(kb, p) for kb, p in at_open if p.relative_to(built).parts[-2:-1] == ("instances",)]
    if inst:
        print(
            f"largest instance page with what it loads at open: {inst[0][1].relative_to(built)} "
            f"{inst[0][0]:.0f} KB"
        )
    parts = list((built / "instances" / "data").rglob("*.json"))
    if parts:
        biggest = max(p.stat().st_size for p in parts) / 1024
        print(f"instance data parts: {len(parts)} files, largest {biggest:.0f} KB")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if total < TARGET_S and home < HOME_KB else 1


if __name__ == "__main__":
    raise SystemExit(main())

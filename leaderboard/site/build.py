"""Build the site: load and validate submissions, render every page, write site/docs/, run mkdocs.

`render(data)` is pure (SiteData -> Output); `build_site` does the I/O. The same inputs give the
same bytes: everything is sorted, charts carry no dates, and mkdocs runs with SOURCE_DATE_EPOCH set
from the newest `provenance.finished` in the results (0 without results), so the sitemap is stable
too.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from functools import partial
from importlib import resources
from pathlib import Path

import yaml

from leaderboard.board.conflicts import conflict_panels
from leaderboard.board.frames import board_from
from leaderboard.board.instructions import instruction_panels
from leaderboard.board.load import SiteData, load_site_data
from leaderboard.board.paired import compare_all
from leaderboard.board.systems import SystemsBoard, models_only, systems_board
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.core.write_errors import write_errno_in, write_failed
from leaderboard.data.manifest import data_root
from leaderboard.retrieval.results import RESULTS_DIR, load_retrieval_board
from leaderboard.site.languages import finish_languages
from leaderboard.site.pages.ability.page import ability_page
from leaderboard.site.pages.compare import PATH as COMPARE_PATH
from leaderboard.site.pages.compare import compare_page
from leaderboard.site.pages.conflicts.examples import EXAMPLES as CONFLICT_EXAMPLES
from leaderboard.site.pages.conflicts.examples import pick_examples
from leaderboard.site.pages.conflicts.page import PATH as CONFLICTS_PATH
from leaderboard.site.pages.conflicts.page import conflicts_page
from leaderboard.site.pages.conflicts.panels import PANELS as CONFLICT_PANELS
from leaderboard.site.pages.docs import (
    DocPage,
    doc_pages,
    docs_folder,
    index_texts,
    page_texts,
    with_docs_nav,
)
from leaderboard.site.pages.downloads import board_downloads, downloads_page, models_index_page
from leaderboard.site.pages.errata import PATH as ERRATA_PATH
from leaderboard.site.pages.errata import errata_page
from leaderboard.site.pages.glossary import PATH as GLOSSARY_PATH
from leaderboard.site.pages.glossary import glossary_page
from leaderboard.site.pages.home import home_page
from leaderboard.site.pages.instances.page import instance_pages
from leaderboard.site.pages.instructions import PANELS, instructions_page
from leaderboard.site.pages.instructions import PATH as INSTRUCTIONS_PATH
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.model.page import model_pages
from leaderboard.site.pages.releases import PATH as RELEASES_PATH
from leaderboard.site.pages.releases import footer as release_footer
from leaderboard.site.pages.releases import release_files, release_status, releases_page
from leaderboard.site.pages.retrieval.page import PAGE as RETRIEVAL_PAGE
from leaderboard.site.pages.retrieval.page import retrieval_page
from leaderboard.site.pages.retrieval.questions import question_pages
from leaderboard.site.pages.retrieval_to_answer import PATH as PROBES_PATH
from leaderboard.site.pages.retrieval_to_answer import probes_page
from leaderboard.site.pages.submission_ref import PAGE as REFERENCE_PAGE
from leaderboard.site.pages.submission_ref import reference_page
from leaderboard.site.pages.systems import PATH as SYSTEMS_PATH
from leaderboard.site.pages.systems import system_files, systems_band, systems_page
from leaderboard.site.pages.zh_en.page import zh_vs_en_page
from leaderboard.site.render.i18n import DEFAULT, SITE_LANGS, localized
from leaderboard.site.render.page import Context, Family, Output, Page, prefix_for
from leaderboard.site.render.tables import to_csv, to_json

PROJECT_SITE = Path(__file__).resolve().parents[2] / "site"
BUILD_CONFIG = "mkdocs.build.yml"  # the generated configuration mkdocs runs with


# Every page of the site, in the order they are built: a page is one entry (a docs path and a
# build(ctx) -> str), written in every site language by the same loop. The downloads page comes
# last: it lists the tables of every page before it.
def _home_with_systems(ctx: Context) -> str:
    """The home page, then the systems band (empty without systems)."""
    band = systems_band(ctx.systems, ctx.out, ctx.lg) if ctx.systems is not None else ""
    return home_page(ctx) + band


def _systems(ctx: Context) -> str:
    return systems_page(ctx.systems or SystemsBoard(), ctx.out, ctx.lg)


PAGES: tuple[Page | Family, ...] = (
    Page("index.md", _home_with_systems),
    Page("ranking-rgb.md", partial(home_page, mode="rgb")),
    Page("zh-vs-en.md", zh_vs_en_page),
    Page("zh-vs-en-rgb.md", partial(zh_vs_en_page, mode="rgb")),
    Page(INSTRUCTIONS_PATH, instructions_page),
    Page(CONFLICTS_PATH, conflicts_page),
    Page(COMPARE_PATH, compare_page),
    Page(SYSTEMS_PATH, _systems),
    Page(PROBES_PATH, probes_page),
    *(
        Page(f"abilities/{lang}-{ability}.md", partial(ability_page, lang=lang, ability=ability))
        for lang in LANGS
        for ability in ABILITIES
    ),
    Page("models/index.md", models_index_page),
    Family(model_pages),
    Family(instance_pages),
    Page(RETRIEVAL_PAGE, retrieval_page),
    Family(question_pages),
    Page("methodology.md", methodology_page),
    Page(ERRATA_PATH, errata_page),
    Page(GLOSSARY_PATH, glossary_page),
    Page(RELEASES_PATH, releases_page),
    Page(REFERENCE_PAGE, reference_page),
    Page("downloads.md", downloads_page),
)


def render(data: SiteData) -> Output:
    """Every page in every site language, chart, download and copied submission file, keyed by
    path under docs/."""
    out = Output()
    systems = data.extra.get("systems")  # build_site computes it with the data (paired tests)
    systems = systems if isinstance(systems, SystemsBoard) else systems_board(data, None)
    status = release_status(data)  # every entry, systems included, as a release holds them
    data = models_only(data)  # systems have their own page and band, never the model tables
    board = load_retrieval_board((data.root or Path(".")) / RESULTS_DIR)
    contexts = [Context(data, out, lg, board, systems, status) for lg in SITE_LANGS]
    for spec in PAGES:
        pages = spec.expand(contexts[0]) if isinstance(spec, Family) else (spec,)
        for page in pages:
            for ctx in contexts:
                foot = release_footer(status, ctx.lg, prefix_for(page.path))
                out.pages[localized(page.path, ctx.lg)] = page.build(ctx) + foot
    system_files(systems, out)
    release_files(status, data, out.files)
    out.draw_charts()
    for lg in SITE_LANGS:
        seen: set[str] = set()
        for table in out.tables_in(lg):
            if table.id in seen:
                raise LeaderboardError(f"internal: two tables share the id {table.id!r} ({lg})")
            seen.add(table.id)
    for table in out.tables_in(SITE_LANGS[0]):  # the downloads: the default language's tables
        out.files[f"downloads/{table.id}.csv"] = to_csv(table, status.label).encode("utf-8")
        out.files[f"downloads/{table.id}.json"] = to_json(table, status.label).encode("utf-8")
    board_downloads(board_from(data), out, status.label)
    return out


def _assets() -> dict[str, bytes]:
    root = resources.files("leaderboard.site") / "assets"
    files: dict[str, bytes] = {}

    def walk(node, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name != "__init__.py":
                files[f"assets/{prefix}{child.name}"] = child.read_bytes()

    walk(root, "")
    return files


def write_docs(docs_dir: Path, out: Output) -> None:
    """Replace docs_dir with the rendered pages (it is generated: nothing in it is hand-written)."""
    if docs_dir.exists():
        shutil.rmtree(docs_dir)
    items: dict[str, bytes] = {**_assets(), **out.files}
    items.update({path: text.encode("utf-8") for path, text in out.pages.items()})
    for rel in sorted(items):
        target = docs_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(items[rel])


def _config(repo_root: Path) -> Path:
    config = repo_root / "site" / "mkdocs.yml"
    if config.is_file():
        return config
    template = PROJECT_SITE / "mkdocs.yml"
    if not template.is_file():
        raise LeaderboardError(
            f"{config} is missing and no template was found at {template}: run the build from a "
            "clone of the repository (site/mkdocs.yml is part of it)."
        )
    config.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, config)
    return config


def docs_config(config: Path, pages: list[DocPage]) -> Path:
    """The build's configuration: site/mkdocs.yml with the Docs section (the pages of docs/) in
    each language's nav, written beside it (git-ignored), so a new docs page needs no edit."""
    if not pages:
        return config
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    nav = data["nav"]
    data["nav"] = with_docs_nav(nav, pages, DEFAULT)
    for plugin in data.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            for language in plugin["i18n"]["languages"]:
                if language["locale"] != DEFAULT:
                    language["nav"] = with_docs_nav(nav, pages, language["locale"])
    built = config.with_name(BUILD_CONFIG)
    text = "# GENERATED by rgb-leaderboard site build from mkdocs.yml and docs/: do not edit\n"
    built.write_text(text + yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return built


def source_date_epoch(data: SiteData) -> int:
    stamps = []
    for sub in data.submissions:
        try:
            stamps.append(
                datetime.fromisoformat(sub.results.provenance.finished.replace("Z", "+00:00"))
            )
        except ValueError:
            continue
    return int(max(stamps).timestamp()) if stamps else 0


def run_mkdocs(config: Path, out_dir: Path, strict: bool, epoch: int) -> None:
    cmd = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--clean",
        "-f",
        str(config),
        "-d",
        str(out_dir),
    ]
    if strict:
        cmd.append("--strict")
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch)}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        code = write_errno_in(proc.stdout + proc.stderr)  # a full or read-only disk: one line
        if code is not None:
            kept = "the site there is incomplete, site/docs is intact"
            raise write_failed(OSError(code, os.strerror(code)), out_dir, kept)
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        raise LeaderboardError(
            f"mkdocs build failed (exit {proc.returncode}) for {config}:\n{tail}\n"
            "Fix the warnings above, or rebuild with --no-strict to see the site anyway."
        )
    finish_languages(out_dir)


def build_site(
    repo_root: Path,
    out_dir: Path | None = None,
    strict: bool = True,
    warn: Callable[[str], None] | None = None,
) -> Path:
    """Render `repo_root/submissions` into `repo_root/site/docs` and build HTML into out_dir
    (default `repo_root/site/build`). Returns the output folder.

    `warn` receives one line per entry whose answers could not be compared for the rank ranges
    (no data files here, say): the site still builds, with those ranges left wide and named
    under the ranking tables, and the maintainer learns why before publishing it."""
    repo_root = Path(repo_root).resolve()
    if not (repo_root / "submissions").is_dir():
        raise LeaderboardError(
            f"{repo_root}: no submissions/ folder here; pass --repo the repository root "
            "(the folder holding submissions/ and site/)"
        )
    config = _config(repo_root)
    data = load_site_data(repo_root)
    root = repo_root if (repo_root / "data_zh").is_dir() else data_root()
    models = models_only(data).submissions
    conflicts = conflict_panels(models, root)  # the knowledge-conflict track, with the data
    extra = {
        **data.extra,
        "systems": systems_board(data, root),
        PANELS: instruction_panels(models, root),  # the instruction track, scored with the data
        CONFLICT_PANELS: conflicts,
        CONFLICT_EXAMPLES: pick_examples(models, conflicts, root),
    }
    comparisons = compare_all(models, root)
    if warn is not None:
        for line in comparisons.missing:
            warn(f"not compared for the rank ranges: {line}")
    data = dataclasses.replace(data, comparisons=comparisons, extra=extra)
    out = render(data)
    folder = docs_folder(repo_root)
    docs = doc_pages(folder) if folder is not None else []
    out.pages.update(page_texts(docs))
    if docs and not any(p.name == "index.md" for p in docs):
        out.pages.update(index_texts(docs))
    write_docs(config.parent / "docs", out)
    out_dir = Path(out_dir).resolve() if out_dir else config.parent / "build"
    run_mkdocs(docs_config(config, docs), out_dir, strict, source_date_epoch(data))
    return out_dir

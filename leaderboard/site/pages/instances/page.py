"""The instance browser's pages in every site language: one page per (language, ability, noise
rate) with its manifest and the strings assets/lb.js shows (both embedded as JSON), and the index
of splits. The data (items, every model's answer, pass/fail) is built once in instances.py and its
parts are shared by every language's page.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import partial

from leaderboard.core.types import LANGS, PROBES
from leaderboard.site.pages.instances.parts import FETCH_HINT, Group, group_docs, split_parts
from leaderboard.site.render.fmt import esc, inline_code, json_for_script, rate_key
from leaderboard.site.render.i18n import DEFAULT, ui, ui_count
from leaderboard.site.render.page import Context, Page, front_matter, shown_name

# Why strict said no (parts.why_not): the rule codes and element statuses the page explains
WHY_RULES = (
    "not_found",
    "negated",
    "fake_answer",
    "copy",
    "candidate_list",
    "hedge",
    "refusal",
    "no_refusal",
    "no_error_claim",
)
ELEMENT_STATUSES = ("matched", "not_found", "negated", "fake_answer")

# The browser script's strings (assets/lb.js reads them from the page, never from literals)
JS_KEYS = (
    "search_placeholder",
    "search_label",
    "all_models",
    "pass_and_fail",
    "pass",
    "fail",
    "unscored",
    "mode_rgb",
    "mode_strict",
    "label_model",
    "label_outcome",
    "label_mode",
    "show_more",
    "no_question",
    "gold",
    "fake",
    "passages",
    "generation_error",
    "clipped",
    "loading",
    "load_error",
    "count_one",
    "count",
    "why",
    *(f"why_{rule}" for rule in WHY_RULES),
    *(f"el_{status}" for status in ELEMENT_STATUSES),
)


# The data loader's message for a missing file (data/splits.py), which a page in another
# language says in its own words: the file and the split are data, the advice is the fetch hint.
_MISSING = re.compile(
    r"(?P<file>\S+) is missing \(needed for (?P<lang>zh|en) (?P<ability>[a-z]+)\)\..*", re.S
)


def _problem_html(problem: str, lg: str) -> str:
    """Why a page has no passages (escaped HTML): the fetch hint, or the loader's message (it
    names the file); on a page of another language a missing file in that language, any other
    message quoted as the loader wrote it (English, marked so)."""
    if problem == FETCH_HINT:
        return inline_code(ui(lg, "inst.fetch_hint"))
    if lg == DEFAULT:
        return inline_code(ui(lg, "inst.load_failed", reason=problem))
    m = _MISSING.fullmatch(problem)
    if m is not None:
        split = {"lang": ui(lg, f"lang.{m['lang']}"), "ability": ui(lg, f"ability.{m['ability']}")}
        return inline_code(
            ui(lg, "inst.missing_file", file=m["file"], **split) + ui(lg, "inst.fetch_hint")
        )
    quoted = f'<span class="lb-quote" lang="en">{esc(problem)}</span>'
    return inline_code(ui(lg, "inst.load_failed", reason="\x00")).replace("\x00", quoted)


def _page(g: Group, manifest: dict[str, object], problem: str | None, lg: str) -> str:
    """One browser page in interface language `lg`: the shell, the manifest and the strings the
    script shows (both as JSON a script block cannot be closed from)."""
    names = {"ability": ui(lg, f"ability.{g.ability}"), "lang": ui(lg, f"lang.{g.lang}")}
    if g.ability in PROBES:
        title = ui(lg, "inst.title_probe", **names)
    else:
        title = ui(lg, "inst.title", **names, rate=rate_key(g.noise_rate))
    parts = [front_matter(search_exclude=True) + f"# {esc(title)}\n"]
    if problem:
        parts.append(f'\n<p class="lb-warn">{_problem_html(problem, lg)}</p>\n')
    summary = ui(
        lg,
        "inst.summary",
        rule=ui(lg, f"inst.pass_rule.{g.ability}"),
        instances=ui_count(lg, "inst.n_instances", int(manifest["n_items"])),
        models=ui_count(lg, "inst.n_models", len(manifest["models"])),
    )
    parts.append(f"\n<p>{esc(summary)}</p>\n")
    parts.append(
        '\n<div id="lb-instances" class="lb-instances"><noscript>'
        f"{esc(ui(lg, 'inst.noscript'))}</noscript></div>\n"
    )
    models = [{**m, "name": shown_name(m["id"], m["name"], lg)} for m in manifest["models"]]
    shown = {**manifest, "models": models, "pass_rule": ui(lg, f"inst.pass_rule.{g.ability}")}
    strings = {k: ui(lg, f"inst.js.{k}") for k in JS_KEYS}
    parts.append(
        '\n<script type="application/json" id="lb-instances-data">'
        + json_for_script(shown)
        + "</script>\n"
    )
    parts.append(
        '\n<script type="application/json" id="lb-instances-ui">'
        + json_for_script(strings)
        + "</script>\n"
    )
    return "\n".join(parts)


def instance_pages(ctx: Context) -> tuple[Page, ...]:
    """One browser page per group plus instances/index.md. The data (built in parallel, the
    slow part of a build) and its parts are made once, here, and written to `ctx.out`: every
    language's page loads the same parts."""
    groups, results = group_docs(ctx.data)
    pages, index_rows = [], []
    for g, (doc, problem) in zip(groups, results, strict=True):
        manifest, files = split_parts(g, doc)
        ctx.out.files.update(files)
        pages.append(Page(g.path, partial(_group_page, g=g, manifest=manifest, problem=problem)))
        index_rows.append((g, len(doc["items"]), len(doc["models"]), problem))
    pages.append(Page("instances/index.md", partial(_index_page, rows=index_rows)))
    return tuple(pages)


def _group_page(ctx: Context, g: Group, manifest: dict[str, object], problem: str | None) -> str:
    return _page(g, manifest, problem, ctx.lg)


def _index_page(ctx: Context, rows: list[tuple[Group, int, int, str | None]]) -> str:
    return _index(rows, ctx.lg)


def _index(rows: list[tuple[Group, int, int, str | None]], lg: str = DEFAULT) -> str:
    parts = [f"# {ui(lg, 'inst.index_title')}\n", ui(lg, "inst.index_intro") + "\n"]
    if not rows:
        parts.append("\n" + ui(lg, "inst.index_empty") + "\n")
    by_lang = defaultdict(list)
    for row in rows:
        by_lang[row[0].lang].append(row)
    for lang in LANGS:
        if not by_lang.get(lang):
            continue
        parts.append(f"\n## {ui(lg, f'lang.{lang}')}\n")
        items = []
        for g, n_items, n_models, problem in by_lang[lang]:
            name = g.path.split("/", 1)[1].removesuffix(".md") + ".html"
            warn = ui(lg, "inst.index_warn") if problem else ""
            label = ui(
                lg,
                "inst.index_item",
                ability=ui(lg, f"ability.{g.ability}"),
                rate=rate_key(g.noise_rate),
            )
            counts = ui(
                lg,
                "inst.index_counts",
                instances=ui_count(lg, "inst.n_instances", n_items),
                models=ui_count(lg, "inst.n_models", n_models),
            )
            items.append(f'<li><a href="{esc(name)}">{esc(label)}</a>{esc(counts)}{warn}</li>')
        parts.append('\n<ul class="lb-instance-index">' + "".join(items) + "</ul>\n")
    return "\n".join(parts)

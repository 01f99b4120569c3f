"""Per-instance browser: one page per (language, ability, noise rate) with the questions, gold
answers, the passages shown and every model's answer with pass/fail in both modes.

A page embeds only a small manifest (models, counts, the URLs of its data parts) as JSON in
<script type="application/json"> (escaped by fmt.json_for_script so no text can close the block);
the items with every model's answer are in data parts of at most about PART_BYTES each
(instances/data/<split>/<n>.json), fetched from the same origin when the reader needs them (the
first at open, more on "Show more" or when a filter needs all), so no page with what it loads at
open grows with the number of models past about 500 KB. assets/lb.js renders them with
textContent only: model output is never parsed as HTML. Passages come from rebuilding the instances
(leaderboard.protocol.instances) and pass/fail from leaderboard.scoring.outcome.passed;
without fetched data the page says what to run.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from leaderboard.board.load import SiteData
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.types import ABILITIES, LANGS, PROBES
from leaderboard.run.plan import split_instances
from leaderboard.scoring.outcome import passed
from leaderboard.scoring.score import score_both
from leaderboard.scoring.tokens import load_jieba
from leaderboard.site.render.fmt import count, esc, json_for_script, rate_key
from leaderboard.site.render.page import ABILITY_NAMES, LANG_NAMES, Output, front_matter
from leaderboard.site.render.parallel import pmap, shared

FETCH_HINT = (
    "Run `rgb-leaderboard data fetch` and rebuild the site to see passages and gold answers."
)
PASS_RULE = {
    "noise": "pass = every required answer element found",
    "integration": "pass = every required answer element found",
    "rejection": "pass = the model refused (no passage holds the answer)",
    "counterfactual": "pass = the model flagged the false fact and gave the true answer",
    "chain": "probe: the passages are BM25's top 5 of the question's own pool, in rank order; "
    "pass = every required answer element found",
    "replacement": "probe: the passages come from unrelated questions (origins listed); "
    "pass = answered right anyway (from memory)",
}
ORDER = ABILITIES + PROBES


PART_BYTES = 256 * 1024  # a part's budget: one part plus the page shell stays far under 500 KB


@dataclass(frozen=True)
class Group:
    lang: str
    ability: str
    noise_rate: float

    @property
    def stem(self) -> str:
        return f"{self.lang}-{self.ability}-{rate_key(self.noise_rate)}"

    @property
    def path(self) -> str:
        return f"instances/{self.stem}.md"


def split_parts(group: Group, doc: dict[str, object], budget: int | None = None):
    """The page's manifest (doc without its items, plus the parts' URLs relative to the page) and
    the parts' bytes by path under docs/. Items stay in order; a part holds at least one item."""
    budget = PART_BYTES if budget is None else budget
    parts: list[list[object]] = [[]]
    size = 0
    for item in doc["items"]:
        n = len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 1
        if parts[-1] and size + n > budget:
            parts.append([])
            size = 0
        parts[-1].append(item)
        size += n
    files: dict[str, bytes] = {}
    refs = []
    for i, items in enumerate(p for p in parts if p):
        rel = f"data/{group.stem}/{i}.json"
        body = json.dumps(
            {"items": items}, ensure_ascii=False, sort_keys=True, separators=(",", ":")
        )
        files[f"instances/{rel}"] = body.encode("utf-8")
        refs.append({"url": rel, "n": len(items)})
    manifest = {k: v for k, v in doc.items() if k != "items"}
    manifest.update(n_items=len(doc["items"]), parts=refs)
    return manifest, files


def _answer_text(answer) -> list[str]:
    out = []
    for el in answer:
        out.append(" / ".join(el) if isinstance(el, tuple | list) else str(el))
    return out


def _load_instances(root: Path | None, lang: str, ability: str, rates: list[float]):
    """Instances by key, or (None, reason) when they cannot be rebuilt here."""
    if root is None:
        return None, FETCH_HINT
    try:
        _src, instances = split_instances(  # the runner's construction (probes included)
            root,
            lang,  # type: ignore[arg-type]
            ability,  # type: ignore[arg-type]
            rates=tuple(rates),
            allow_partial=True,
        )
    except (
        LeaderboardError
    ) as exc:  # the message names the file: keep it, minus this machine's path
        return None, str(exc).replace(f"{Path(root).resolve()}/", "").replace(f"{root}/", "")
    return {inst.key: inst for inst in instances}, None


def group_data(data: SiteData, group: Group, instances: dict | None) -> dict[str, object]:
    """The JSON document embedded in one browser page (plain data, sorted, deterministic)."""
    models = []
    by_id: dict[int, dict[str, object]] = {}
    for sub in data.submissions:
        preds = [
            p
            for p in sub.predictions
            if p.lang == group.lang
            and p.ability == group.ability
            and abs(p.noise_rate - group.noise_rate) < 1e-9
        ]
        if not preds:
            continue
        models.append({"id": sub.id, "name": sub.name})
        for p in preds:
            item = by_id.setdefault(p.id, {"id": p.id, "key": p.key, "preds": {}})
            entry: dict[str, object] = {"t": p.prediction, "e": p.error}
            inst = instances.get(p.key) if instances is not None else None
            if inst is not None:
                scores = score_both(p.prediction, inst)
                for mode in ("rgb", "strict"):  # a generation error counts as a failure
                    ok = p.error is None and passed(group.ability, scores[mode], mode)
                    entry[mode] = int(ok)
            item["preds"][sub.id] = entry
    if instances is not None:
        for inst in instances.values():
            if inst.id in by_id:
                by_id[inst.id].update(
                    {
                        "q": inst.query,
                        "a": _answer_text(inst.answer),
                        "docs": list(inst.docs),
                        "fake": _answer_text(inst.fakeanswer),
                        **({"src": list(inst.sources)} if inst.sources else {}),
                    }
                )
    return {
        "lang": group.lang,
        "ability": group.ability,
        "noise_rate": group.noise_rate,
        "models": models,
        "items": [by_id[k] for k in sorted(by_id)],
        "scored": instances is not None,
        "pass_rule": PASS_RULE[group.ability],
    }


def groups_in(data: SiteData) -> list[Group]:
    seen = {
        (p.lang, p.ability, round(p.noise_rate, 3)) for s in data.submissions for p in s.predictions
    }
    return sorted(
        (Group(*g) for g in seen),
        key=lambda g: (LANGS.index(g.lang), ORDER.index(g.ability), g.noise_rate),
    )


@lru_cache(maxsize=16)
def _cached_instances(root: Path | None, lang: str, ability: str, rates: tuple[float, ...]):
    return _load_instances(root, lang, ability, list(rates))


def _group_job(index: int) -> tuple[dict[str, object], str | None]:
    """One browser page's data; runs in a forked worker (see parallel.pmap)."""
    st = shared()
    data, group = st["data"], st["groups"][index]
    rates = st["rates"][(group.lang, group.ability)]
    instances, problem = _cached_instances(data.root, group.lang, group.ability, rates)
    return group_data(data, group, instances), problem


def instance_pages(data: SiteData, out: Output) -> list[Group]:
    """Write one browser page per group plus instances/index.md; returns the groups."""
    groups = groups_in(data)
    rates = {
        (g.lang, g.ability): tuple(
            sorted({x.noise_rate for x in groups if (x.lang, x.ability) == (g.lang, g.ability)})
        )
        for g in groups
    }
    if groups:
        load_jieba()  # once before forking, not once per worker
    state = {"data": data, "groups": groups, "rates": rates}
    results = pmap(_group_job, list(range(len(groups))), state=state, min_items=2)
    index_rows = []
    for g, (doc, problem) in zip(groups, results, strict=True):
        title = f"{ABILITY_NAMES[g.ability]}, {LANG_NAMES[g.lang]}" + (
            "" if g.ability in PROBES else f", noise rate {rate_key(g.noise_rate)}"
        )
        parts = [front_matter(search_exclude=True) + f"# {esc(title)}\n"]
        if problem:
            parts.append(f'\n<p class="lb-warn">{esc(problem)}</p>\n')
        parts.append(
            f"\n<p>{esc(doc['pass_rule'])}. {count(len(doc['items']), 'instance')}, "
            f"{count(len(doc['models']), 'model')}. Filters run in your browser.</p>\n"
        )
        parts.append(
            '\n<div id="lb-instances" class="lb-instances"><noscript>The instance browser '
            "needs JavaScript; the same data is in the downloads.</noscript></div>\n"
        )
        manifest, files = split_parts(g, doc)
        out.files.update(files)
        parts.append(
            '\n<script type="application/json" id="lb-instances-data">'
            + json_for_script(manifest)
            + "</script>\n"
        )
        out.pages[g.path] = "\n".join(parts)
        index_rows.append((g, len(doc["items"]), len(doc["models"]), problem))
    out.pages["instances/index.md"] = _index(index_rows)
    return groups


def _index(rows: list[tuple[Group, int, int, str | None]]) -> str:
    parts = [
        "# Instance browser\n",
        "Every question with its gold answer, the passages the model saw and each model's "
        "answer with pass or fail. Pick a split:\n",
    ]
    if not rows:
        parts.append("\n*No predictions yet.*\n")
    by_lang = defaultdict(list)
    for row in rows:
        by_lang[row[0].lang].append(row)
    for lang in LANGS:
        if not by_lang.get(lang):
            continue
        parts.append(f"\n## {LANG_NAMES[lang]}\n")
        items = []
        for g, n_items, n_models, problem in by_lang[lang]:
            name = g.path.split("/", 1)[1].removesuffix(".md") + ".html"
            warn = (
                " (passages unavailable: run <code>rgb-leaderboard data fetch</code>)"
                if problem
                else ""
            )
            items.append(
                f'<li><a href="{esc(name)}">{esc(ABILITY_NAMES[g.ability])}, noise rate '
                f"{esc(rate_key(g.noise_rate))}</a>: {count(n_items, 'instance')}, "
                f"{count(n_models, 'model')}{warn}</li>"
            )
        parts.append('\n<ul class="lb-instance-index">' + "".join(items) + "</ul>\n")
    return "\n".join(parts)

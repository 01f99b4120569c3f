"""Per-instance browser data: for each (language, ability, noise rate) the questions, gold
answers, the passages shown and every model's answer with pass/fail in both modes (the pages, in
every site language, are written by instance_browser.py).

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
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from leaderboard.board.load import SiteData
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.parallel import pmap, shared
from leaderboard.core.types import ABILITIES, LANGS, PROBES
from leaderboard.run.plan import split_instances
from leaderboard.scoring.outcome import passed
from leaderboard.scoring.reason import StrictReason
from leaderboard.scoring.reference import score_rgb
from leaderboard.scoring.strict import judge_strict
from leaderboard.scoring.tokens import load_jieba
from leaderboard.site.render.fmt import rate_key
from leaderboard.site.render.i18n import DEFAULT, ui

FETCH_HINT = ui(DEFAULT, "inst.fetch_hint")
ORDER = ABILITIES + PROBES


PART_BYTES = 256 * 1024  # a part's budget: one part plus the page shell stays far under 500 KB
# The most characters of one answer (or generation error) a page shows. Measured: a 1 MB answer
# in the browser kept Chromium's renderer busy laying it out for 2 minutes (one page of the
# hostile-site test, tests/fuzz/test_fuzz_site.py), and the next page waited on it. Real answers
# are far shorter (max_new_tokens). Pass/fail is still judged on the full text, and the full
# answer stays in the model's predictions file (linked from its model page).
SHOWN_CHARS = 2_000


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


def _shown(key: str, text: str | None) -> dict[str, object]:
    """The text under key, cut to SHOWN_CHARS; a cut one also carries its full length under
    key + "n" (the page says how much it shows)."""
    if text is None or len(text) <= SHOWN_CHARS:
        return {key: text}
    return {key: text[:SHOWN_CHARS], f"{key}n": len(text)}


def why_not(ability: str, rejected: bool, error_detected: bool, reason: StrictReason) -> dict:
    """Why strict did not pass an answer (shown under it, and in the page's data part): `r`, the
    rule that withheld the pass (scoring/reason.py's rules, or what the ability asked and the
    answer did not do: `no_refusal`, `no_error_claim`), and `el`, per answer element its status
    and, where it matched, the normal form around the match."""
    if ability == "rejection" and not rejected:
        rule = "no_refusal"
    elif ability == "counterfactual" and not error_detected:
        rule = "no_error_claim"
    else:
        rule = reason.withheld or "not_found"
    elements = [[e.element, e.status, e.context] for e in reason.elements]
    return {"r": rule, "el": elements}


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
            entry = {**_shown("t", p.prediction), **_shown("e", p.error)}
            inst = instances.get(p.key) if instances is not None else None
            if inst is not None:
                strict, reason = judge_strict(p.prediction, inst)
                scores = {"rgb": score_rgb(p.prediction, inst), "strict": strict}
                for mode in ("rgb", "strict"):  # a generation error counts as a failure
                    ok = p.error is None and passed(group.ability, scores[mode], mode)
                    entry[mode] = int(ok)
                if p.error is None and not entry["strict"]:
                    entry["w"] = why_not(
                        group.ability, strict.rejected, strict.error_detected, reason
                    )
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
        "pass_rule": ui(DEFAULT, f"inst.pass_rule.{group.ability}"),
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


def group_job(index: int) -> tuple[dict[str, object], str | None]:
    """One browser page's data; runs in a forked worker (see parallel.pmap)."""
    st = shared()
    data, group = st["data"], st["groups"][index]
    rates = st["rates"][(group.lang, group.ability)]
    instances, problem = _cached_instances(data.root, group.lang, group.ability, rates)
    return group_data(data, group, instances), problem


def group_docs(data: SiteData) -> tuple[list[Group], list[tuple[dict[str, object], str | None]]]:
    """Every browser page's group and (document, problem), scored in parallel workers."""
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
    return groups, pmap(group_job, list(range(len(groups))), state=state, min_items=2)

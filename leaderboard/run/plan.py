"""The run plan: which instances a submission runs, the request each becomes, and why the
results will be partial (if they are).

Kept apart from the runner so a dry run, a benchmark or a re-scoring can build exactly the plan a
real run would, without touching predictions or a backend.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.backends.registry import backend_traits
from leaderboard.core.errors import ConfigError, DataError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.submission import Submission
from leaderboard.core.types import (
    ABILITIES,
    CLOSED_BOOK,
    CONFLICT,
    DEFAULT_NOISE_RATES,
    LANGS,
    PROBES,
    Ability,
    ChatRequest,
    Lang,
    TestInstance,
)
from leaderboard.data.manifest import lang_dir
from leaderboard.data.splits import SplitSource, Variant, load_split, split_file_name
from leaderboard.protocol.conflicts import (
    LeftOut,
    build_conflict_instances,
    condition_ids,
    panel_conditions,
)
from leaderboard.protocol.instances import build_instances
from leaderboard.protocol.instructions import load_instruction
from leaderboard.protocol.probe_instances import build_probe_instances
from leaderboard.protocol.prompts import build_request, passage_sha256, prompt_sha256
from leaderboard.run.chain_retriever import chain_rank
from leaderboard.run.selection import Selection
from leaderboard.scoring.conflict_check import check_records

ALL = Selection()  # the submission's own run plan


@dataclass(frozen=True)
class WorkItem:
    """One instance with the request it becomes and the hashes that identify that request."""

    instance: TestInstance
    request: ChatRequest
    prompt_sha256: str
    passage_sha256: tuple[str, ...]


@dataclass(frozen=True)
class PlannedSplit:
    lang: Lang
    ability: Ability
    source: object  # data.SplitSource
    items: tuple[WorkItem, ...]


@dataclass
class Plan:
    """The instances of a run and its data choices: `allow_partial_data` (the selection's, else
    the YAML's) and `limit` are recorded in results.json, so `verify` rebuilds the same
    instances without being told the options the run was given."""

    splits: list[PlannedSplit]
    skipped: list[str]  # splits left out because their data is not available (with allow_partial)
    partial_reasons: list[str]
    items: list[WorkItem] = field(default_factory=list)
    allow_partial_data: bool = False
    limit: int | None = None
    instruction: str | None = None  # an alternative of the instruction track; None: RGB's
    conflicts: tuple[str, ...] | None = None  # a conflict run's conditions; None: not one
    left_out: list[LeftOut] = field(default_factory=list)  # records a condition cannot use
    # a conflict run: (lang, condition) -> the instances the instruction's whole panel has there
    expected: dict[tuple[str, str], int] = field(default_factory=dict)


def _effective_rates(
    sub: Submission, noise_rates: Mapping[Ability, Sequence[float]] | None
) -> dict[Ability, list[float]]:
    rates = {a: list(r) for a, r in sub.run.noise_rates.items()}
    for ability, values in (noise_rates or {}).items():
        rates[ability] = sorted({float(v) for v in values})
    return rates


def _split_missing(root: Path, lang: Lang, ability: Ability, variant: str) -> bool:
    return not (lang_dir(root, lang) / split_file_name(lang, ability, variant)).exists()


def invocation_reason(reason: str) -> bool:
    """Whether a partial reason comes from the invocation's options alone (`--limit`, a
    per-ability limit), which the predictions cannot show: `rescore` keeps these from the
    generating run, where every other reason is recomputed from what is on disk."""
    return reason.startswith("--limit ") or reason.endswith(" records of each split")


def _selection_reasons(
    limit: int | None,
    langs: list[Lang],
    abls: list[Ability],
    rates: dict[Ability, list[float]],
    limits: Mapping[Ability, int] | None = None,
) -> list[str]:
    """Why a run of this selection is not the full protocol (empty when it is)."""
    reasons: list[str] = []
    if limit is not None:
        reasons.append(f"--limit {limit}: only the first {limit} records of each split")
    for ability, n in (limits or {}).items():
        if ability in abls:
            reasons.append(f"{ability}: only the first {n} records of each split")
    # in the protocol's order, whatever order the options gave: `rescore` recomputes them so
    if set(langs) != set(LANGS):
        reasons.append(f"languages limited to {', '.join(x for x in LANGS if x in langs)}")
    rgb = [a for a in ABILITIES if a in abls]  # probes never make the RGB protocol partial
    if set(rgb) != set(ABILITIES):
        reasons.append(f"abilities limited to {', '.join(rgb) or 'none of the four'}")
    for a in rgb:
        if tuple(rates[a]) != tuple(DEFAULT_NOISE_RATES[a]):
            reasons.append(f"{a}: noise rates {rates[a]} instead of {list(DEFAULT_NOISE_RATES[a])}")
    return reasons


def _work_items(
    instances: Sequence[TestInstance], instruction: str | None = None
) -> tuple[WorkItem, ...]:
    items = []
    for inst in instances:
        req = build_request(inst, instruction)
        items.append(
            WorkItem(inst, req, prompt_sha256(req), tuple(passage_sha256(d) for d in inst.docs))
        )
    return tuple(items)


def split_instances(
    root: Path,
    lang: Lang,
    ability: Ability,
    *,
    rates: Sequence[float] | None = None,
    variant: Variant = "refine",
    allow_partial: bool = False,
    limit: int | None = None,
    passage_num: int = 5,
    system: bool = False,
) -> tuple[SplitSource, list[TestInstance]]:
    """The instances of one split exactly as a run builds them (the one home of that choice, for
    the runner and `rgb-leaderboard instances`): RGB's reference construction for an ability, the
    probe builder for a probe (the chain's BM25 top `passage_num` of the question's own pool, the
    seeded replacement); a `system` submission's chain gets no passages, the system retrieves for
    itself. `rates` is ignored for a probe (its instances carry 0.0)."""
    if ability in PROBES:
        return build_probe_instances(
            root,
            lang,
            ability,
            rank=None if system else chain_rank(lang),
            variant=variant,
            allow_partial=allow_partial,
            limit=limit,
            passage_num=passage_num,
        )
    return build_instances(
        root,
        lang,
        ability,
        noise_rates=rates,
        variant=variant,
        allow_partial=allow_partial,
        limit=limit,
        passage_num=passage_num,
    )


def conflict_instances(
    root: Path, lang: Lang, conditions: Sequence[str], *, limit: int | None = None
) -> tuple[SplitSource, list[TestInstance], list[LeftOut]]:
    """The conflict track's instances of one language as a run builds them (the one home of that
    choice, for the runner, `verify` and the site): the fact file checked for conflict use
    (scoring.conflict_check), then every condition built from the passages it may show; a record
    left out of a condition because of a data-check finding says which."""
    source, records = load_split(root, lang, CONFLICT)
    findings, use = check_records(records, lang)
    instances, left = build_conflict_instances(records, lang, conditions, use, limit)
    kinds: dict[int, set[str]] = {}
    for f in findings:
        kinds.setdefault(f.id, set()).add(f.kind)
    left = [
        LeftOut(
            o.lang, o.condition, o.id, f"{o.reason} (data check: {', '.join(sorted(kinds[o.id]))})"
        )
        if o.id in kinds
        else o
        for o in left
    ]
    return source, instances, left


def _plan_conflicts(plan: Plan, root: Path, lang: Lang, limit: int | None) -> None:
    """Add one language's conflict instances (every condition of the selection) to the plan."""
    conditions = plan.conflicts or ()
    panel = panel_conditions(plan.instruction)
    source, whole, left = conflict_instances(root, lang, sorted({*conditions, *panel}))
    for cid in panel:
        plan.expected[(lang, cid)] = sum(1 for i in whole if i.condition == cid)
    kept = {r.id for r in load_split(root, lang, CONFLICT)[1][:limit]} if limit else None
    instances = [i for i in whole if i.condition in conditions and (kept is None or i.id in kept)]
    items = _work_items(instances, plan.instruction)
    plan.splits.append(PlannedSplit(lang, CONFLICT, source, items))
    plan.items.extend(items)
    # what the whole panel leaves out, whatever this invocation's limit and conditions
    plan.left_out.extend(o for o in left if o.condition in panel)


def _plan_split(
    plan: Plan,
    sub: Submission,
    root: Path,
    lang: Lang,
    ability: Ability,
    *,
    rates: list[float],
    allow: bool,
    limit: int | None,
) -> None:
    """Add one split to the plan, or record it as skipped when its data file is absent and
    partial data is allowed."""
    if ability == CONFLICT:
        raise ConfigError(
            f"{sub.source_path or sub.id}: ability {ability!r} is the conflict track: run it with "
            "`rgb-leaderboard run SUB --conflicts`, not in the run plan's abilities"
        )
    if backend_traits(sub.backend).retrieves_itself and ability in CLOSED_BOOK:
        raise ConfigError(
            f"{sub.source_path or sub.id}: --abilities {ability}: a system retrieves for itself, "
            "so it has no closed-book answer; the closed-book probes are for models"
        )
    try:
        source, instances = split_instances(
            root,
            lang,
            ability,
            rates=rates,
            variant=sub.run.variant,
            allow_partial=allow,
            limit=limit,
            passage_num=sub.run.passage_num,
            system=backend_traits(sub.backend).retrieves_itself,
        )
    except DataError as exc:
        if allow and _split_missing(root, lang, ability, sub.run.variant):
            # the reason names the file relative to the data folder: results.json must not
            # depend on where the data (or verify's temporary view of it) lay
            reason = str(exc)
            for prefix in (f"{root.resolve()}{os.sep}", f"{root}{os.sep}"):
                reason = reason.replace(prefix, "")
            plan.skipped.append(f"{lang}/{ability}: data not available ({reason})")
            plan.partial_reasons.append(f"{lang}/{ability}: not run, data file not available")
            return
        raise
    if not source.complete:
        plan.partial_reasons.append(
            f"{lang}/{ability}: partial data file {source.name} "
            f"(stands in for the official split of {source.expected_n} records)"
        )
    items = _work_items(instances, plan.instruction)
    plan.splits.append(PlannedSplit(lang, ability, source, items))
    plan.items.extend(items)


def build_plan(sub: Submission, root: Path, selection: Selection = ALL) -> Plan:
    """Instances and requests for the run, plus why the results will be partial (if they are)."""
    limit = selection.limit
    if selection.instruction is not None:
        # an unknown id fails here, naming the choices
        track = load_instruction(selection.instruction).track
        if track == "conflicts" and selection.conflicts is None:
            raise ConfigError(
                f"instruction {selection.instruction!r} is written for the conflict track: "
                "run it with --conflicts"
            )
    langs = list(selection.languages or sub.run.languages)
    abls = list(selection.abilities or sub.run.abilities)
    rates = _effective_rates(sub, selection.noise_rates)
    allow = selection.allow_partial_data
    allow = sub.run.allow_partial_data if allow is None else allow
    if selection.conflicts is not None:
        for cid in selection.conflicts:
            if cid not in condition_ids():
                raise ConfigError(
                    f"unknown conflict condition {cid!r}: use one of {', '.join(condition_ids())}"
                )
        plan = Plan(
            splits=[],
            skipped=[],
            # what the answers cover is said from the answers (run.assemble), not the options
            partial_reasons=[],
            allow_partial_data=allow,
            limit=limit,
            instruction=selection.instruction,
            conflicts=selection.conflicts,
        )
        for lang in langs:
            _plan_conflicts(plan, root, lang, limit)
        if not plan.items:
            raise ConfigError(
                f"{sub.source_path or sub.id}: the conflict run selects no instances "
                f"(languages {langs}, conditions {list(selection.conflicts)})"
            )
        return plan
    plan = Plan(
        splits=[],
        skipped=[],
        partial_reasons=_selection_reasons(limit, langs, abls, rates, selection.limits),
        allow_partial_data=allow,
        limit=limit,
        instruction=selection.instruction,
    )
    for lang in langs:
        for ability in abls:
            _plan_split(
                plan,
                sub,
                root,
                lang,
                ability,
                rates=rates.get(ability, [0.0]),
                allow=allow,
                limit=selection.limit_for(ability),
            )
    if not plan.items:
        raise ConfigError(
            f"{sub.source_path or sub.id}: the run plan selects no instances "
            f"(languages {langs}, abilities {abls}); check --languages/--abilities and the data "
            "(`rgb-leaderboard data status`)."
        )
    return plan


def protocol_abilities(sub: Submission, records: Iterable[PredictionRecord]) -> list[Ability]:
    """The submission's own abilities plus every probe it has predictions for: what its
    results.json covers (a later run of the four abilities keeps the measured probes)."""
    own = list(sub.run.abilities)
    recorded = {r.ability for r in records}
    return own + [p for p in PROBES if p in recorded and p not in own]

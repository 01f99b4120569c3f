"""The plan results are computed over: this invocation's plan widened to every prediction the
run's folder already holds, so that a narrower rerun never drops what was measured.

Kept apart from `plan`, which builds what one invocation runs; this reads what earlier ones left.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from leaderboard.core.errors import ConfigError, DataError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.submission import Submission
from leaderboard.protocol.conflicts import condition_ids
from leaderboard.run.plan import Plan, build_plan, protocol_abilities
from leaderboard.run.selection import Selection


def widen_to_records(
    plan: Plan,
    sub: Submission,
    root: Path,
    records: Mapping[str, PredictionRecord],
    allow_partial_data: bool | None = None,
) -> Plan:
    """The plan results are computed over: this invocation's plan plus every instance of the
    submission's own protocol that already has a matching prediction.

    results.json is the board's record of the submission, so a narrower rerun (`--limit 10` after
    `--limit 50`, `--abilities rejection` after a full run) must not drop what was measured.
    A recorded prediction counts only if its prompt hash equals the prompt built now from the
    data on disk; others are left out and said.
    """
    planned = {it.instance.key for it in plan.items}
    if all(key in planned for key in records):
        return plan
    abls = protocol_abilities(sub, records.values())
    widest = (
        Selection(conflicts=condition_ids(), instruction=plan.instruction)
        if plan.conflicts is not None
        else Selection(
            abilities=tuple(abls),
            allow_partial_data=allow_partial_data,
            instruction=plan.instruction,
        )
    )
    try:
        full = build_plan(sub, root, widest)
    except (ConfigError, DataError):
        return plan  # the protocol cannot be rebuilt here (data gone): score what was planned
    extra, stale = [], 0
    for it in full.items:
        rec = records.get(it.instance.key)
        if it.instance.key in planned or rec is None:
            continue
        if rec.prompt_sha256 == it.prompt_sha256:
            extra.append(it)
        else:
            stale += 1
    if not extra and not stale:
        return plan
    have = {(s.lang, s.ability) for s in plan.splits}
    splits = plan.splits + [s for s in full.splits if (s.lang, s.ability) not in have]
    reasons = list(full.partial_reasons)
    reasons.append(
        f"scores cover every recorded prediction of these settings: {len(extra)} beyond this "
        "invocation's selection"
        + (f" ({'; '.join(plan.partial_reasons)})" if plan.partial_reasons else "")
    )
    if stale:
        reasons.append(f"{stale} recorded predictions left out: their prompts differ from the data")
    return Plan(
        splits,
        full.skipped,
        reasons,
        plan.items + extra,
        plan.allow_partial_data,
        plan.limit,
        plan.instruction,
        plan.conflicts,
        full.left_out if plan.conflicts is not None else plan.left_out,
        full.expected if plan.conflicts is not None else plan.expected,
    )

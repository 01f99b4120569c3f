"""`run --dry-run`: what a run would do (counts per split, what resume will skip, the first
prompt), built by the runner's own `prepare`, so the report cannot drift from the run; no backend
is loaded and no file is written or moved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatRequest
from leaderboard.run.plan import WorkItem
from leaderboard.run.runner import RunOptions, prepare


@dataclass(frozen=True)
class DryRunReport:
    """What `run --dry-run` prints: counts per split, what resume will skip, and the
    first prompt."""

    submission_id: str
    fingerprint: str
    out_dir: Path
    splits: list[tuple[str, str, str, bool, int, int]]  # lang, ability, file, complete, n, done
    skipped: list[str]
    partial_reasons: list[str]
    total: int
    done: int
    to_generate: int  # unique prompts still to generate
    first_request: ChatRequest | None

    def render(self) -> str:
        lines = [
            f"submission {self.submission_id}  fingerprint {self.fingerprint}",
            f"output folder {self.out_dir}",
            f"{'split':<24}{'data file':<26}{'instances':>10}{'on disk':>9}",
        ]
        for lang, ability, name, complete, n, done in self.splits:
            flag = "" if complete else "  (partial file)"
            lines.append(f"{lang + '/' + ability:<24}{name:<26}{n:>10}{done:>9}{flag}")
        lines.append(
            f"total {self.total} instances, {self.done} already predicted, "
            f"{self.to_generate} unique prompts to generate"
        )
        lines += [f"skipped: {s}" for s in self.skipped]
        lines += [f"partial: {r}" for r in self.partial_reasons]
        if self.first_request is not None:
            lines.append("--- first prompt ---")
            for m in self.first_request.messages:
                lines.append(f"[{m.role}]")
                lines.append(m.content)
        return "\n".join(lines)


def plan_submission(sub: Submission, options: RunOptions) -> DryRunReport:
    """What `run_submission` with the same options would do, computed the same way (the same
    `prepare`), with no backend loaded and nothing written or moved aside."""
    prep = prepare(sub, options, dry_run=True)
    plan, existing = prep.plan, prep.existing

    def done(items: Sequence[WorkItem]) -> int:
        return sum(1 for it in items if it.instance.key in existing)

    return DryRunReport(
        submission_id=sub.id,
        fingerprint=prep.fingerprint,
        out_dir=prep.store.folder,
        splits=[
            (s.lang, s.ability, s.source.name, bool(s.source.complete), len(s.items), done(s.items))
            for s in plan.splits
        ],
        skipped=plan.skipped,
        partial_reasons=plan.partial_reasons,
        total=len(plan.items),
        done=done(plan.items),
        to_generate=len(prep.pending),
        first_request=plan.items[0].request,
    )

"""`rescore`: results.json rewritten from its predictions with this scoring code (no model loaded),
from `verify`'s recomputation; the generating run's provenance is kept, with a `rescored` entry
saying by which code and command."""

from __future__ import annotations

from leaderboard.core.checkout import PACKAGE_ROOT, recorded_roots, repo_relative, repo_root
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.schema import Results
from leaderboard.run.plan import invocation_reason
from leaderboard.trust.verify import Recomputed


def rescored(rc: Recomputed, command: str, extra: dict[str, object] | None = None) -> Results:
    """results.json rewritten from the recomputation: the compared part (module docstring) and
    the partial reasons are the recomputed ones; the generating run's provenance is kept, with a
    `rescored` entry saying by which code and command."""
    if rc.new is None:
        raise LeaderboardError(f"{rc.folder}: nothing to rescore ({'; '.join(rc.problems)})")
    old, new = rc.old.provenance, rc.new.provenance
    record = {
        "command": repo_relative(command),
        "scoring_version_before": old.scoring_version,
        "git_commit": new.git_commit,
        "git_dirty": new.git_dirty,
        **(extra or {}),
    }
    history = (
        list(old.extra.get("rescored", [])) if isinstance(old.extra.get("rescored"), list) else []
    )
    provenance = old.model_copy(
        update={
            "command": repo_relative(
                old.command,
                (
                    repo_root(),
                    repo_root(PACKAGE_ROOT),
                    *recorded_roots(old.command),
                ),
            ),
            "data_blob_ids": new.data_blob_ids,
            "scoring_version": new.scoring_version,
            "prompt_tokens": new.prompt_tokens,
            "completion_tokens": new.completion_tokens,
            "extra": {
                **old.extra,
                "skipped_splits": new.extra.get("skipped_splits", []),
                "predictions_in_results": new.extra.get("predictions_in_results"),
                "rescored": [*history, record],
            },
        }
    )
    # a limit is an option of the run, not visible in its predictions: its reason is carried
    # while the recomputed results are partial (a --limit as large as every split limits nothing;
    # `partial` itself is recomputed, and `verify` compares it)
    fresh = list(rc.new.partial_reasons)
    old_reasons = rc.old.partial_reasons if rc.new.partial else []
    kept = [r for r in old_reasons if invocation_reason(r) and r not in fresh]
    return rc.new.model_copy(update={"provenance": provenance, "partial_reasons": kept + fresh})

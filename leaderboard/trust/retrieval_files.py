"""The retrieval files `verify` and `rescore` are given: which paths are retrieval results,
grids or comparisons (a submission's own JSON files are not), every file of a folder verified
(trust/retrieval_check.py recomputes each), and a result's metrics rewritten for `rescore FILE`.
Judge results and the judges' agreement are checked in judge/results_check.py and
judge/agreement_check.py (a room this layer cannot import: cli/verify.py calls all three); the
probe figures are rows of results.json, recomputed by trust/verify.py.
"""

from __future__ import annotations

from pathlib import Path

from leaderboard.retrieval.results import RESULTS_DIR, write_json
from leaderboard.trust.retrieval_check import check_path, check_tree, rescored_result

_NOT_RETRIEVAL = {"results.json", "judge_results.json", "reproduce.json", "agreement.json"}


def is_retrieval_file(path: Path) -> bool:
    """A retrieval result, grid or comparison file (not a submission's own JSON files)."""
    return Path(path).suffix == ".json" and Path(path).name not in _NOT_RETRIEVAL


def is_retrieval_target(path: Path) -> bool:
    """A retrieval file, or a folder of them (retrieval/ or retrieval/<split>/)."""
    path = Path(path)
    if path.is_dir():
        return path.name == RESULTS_DIR or path.parent.name == RESULTS_DIR
    return is_retrieval_file(path)


def rescore_retrieval_file(path: Path, command: str) -> str:
    """Rewrite a retrieval result's metrics and bootstrap block from its per-question values;
    the line to print."""
    res, changed = rescored_result(path, command)
    if not changed:  # nothing to record: the file already is what this code computes
        return f"{Path(path).as_posix()}: unchanged (already what the current code computes)"
    write_json(path, res)
    lines = [f"rescored {Path(path).as_posix()}: {len(changed)} value(s) changed"]
    return "\n".join(lines + [f"  {c}" for c in changed[:50]])


def verify_retrieval(
    targets: list[Path], data_root: Path, recompute: bool = False
) -> tuple[list[str], int]:
    """Retrieval files and folders: printed lines (notes included), failures. `recompute` embeds
    what the cache lacks for dense and hybrid rankings (slow); without it nothing is embedded."""
    lines, failed = [], 0
    for target in targets:
        target = Path(target)
        if target.is_dir():
            root = target if target.name == RESULTS_DIR else target.parent
            checks, note = check_tree(root, data_root, recompute=recompute)
            if target != root:
                checks = [c for c in checks if c.path.parent == target]
        else:
            checks, note = [check_path(target, data_root, recompute=recompute)], None
        for c in checks:
            lines.append(c.render())
            failed += not c.ok
        if note:
            lines.append(f"note: {note}")
    return lines, failed

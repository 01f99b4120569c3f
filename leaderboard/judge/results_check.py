"""`verify` for judge results: judge_results.json recomputed from judgements.jsonl.

The site's Rej* and ED* columns and the judge agreement tables come from judge_results.json. Each
judge's summary is recomputed the way `rgb-leaderboard judge` computes it (judge/summary.py): the
submission's current answers (same prediction fingerprint), each judge's stored replies parsed
again with the current parser, the rates with their Wilson intervals and Cohen's kappa against
both scoring modes (bootstrap resamples as recorded in the judge command, 2000 by default). No
judge model is run: a reply missing from judgements.jsonl counts as unjudged, as it does there.
"""

from __future__ import annotations

import re
from pathlib import Path

from leaderboard.core.checks import FileCheck, rendered, same
from leaderboard.judge.run import JUDGEMENTS_NAME, JudgementStore
from leaderboard.judge.summary import (
    JUDGE_RESULTS_NAME,
    judge_against_scorers,
    judge_rates,
    read_judge_results,
    submission_items,
    verdicts_for,
)

DEFAULT_RESAMPLES = 2000  # judge_cmds' default


def recorded_resamples(provenance: dict[str, object]) -> int:
    """The bootstrap resamples of a judge command, read from its recorded command line."""
    found = re.search(r"--resamples[ =](\d+)", str(provenance.get("command", "")))
    return int(found.group(1)) if found else DEFAULT_RESAMPLES


def row_differences(kind: str, judge: str, old: list, new: list, key: tuple[str, ...]) -> list[str]:
    """Each row of a file (`old`) against its recomputation (`new`), matched by `key`: one line per
    differing field, and per row found on one side only."""
    a = {tuple(getattr(r, k) for k in key): r.model_dump(mode="json") for r in old}
    b = {tuple(getattr(r, k) for k in key): r.model_dump(mode="json") for r in new}
    out = []
    for ident in sorted(a.keys() | b.keys()):
        label = f"{judge} {kind} {'/'.join(ident)}"
        if ident not in b or ident not in a:
            out.append(f"{label}: {'in the file only' if ident not in b else 'recomputed only'}")
            continue
        out += [
            f"{label} {f}: file has {a[ident][f]!r}, recomputed {b[ident].get(f)!r}"
            for f in a[ident]
            if not same(a[ident][f], b[ident].get(f))
        ]
    return out


def check_judge_results(folder: Path, data_root: Path) -> FileCheck | None:
    """The folder's judge_results.json recomputed (None when the folder has none)."""
    folder = Path(folder)
    path = folder / JUDGE_RESULTS_NAME
    if not path.is_file():
        return None
    check = FileCheck(
        path,
        fix=f"regenerate it with `rgb-leaderboard judge {folder.as_posix()} --judge FILE` (stored "
        "verdicts are reused, no judge call is repeated)",
    )
    results = read_judge_results(path)
    items, pred_fp = submission_items(folder, data_root)
    if pred_fp != results.prediction_fingerprint:
        check.mismatches.append(
            f"prediction fingerprint: file has {results.prediction_fingerprint}, the "
            f"submission's current run is {pred_fp}; rerun `rgb-leaderboard judge`"
        )
        return check
    store = JudgementStore(folder / JUDGEMENTS_NAME)
    for s in results.judges:
        verdicts = verdicts_for(items, store, s.judge_fingerprint)
        rates = judge_rates(items, verdicts)
        agree = judge_against_scorers(items, verdicts, recorded_resamples(s.provenance))
        check.mismatches += row_differences("rate", s.judge_id, s.rates, rates, ("lang", "task"))
        check.mismatches += row_differences(
            "kappa", s.judge_id, s.agreement, agree, ("lang", "task", "rater", "against")
        )
    return check


def verify_judges(folders: list[Path], data_root: Path) -> tuple[list[str], int]:
    """judge_results.json of each folder that has one: printed lines, failures."""
    return rendered(check_judge_results(folder, data_root) for folder in folders)

"""The committed rgb-vs-strict audits (audits/strict/), written and re-derived by the current code.

The methodology page and docs/strict-audit.md quote these files, so they go through the trust chain
like a results.json: `verify` recomputes each file the current scoring code wrote and names what
differs; `disagreements --write-audits` rewrites them after a rule change.

- `after.json`: the disagreement counts (`disagreements --json`) of the entries it names;
- `after-ranked.json`: the same with every differing answer and its reason (`--list`);
- `after-agreement.json`: strict's and rgb's agreement with the hand labels (`scorers eval
  --json`: the correctness rows and the per-answer agreement rows) on the audit sets (the
  disagreement set `dis` and the agreement sample `agr`) and the scorers' labelled set, per split;
  and how far the disagreement set's two blind readings agree (`annotators`).

`before*.json` record the same figures under the scoring code before the rules changed (their
`scoring_version` says which); older code cannot be re-run, so they are kept as recorded and
`verify` only says so.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from leaderboard.board.audit_annotators import annotator_rows
from leaderboard.board.disagreements import Disagreement, counts, entry_disagreements
from leaderboard.board.load import load_entry
from leaderboard.core.checks import FileCheck, same
from leaderboard.core.types import ABILITIES, Ability
from leaderboard.stats.scorer_eval import answer_agreement, evaluate
from leaderboard.stats.version import scoring_version

AUDIT_DIR = Path("audits/strict")
COUNTS_NAME = "after.json"
RANKED_NAME = "after-ranked.json"
AGREEMENT_NAME = "after-agreement.json"
BEFORE_NAMES = ("before.json", "before-ranked.json", "before-agreement.json")
# key of after-agreement.json -> (collection, batch, split), as the methodology page reads them
AGREEMENT_KEYS: dict[str, tuple[str, str | None, str]] = {
    "audit_agr_all": ("audit", "agr", "all"),
    "audit_agr_dev": ("audit", "agr", "dev"),
    "audit_agr_test": ("audit", "agr", "test"),
    "audit_dis_all": ("audit", "dis", "all"),
    "audit_dis_dev": ("audit", "dis", "dev"),
    "audit_dis_test": ("audit", "dis", "test"),
    "scorers_all": ("scorers", None, "all"),
    "scorers_test": ("scorers", None, "test"),
}
ANNOTATORS_KEY = "annotators"  # the two blind readings of the disagreement set, per split
WRITE_COMMAND = "rgb-leaderboard disagreements --write-audits"


def disagreement_payload(
    folders: list[Path],
    data_root: Path,
    list_answers: bool,
    abilities: Sequence[Ability] = ABILITIES,
    done: dict[Path, list[Disagreement]] | None = None,
) -> tuple[dict[str, object], list[Disagreement]]:
    """What `disagreements --json` writes for these submission folders (with every differing
    answer when `list_answers`), and the disagreements found; `abilities` the RGB ones (the
    audits) or the probes (`disagreements --probes`, never an audit file). `done` keeps each
    folder's disagreements for the next call with the same `abilities` (after.json and
    after-ranked.json share the ranked entries: each is judged once)."""
    found: list[Disagreement] = []
    cache: dict = {}
    done = {} if done is None else done
    for folder in folders:
        if folder not in done:
            done[folder] = entry_disagreements(load_entry(folder), data_root, cache, abilities)
        found += done[folder]
    payload = {
        "scoring_version": scoring_version(),
        "entries": [f.name for f in folders],
        "counts": [c.as_dict() for c in counts(found)],
        "answers": [d.as_dict() for d in found] if list_answers else [],
    }
    return payload, found


def agreement_payload() -> dict[str, list[dict[str, object]]]:
    """after-agreement.json: per set and split, the correctness rows of `scorers eval` and its
    per-answer agreement rows (detector "every judgement"); under `annotators`, how far the two
    blind readings of the disagreement set agree and each mode against the first reading alone
    (board.audit_annotators), per split."""
    out: dict[str, list[dict[str, object]]] = {}
    for key, (collection, batch, split) in AGREEMENT_KEYS.items():
        rows = evaluate(split, batch=batch, collection=collection)  # type: ignore[arg-type]
        agree = answer_agreement(split, batch=batch, collection=collection)  # type: ignore[arg-type]
        out[key] = [r for r in rows if r["detector"] == "correctness"] + [
            {**r, "detector": "every judgement"} for r in agree
        ]
    out[ANNOTATORS_KEY] = [row for split in ("all", "dev", "test") for row in annotator_rows(split)]
    return out


def _entries(path: Path, default: list[Path]) -> list[Path]:
    """The submission folders a written audit names (submissions/<name>), else `default`."""
    if not path.is_file():
        return default
    names = json.loads(path.read_text(encoding="utf-8")).get("entries") or []
    return [Path("submissions") / str(n) for n in names] or default


def expected_files(
    folder: Path, data_root: Path, entries: list[Path], ranked: list[Path]
) -> dict[str, object]:
    """Each after*.json as the current code writes it: after.json over the entries it names (or
    `entries`), after-ranked.json over its entries (or `ranked`) with every answer listed."""
    done: dict[Path, list[Disagreement]] = {}
    counts_payload, _ = disagreement_payload(
        _entries(folder / COUNTS_NAME, entries), data_root, list_answers=False, done=done
    )
    ranked_payload, _ = disagreement_payload(
        _entries(folder / RANKED_NAME, ranked), data_root, list_answers=True, done=done
    )
    return {
        COUNTS_NAME: counts_payload,
        RANKED_NAME: ranked_payload,
        AGREEMENT_NAME: agreement_payload(),
    }


def dumps(payload: object) -> str:
    """The files' JSON form (as `disagreements --json` and `scorers eval --json` write it)."""
    return json.dumps(payload, ensure_ascii=False, indent=1) + "\n"


def write_audits(
    folder: Path, data_root: Path, entries: list[Path], ranked: list[Path]
) -> list[Path]:
    """Rewrite the after*.json files with the current code; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, payload in expected_files(folder, data_root, entries, ranked).items():
        path = folder / name
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_text(dumps(payload), encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written


def differences(old: object, new: object, where: str = "") -> list[str]:
    """Where two JSON values differ (numbers within core.checks' tolerance), each as
    'path: old -> new'."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            if k in old and k in new:
                out += differences(old[k], new[k], f"{where}/{k}")
            else:
                out.append(f"{where}/{k}: {old.get(k, 'missing')!r} -> {new.get(k, 'missing')!r}")
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} item(s) -> {len(new)}"]
        pairs = enumerate(zip(old, new, strict=True))
        return [d for i, (a, b) in pairs for d in differences(a, b, f"{where}[{i}]")]
    return [] if same(old, new) else [f"{where}: {old!r} -> {new!r}"]


def verify_strict_audits(folder: Path, data_root: Path, shown: int = 5) -> tuple[list[str], int]:
    """Recompute each committed after*.json of `folder` and compare: (report lines, files that
    differ or are missing); the before*.json files are named as kept."""
    folder = Path(folder)
    expected = expected_files(folder, data_root, [], [])
    lines, failed = [], 0
    for name in (COUNTS_NAME, RANKED_NAME, AGREEMENT_NAME):
        check = FileCheck(folder / name, fix=f"rewrite it: {WRITE_COMMAND}")
        if not check.path.is_file():
            check.mismatches.append("missing")
        else:
            recorded = json.loads(check.path.read_text(encoding="utf-8"))
            diff = differences(recorded, expected[name])
            check.mismatches += diff[:shown]
            if len(diff) > shown:
                check.mismatches.append(f"... and {len(diff) - shown} more")
        lines.append(check.render())
        failed += not check.ok
    for name in BEFORE_NAMES:
        path = folder / name
        if path.is_file():
            raw = json.loads(path.read_text(encoding="utf-8"))
            version = raw.get("scoring_version") if isinstance(raw, dict) else None
            what = f"scoring version {version}" if version else "the scoring code of that time"
            lines.append(
                f"kept: {path.as_posix()} (recorded before the rule change, {what}; not recomputed)"
            )
    return lines, failed


def is_audit_target(path: Path) -> bool:
    """A strict audit folder (one holding after.json, like audits/strict) or one of its files."""
    path = Path(path)
    if path.is_file():
        return (
            path.name in (COUNTS_NAME, RANKED_NAME, AGREEMENT_NAME, *BEFORE_NAMES)
            and (path.parent / COUNTS_NAME).is_file()
        )
    return (path / COUNTS_NAME).is_file() and (path / AGREEMENT_NAME).is_file()


def verify_audits(targets: list[Path], data_root: Path) -> tuple[list[str], int]:
    """`verify` over strict audit folders or files (each folder once)."""
    folders = list(dict.fromkeys(Path(t).parent if Path(t).is_file() else Path(t) for t in targets))
    lines: list[str] = []
    failed = 0
    for folder in folders:
        more, n = verify_strict_audits(folder, data_root)
        lines += more
        failed += n
    return lines, failed

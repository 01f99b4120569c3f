"""The methodology page's section on where rgb and strict disagree: the disagreement audit's counts
per model and language (audits/strict/{before,after}.json, written by `rgb-leaderboard
disagreements --json`) and strict's agreement with the hand labels of the audit sets and of the
scorers' labelled set, before the rules were fixed (audits/strict/before-agreement.json, written by
`scorers eval --json` then) and now (computed at build time)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from leaderboard.board.audit_annotators import annotator_rows
from leaderboard.site.render.fmt import decimal, esc, pct, pct_ci
from leaderboard.site.render.i18n import ui
from leaderboard.stats.scorer_eval import answer_agreement

AUDIT_DIR = Path("audits/strict")
# (label key, collection, batch, split) of each agreement line, in the order shown
AGREEMENT_SETS = (
    ("saudit.set_dis", "audit", "dis", "all"),
    ("saudit.set_dis_test", "audit", "dis", "test"),
    ("saudit.set_agr", "audit", "agr", "all"),
    ("saudit.set_scorers_test", "scorers", None, "test"),
    ("saudit.set_scorers_all", "scorers", None, "all"),
)
_BEFORE_NAMES = {
    ("audit", "dis", "all"): "audit_dis_all",
    ("audit", "dis", "test"): "audit_dis_test",
    ("audit", "agr", "all"): "audit_agr_all",
    ("scorers", None, "test"): "scorers_test",
    ("scorers", None, "all"): "scorers_all",
}


def _read(path: Path) -> object | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _answers(audit: object) -> Counter:
    """Differing judgements per (entry, lang) of a written audit."""
    out: Counter = Counter()
    for c in audit.get("counts", []) if isinstance(audit, dict) else []:
        out[(c["entry"], c["lang"])] += c["n"]
    return out


def _strict_all(rows: object) -> dict[str, object] | None:
    """The strict, all-languages per-answer agreement row of a `scorers eval --json` file."""
    for r in rows if isinstance(rows, list) else []:
        if r.get("detector") == "every judgement" and r["mode"] == "strict" and r["lang"] == "all":
            return r
    return None


def _share(row: dict[str, object] | None, lg: str) -> str:
    if row is None or not row.get("n"):
        return "—"
    rate = pct(row["rate"], lg=lg)  # type: ignore[arg-type]
    return ui(lg, "saudit.share", k=row["agree"], n=row["n"], pct=rate)


def strict_audit_section(root: Path | None, lg: str) -> str:
    """The section (Markdown), or "" when the repository holds no audit files."""
    folder = (root or Path(".")) / AUDIT_DIR
    before, after = _read(folder / "before.json"), _read(folder / "after.json")
    if before is None:
        return ""
    lines = ["\n" + ui(lg, "saudit.head")]
    old, new = _answers(before), _answers(after)
    for entry, lang in sorted(set(old) | set(new)):
        lines.append(
            "- "
            + ui(
                lg,
                "saudit.row",
                entry=esc(entry),
                lang=esc(lang),
                before=old.get((entry, lang), 0),
                after=new.get((entry, lang), 0) if after is not None else "—",
            )
        )
    lines.append("\n" + ui(lg, "saudit.agree_head"))
    saved = _read(folder / "before-agreement.json")
    for key, collection, batch, split in AGREEMENT_SETS:
        then = None
        if isinstance(saved, dict):
            then = _strict_all(saved.get(_BEFORE_NAMES[(collection, batch, split)]))
        rows = answer_agreement(split, batch=batch, collection=collection)  # type: ignore[arg-type]
        now = next(r for r in rows if r["lang"] == "all" and r["mode"] == "strict")
        lines.append(
            "- "
            + ui(
                lg,
                "saudit.agree_row",
                name=ui(lg, key),
                before=_share(then, lg),
                now=_share(now, lg),
            )
        )
    lines.append("\n" + annotators_line(lg))
    return "\n".join(lines) + "\n"


def annotators_line(lg: str) -> str:
    """How far the disagreement set's two blind readings agree, and strict against the first
    reading alone (board.audit_annotators), or "" when it was read once."""
    rows = {r["split"]: r for s in ("all", "test") for r in annotator_rows(s) if r["lang"] == "all"}
    whole = rows["all"]
    if not whole["n"]:
        return ""
    return ui(
        lg,
        "saudit.annotators",
        agree=_share(whole, lg),
        ci=pct_ci(whole["ci"], lg),  # type: ignore[arg-type]
        kappa=decimal(whole["kappa"], lg=lg),  # type: ignore[arg-type]
        adjudicated=whole["adjudicated"],
        first_all=_share(whole["first_strict"], lg),  # type: ignore[arg-type]
        first_test=_share(rows["test"]["first_strict"], lg),  # type: ignore[arg-type]
    )

"""The data errata page: the audit of the RGB files (scoring.audit, `rgb-leaderboard data audit`)
as a readable list in the page's language. Each finding says what is wrong with the question,
what the board does about it, and links to the question in the instance browser.

The audit writes its details in English (data: stored and downloaded as written); this page
reads them by shape (one pattern per kind of finding, as render/reasons.py does for the runner's
reasons) and says them in the page's language, quoting only the data itself (answers, questions)
marked with its own language. A detail of an unknown shape is shown as written, marked English.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from leaderboard.scoring.audit import AuditFinding, audit
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter, prefix_for

PATH = "errata.md"
KINDS = (
    "answer_in_negative",
    "partial_answer_in_negative",
    "fake_equals_answer",
    "answer_in_fake",
    "answer_not_in_positive",
    "duplicate_query",
    "conflict_fake_contains_true",
    "conflict_fake_unaligned",
    "conflict_fake_identical",
    "conflict_fake_states_true",
    "conflict_fake_lacks_fake",
    "conflict_true_lacks_answer",
)
_SHAPES = {
    "fake_equals_answer": re.compile(
        r"^fake answer (?P<fake>.+) equals the answer (?P<answer>.+)$"
    ),
    "answer_in_fake": re.compile(r"^answer (?P<answer>.+) is inside the fake answer (?P<fake>.+)$"),
    "answer_in_negative": re.compile(
        r"^(?P<found>.+) found in negative passage\(s\) \[(?P<where>[\d, ]+)\] "
        r"\(of the first (?P<n>\d+)\)$"
    ),
    "answer_not_in_positive": re.compile(
        r"^(?P<missing>.+) not found in any of (?P<n>\d+) positive passages$"
    ),
    "duplicate_query": re.compile(r"^same question as id (?P<other>\d+): (?P<query>.+)$", re.S),
}
_SHAPES["partial_answer_in_negative"] = _SHAPES["answer_in_negative"]
_PASSAGE = r"^(?P<passage>positive(?:_wrong)?\[\d+\]): "
_SHAPES |= {
    "conflict_fake_contains_true": re.compile(
        r"^the planted answer (?P<fake>.+) contains the answer (?P<answer>.+)$"
    ),
    "conflict_fake_unaligned": re.compile(
        r"^(?P<n>\d+) positive passages but (?P<other>\d+) positive_wrong$"
    ),
    "conflict_fake_identical": re.compile(_PASSAGE + r"identical to positive\[\d+\]$"),
    "conflict_fake_states_true": re.compile(_PASSAGE + r"still states the answer (?P<answer>.+)$"),
    "conflict_fake_lacks_fake": re.compile(
        _PASSAGE + r"does not state the planted answer (?P<fake>.+)$"
    ),
    "conflict_true_lacks_answer": re.compile(
        _PASSAGE + r"does not state the answer (?P<answer>.+)$"
    ),
}


@dataclass(frozen=True)
class Erratum:
    finding: AuditFinding
    parts: dict[str, str] | None  # the detail's pieces, None when its shape is unknown


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return [str(value)]


def _data_value(text: str) -> list[str]:
    """A Python literal the audit wrote ('70', ('170',), 'a', 'b') as its strings."""
    try:
        return _texts(ast.literal_eval(text))
    except (ValueError, SyntaxError):
        return [text]


def parse(f: AuditFinding) -> Erratum:
    shape = _SHAPES.get(f.kind)
    m = shape.match(f.detail) if shape else None
    return Erratum(f, m.groupdict() if m else None)


def _quote(texts: list[str], lang: str, lg: str) -> str:
    shown = ui(lg, "sep.list").join(f"“{t}”" if lg == "zh" else f"'{t}'" for t in texts)
    return f'<span class="lb-quote" lang="{esc(lang)}">{esc(shown)}</span>'


def _passages(where: str, lg: str) -> str:
    """[0, 3] as "1, 4" (the reader counts from one)."""
    return ui(lg, "sep.list").join(str(int(i) + 1) for i in where.split(",") if i.strip())


def reason_html(e: Erratum, lg: str) -> str:
    """What is wrong with the question, in `lg`, the data quoted in its own language."""
    f, p = e.finding, e.parts
    if p is None:
        return f'<span class="lb-quote" lang="en">{esc(f.detail)}</span>'
    raw = ("where", "n", "other", "passage")  # numbers and passage names, not data to quote
    q = {k: _quote(_data_value(v), f.lang, lg) for k, v in p.items() if k not in raw}
    if f.kind == "duplicate_query":
        q["query"] = _quote(_data_value(p["query"]), f.lang, lg)
    values = {**q, **{k: esc(p[k]) for k in ("n", "other") if k in p}}
    if "passage" in p:
        values["passage"] = f"<code>{esc(p['passage'])}</code>"
    if "where" in p:
        values["where"] = esc(_passages(p["where"], lg))
    return ui(lg, f"errata.reason_{f.kind}", **values)


def _ability_page(f: AuditFinding) -> str:
    """The instance browser page where the question is shown as the finding concerns it."""
    name = f.file.rsplit("/", 1)[-1]
    if "_int" in name:
        return f"{f.lang}-integration-0.0"
    if "_fact" in name:
        return f"{f.lang}-counterfactual-0.0"
    if f.kind in ("answer_in_negative", "partial_answer_in_negative"):
        return f"{f.lang}-rejection-1.0"
    return f"{f.lang}-noise-0.0"


def action_key(f: AuditFinding) -> str:
    """What the board does about a finding (errata.action_*): the rule is the scorer's."""
    refine = "_int" not in f.file and "_fact" not in f.file
    if f.kind == "answer_in_negative":
        return "errata.action_rejection" if refine else "errata.action_kept_negative"
    return f"errata.action_{f.kind}"


def _item(e: Erratum, lg: str, prefix: str) -> str:
    f = e.finding
    href = f"{prefix}instances/{_ability_page(f)}.html#q=%23{f.id}"
    where = ui(lg, "errata.where", lang=f.lang, file=f.file, id=f.id)
    link = f'<a href="{esc(href)}">{esc(ui(lg, "errata.browse"))}</a>'
    action = esc(ui(lg, action_key(f)))
    return (
        f"<li><strong>{esc(where)}</strong>{esc(ui(lg, 'sep.label'))}{reason_html(e, lg)}"
        f'<br><span class="lb-note">{action}</span> · {link}</li>'
    )


def errata_page(ctx: Context) -> str:
    """Every finding of the audit, grouped by kind, in `ctx.lg`."""
    lg = ctx.lg
    prefix = prefix_for(PATH)
    parts = [front_matter() + f"# {ui(lg, 'errata.title')}\n", ui(lg, "errata.intro") + "\n"]
    root: Path | None = ctx.data.root
    try:
        findings = list(audit(root)) if root is not None else []
    except Exception as exc:  # a data file that cannot be read: said, not a failed build
        warn = ui(lg, "errata.unavailable", error=exc)
        return "\n".join(parts) + f'\n<p class="lb-warn">{esc(warn)}</p>\n'
    if not findings:
        return "\n".join(parts) + "\n" + ui(lg, "errata.empty") + "\n"
    by_kind: dict[str, list[Erratum]] = defaultdict(list)
    for f in findings:
        by_kind[f.kind].append(parse(f))
    parts.append(ui(lg, "errata.count", n=len(findings)) + "\n")
    for kind in (*KINDS, *sorted(set(by_kind) - set(KINDS))):
        items = by_kind.get(kind)
        if not items:
            continue
        known = kind in KINDS
        title = ui(lg, f"errata.kind_{kind}") if known else kind
        parts.append(f"\n## {esc(ui(lg, 'errata.kind_heading', kind=title, n=len(items)))}\n")
        if known:
            parts.append(ui(lg, f"errata.about_{kind}") + "\n")
        body = "".join(_item(e, lg, prefix) for e in items)
        parts.append(f'\n<ul class="lb-errata">{body}</ul>\n')
    parts.append("\n" + ui(lg, "errata.command") + "\n")
    return "\n".join(parts)

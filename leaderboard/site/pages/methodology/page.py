"""The methodology page: what each number means in both scoring modes, the data audit, licence."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from leaderboard.board.load import SiteData
from leaderboard.board.ranking import is_trivial_baseline, score_entry
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.scoring.audit import audit
from leaderboard.site.pages.docs import SECTION as DOCS_SECTION
from leaderboard.site.pages.instructions import definitions_list as instruction_definitions
from leaderboard.site.pages.instructions import texts_section as instruction_texts
from leaderboard.site.pages.methodology.conflict_agreement import conflict_agreement_section
from leaderboard.site.pages.methodology.faithfulness_agreement import (
    faithfulness_agreement_section,
)
from leaderboard.site.pages.methodology.grounding import grounding_section
from leaderboard.site.pages.methodology.grounding_agreement import grounding_agreement_section
from leaderboard.site.pages.methodology.judge_agreement import judge_agreement_section
from leaderboard.site.pages.methodology.outcomes import outcomes_section
from leaderboard.site.pages.methodology.relevance_agreement import relevance_agreement_section
from leaderboard.site.pages.methodology.scorer_agreement import agreement_section
from leaderboard.site.pages.methodology.strict_audit import strict_audit_section
from leaderboard.site.render.columns import COLUMNS, column, columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.i18n import table as message_table
from leaderboard.site.render.page import Context, Output, definitions, entry_name
from leaderboard.site.render.tables import Cell, Column, Row, Table

# Measured figures quoted in the prose (tests/stats/test_intervals.py, tests/stats/test_ranked.py):
# kept here, not in the message tables, so every language prints the same numbers.
COVERAGE_SIMS = "1,000"
COVERAGE_ROWS = (  # (questions, noise rates averaged, ICC, true rate, Wilson at n_eff, bootstrap)
    (100, 1, None, "0.005", "0.922", "0.402"),
    (100, 1, None, "0.01", "0.930", "0.651"),
    (100, 1, None, "0.5", "0.938", "0.945"),
    (100, 1, None, "0.99", "0.946", "0.637"),
    (100, 1, None, "0.995", "0.923", "0.397"),
    (100, 5, "0.5", "0.01", "0.965", "0.808"),
    (100, 5, "0.5", "0.5", "0.950", "0.942"),
    (100, 5, "0.5", "0.99", "0.961", "0.788"),
)
RANK_FIGURES = {
    "naive_lo": "0.73",
    "naive_hi": "0.77",
    "runs": 200,
    "held": "95.5%",
    "gap": "0.8",
    "unpaired": "50%",
}

BIBTEX = """
```
@inproceedings{chen2024benchmarking,
  title     = {Benchmarking Large Language Models in Retrieval-Augmented Generation},
  author    = {Chen, Jiawei and Lin, Hongyu and Han, Xianpei and Sun, Le},
  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence},
  volume    = {38}, number = {16}, pages = {17754--17762}, year = {2024},
  doi       = {10.1609/aaai.v38i16.29728}
}
```
"""


def _as_dict(item: object) -> dict[str, object]:
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.asdict(item)
    if hasattr(item, "model_dump"):
        return item.model_dump()
    if isinstance(item, dict):
        return dict(item)
    return {"finding": str(item)}


def audit_section(root: Path | None, out: Output, lg: str = DEFAULT) -> str:
    """The data audit list (leaderboard.scoring.audit) as a filterable table, or why it is not
    shown. The findings themselves (ids, kinds, data excerpts) stay as the audit writes them."""
    head = f"\n## {ui(lg, 'method.audit_heading')}\n\n{ui(lg, 'method.audit_text')}\n"
    try:
        findings = list(audit(root)) if root is not None else []
    except Exception as exc:
        warn = ui(lg, "method.audit_unavailable", error=exc)
        return head + f'\n<p class="lb-warn">{esc(warn)}</p>\n'
    if not findings:
        return head + "\n" + ui(lg, "method.audit_empty") + "\n"
    rows = [_as_dict(f) for f in findings]
    keys: list[str] = []
    for r in rows:
        keys.extend(k for k in r if k not in keys)
    n = len(rows)
    table = Table(
        id="data-audit",
        title=ui(lg, "method.audit_title"),
        columns=tuple(_audit_column(k, lg) for k in keys),
        rows=tuple(Row({k: _audit_cell(k, r.get(k)) for k in keys}) for r in rows),
        note=ui(lg, "method.audit_note_one") if n == 1 else ui(lg, "method.audit_note", n=n),
        ui=lg,
    )
    # the findings are explained, in the reader's language, on the errata page; the raw list (the
    # audit's English) stays a download, linked from here
    out.tables.append(table)
    link = ui(lg, "method.audit_link", n=n)  # links errata.md (pages.errata.PATH)
    raw = (
        f'<a href="downloads/{table.id}.csv">CSV</a> · <a href="downloads/{table.id}.json">JSON</a>'
    )
    return head + f"\n{link} {esc(ui(lg, 'method.audit_raw'))} {raw}\n"


def _audit_column(key: str, lg: str) -> Column:
    """A finding field's column (render.columns audit.<key>), headed by its name when unknown."""
    name = f"audit.{key}"
    return column(name, lg) if name in COLUMNS else column("audit.field", lg, field=key)


def _audit_cell(key: str, value: object) -> Cell:
    """A finding's field: the kind is an identifier (code, as the prose writes it), the detail
    English as the audit writes it (marked lang="en": quoted data on a page of any language)."""
    plain = _plain(value)
    if key == "kind" and plain is not None:
        return Cell(plain, f"<code>{esc(plain)}</code>")
    if key == "detail" and plain is not None:
        return Cell(plain, f'<span class="lb-quote" lang="en">{esc(plain)}</span>')
    return Cell.text(plain, value if key == "id" else None)  # type: ignore[arg-type]


def _plain(value: object) -> object:
    if value is None or isinstance(value, str | int | float):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


BASELINE_COLUMNS = (  # (mode, ability, metric): render.columns baseline.<mode>_<ability>_<metric>
    ("rgb", "overall", "score"),
    *(("strict", a, "score") for a in ("overall", *ABILITIES)),
    ("strict", "rejection", "over_refusal"),
    ("strict", "counterfactual", "ed_false_alarm"),
)


def baseline_table(data: SiteData, lg: str = DEFAULT) -> Table | None:
    """Every trivial baseline's reference overall and strict scores, per language."""
    subs = [s for s in data.submissions if is_trivial_baseline(s.results)]
    if not subs:
        return None
    rows = []
    for s in subs:
        for lang in LANGS:
            name = entry_name(s, lg)
            cells = {"model": Cell.text(name, name), "lang": Cell.text(lang)}
            for mode, ability, metric in BASELINE_COLUMNS:
                e = score_entry(s.results, lang, ability, mode, metric)
                key = f"{mode}_{ability}_{metric}"
                if e is None or e.value is None:
                    cells[key] = Cell.missing(None if e is None else e.note)
                else:
                    cells[key] = Cell.rate(e.value, e.ci)
            rows.append(Row(cells))
    ids = (f"baseline.{m}_{a}_{k}" for m, a, k in BASELINE_COLUMNS)
    cols = columns(lg, "baseline.model", "baseline.lang", *ids)
    return Table(
        id="trivial-baselines",
        title=ui(lg, "method.baseline_title"),
        columns=cols,
        rows=tuple(rows),
        note=ui(lg, "method.baseline_note"),
        ui=lg,
    )


def _ability(name: str, lg: str) -> str:
    """An ability's display name; a name the tables do not know (a newer results file) as is."""
    return ui(lg, f"ability.{name}") if f"ability.{name}" in message_table(DEFAULT) else name


def coverage_table(lg: str = DEFAULT) -> str:
    """The interval-coverage simulation results as a Markdown table (figures from COVERAGE_ROWS,
    labels in language `lg`)."""
    head = [ui(lg, f"method.cov_{k}") for k in ("setting", "rate", "wilson", "boot")]
    lines = ["| " + " | ".join(head) + " |", "|---|---|---|---|"]
    for n, k, icc, rate, wilson, boot in COVERAGE_ROWS:
        setting = (
            ui(lg, "method.cov_cell", n=n)
            if icc is None
            else ui(lg, "method.cov_mean", k=k, n=n, icc=icc)
        )
        lines.append(f"| {setting} | {rate} | {wilson} | {boot} |")
    return "\n".join(lines) + "\n"


def _prose(lg: str) -> str:
    """The page's text from its title to the reported rows, in language `lg`."""
    return "\n".join(
        [
            f"\n# {ui(lg, 'method.title')}\n",
            ui(lg, "method.glossary_link"),  # the words of this page: site/glossary.yaml
            ui(lg, "method.measured"),
            ui(lg, "method.modes"),
            ui(lg, "method.hedge"),
            ui(lg, "method.strict"),
            ui(lg, "method.baselines"),
            ui(lg, "method.intervals", sims=COVERAGE_SIMS, diff_ci=ui(lg, "method.diff_ci")),
            coverage_table(lg),
            ui(lg, "method.ranks", **RANK_FIGURES),
            ui(lg, "method.trust"),
        ]
    )


def methodology_page(ctx: Context) -> str:
    """The page with its interface in language `ctx.lg`; the score definitions and the audit
    findings come from the results files and the audit code, in English."""
    data, out, lg = ctx.data, ctx.out, ctx.lg
    parts = [_prose(lg)]
    table = baseline_table(data, lg)
    if table is not None:
        parts.append(out.table(table, ""))
    parts.append(agreement_section(out, lg))
    parts.append(strict_audit_section(data.root, lg))
    parts.append(judge_agreement_section(data.label_agreements, out, lg))
    parts.append(faithfulness_agreement_section(data.faithfulness_agreements, out, lg))
    parts.append(relevance_agreement_section(data.relevance_agreements, out, lg))
    for mode in ("rgb", "strict"):
        defs = definitions(data, mode, lg)
        if defs:
            parts.append(f"\n### {ui(lg, f'method.defs_heading_{mode}')}\n")
            parts.append(
                '\n<dl class="lb-defs">'
                + "".join(
                    f"<dt>{esc(_ability(a, lg))}</dt><dd>{esc(d)}</dd>"
                    for a, d in sorted(defs.items())
                )
                + "</dl>\n"
            )
    parts.append(outcomes_section(lg))
    parts.append(conflict_agreement_section(out, lg))
    parts.append(grounding_section(data, out, lg, f"{DOCS_SECTION}/grounding.html"))
    parts.append(grounding_agreement_section(out, lg))
    parts.append(f"\n## {ui(lg, 'instr.method_h')}\n\n{esc(ui(lg, 'instr.method'))}\n")
    parts.append(instruction_definitions(lg))
    parts.append(instruction_texts(lg))
    parts.append(audit_section(data.root, out, lg))
    parts.append("\n" + ui(lg, "method.licence") + BIBTEX)
    return "\n".join(parts)

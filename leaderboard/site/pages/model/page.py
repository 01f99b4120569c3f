"""Per-model pages: scores and cells in both modes, curves, provenance, YAML, reproduce, files.
Every interface string comes from the message tables (model.*), so the page exists in every site
language with the same numbers; names, commands, provenance and YAML are shown as written."""

from __future__ import annotations

import json
from functools import partial

from leaderboard.board.load import Entry
from leaderboard.board.ranking import cells_for, cliff_marks, coverage
from leaderboard.core.types import ABILITIES, LANGS, MODES
from leaderboard.run.invocations import HISTORY_KEY, machines
from leaderboard.site.pages.conflicts.page import model_line as conflict_line
from leaderboard.site.pages.docs import SECTION as DOCS_SECTION
from leaderboard.site.pages.instructions import model_row as instruction_row
from leaderboard.site.pages.model.faithfulness import faithfulness_section
from leaderboard.site.pages.model.grounding import grounding_section
from leaderboard.site.pages.model.outcomes import outcome_section
from leaderboard.site.pages.model.relevance import relevance_section
from leaderboard.site.pages.model.tables import (
    ability_name,
    cells_table,
    code_label,
    judge_table,
    report_card,
    scores_table,
)
from leaderboard.site.pages.retrieval_to_answer import PATH as PROBES_PATH
from leaderboard.site.render import charts
from leaderboard.site.render.coverage import coverage_phrase
from leaderboard.site.render.facts import device_html, facts_section
from leaderboard.site.render.fmt import esc, md_text, pct
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import (
    Context,
    Output,
    Page,
    badge,
    entry_name,
    front_matter,
    model_size_and_quant,
    prefix_for,
)
from leaderboard.site.render.reasons import joined, reasons
from leaderboard.trust.reproduce import ReproduceFile


def _kv(rows: list[tuple[str, object]]) -> str:
    body = []
    for k, v in rows:
        text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
        body.append(
            f'<tr><th scope="row"><code>{esc(k)}</code></th><td><code>{esc(text)}</code></td></tr>'
        )
    return (
        '\n\n<div class="lb-scroll"><table class="lb-kv"><tbody>'
        + "".join(body)
        + "</tbody></table></div>\n\n"
    )


def _header(sub: Entry, lg: str) -> list[str]:
    """Title, badges and the one-line summary (entry, weights, size, backend, coverage)."""
    prov = sub.results.provenance
    name = entry_name(sub, lg)
    size, quant = model_size_and_quant(sub, lg)
    cov = coverage(sub.results, None)
    badges = badge("measured", ui(lg, "badge.measured"))
    if cov.partial:
        why = joined(lg, cov.reasons)
        badges += " " + badge("partial", ui(lg, "badge.partial"), why)
    summary = ui(
        lg,
        "model.summary",
        id=esc(sub.id),
        weights=esc(prov.model),
        size=esc(size or "—"),
        quant=esc(quant),
        backend=esc(prov.backend),
        coverage=esc(pct(cov.fraction, 0)),
        n=cov.n,
        expected=cov.expected,
    )
    parts = [
        front_matter(title=name) + f"# {md_text(name)}\n",
        f"\n<p>{badges}</p>\n",
        f"\n<p>{summary}</p>\n",
    ]
    if cov.partial:  # a few words here; the full list is under the provenance
        warn = ui(lg, "model.partial_warn", reasons=esc(coverage_phrase(lg, sub.results)))
        parts.append(f'\n<p class="lb-warn">{warn}</p>\n')
    return parts


def _noise_chart(sub: Entry, out: Output, prefix: str, lg: str) -> str:
    series = []
    for lang in LANGS:
        for mode in MODES:
            cs = cells_for(sub.results, lang, "noise", mode)
            if cs:
                series.append(
                    charts.Series(
                        f"{lang} {code_label(lg, 'modecode', mode)}",
                        tuple(c.noise_rate for c in cs),
                        tuple(c.accuracy for c in cs),
                        tuple(c.accuracy_ci[0] if c.accuracy_ci else None for c in cs),
                        tuple(c.accuracy_ci[1] if c.accuracy_ci else None for c in cs),
                        **cliff_marks(sub.results, lang, mode),  # type: ignore[arg-type]
                    )
                )
    if not series:
        return ""
    name = entry_name(sub, lg)
    alt = ui(lg, "model.chart_alt", name=name) + ui(lg, "abpage.cliff_alt")
    args = (series, ui(lg, "model.chart_title", name=name), lg)
    return out.chart(f"model-{sub.id}-noise", charts.noise_curve, args, alt, prefix, lg)


# The interval methods the statistics write into results.json (bootstrap.method), by the words
# they start with, and their message key: the English page shows the text as stored.
CI_METHODS = (
    ("Wilson score interval at the cluster-bootstrap effective n", "model.ci_wilson_eff"),
    ("percentile, cluster over question ids", "model.ci_percentile_cluster"),  # older files
)


def ci_method(text: str, lg: str) -> str:
    """The results file's interval method in `lg`: a known method's translation, else as stored."""
    if lg == DEFAULT:
        return text
    key = next((k for start, k in CI_METHODS if text.startswith(start)), None)
    return text if key is None else ui(lg, key)


def _files(sub: Entry) -> str:
    files = [("results.json", "results.json")]
    if sub.predictions_file is not None:
        files.append((sub.predictions_file.name, sub.predictions_file.name))
    if sub.model_yaml is not None:
        files.append(("model.yaml", "model.yaml"))
    return (
        '\n<ul class="lb-downloads">'
        + "".join(
            f'<li><a href="{esc(sub.id)}/{esc(f)}">{esc(label)}</a></li>' for label, f in files
        )
        + "</ul>\n"
    )


def _reproduced(r: ReproduceFile, lg: str) -> str:
    """'Re-generated 16 of 2,800 answers: 16 identical, ...' with the command that did it."""
    a = r.agreement
    key = "model.reproduced_ok" if a.passed else "model.reproduced_fail"
    return ui(
        lg,
        key,
        sample=r.sample,
        of=f"{r.of:,}",
        identical=a.identical,
        same=a.same_labels,
        different=a.different,
        command=esc(r.command),
    )


_BUILD_FLAGS = ("AVX512", "AVX2", "LLAMAFILE", "CUDA", "METAL")


def _machines(sub: Entry, lg: str) -> str | None:
    """'Answers generated on: <device> (llama.cpp AVX2): 250 answers; ...' when the results record
    where their answers came from (a run resumed on another machine or build says so here)."""
    extra = sub.results.provenance.extra
    history = extra.get(HISTORY_KEY)
    if not isinstance(history, list) or not history:
        return None
    per_machine = machines(history)
    items = []
    for device, build, n in per_machine:
        flags = [f for f in _BUILD_FLAGS if build and f"{f} = 1" in build]
        named = f'<span lang="en">{esc(" + ".join(flags))}</span>'
        shown = ui(lg, "model.machine_build", flags=named) if flags else ""
        items.append(
            ui(lg, "model.machine_item", device=device_html(device, lg), build=shown, n=f"{n:,}")
        )
    if any(isinstance(h, dict) and h.get("seeded") for h in history):
        items[0] += ui(lg, "model.machine_seeded")
    total = extra.get("predictions_in_results")
    attributed = sum(n for _, _, n in per_machine)
    if isinstance(total, int) and total > attributed:
        items.append(ui(lg, "model.machine_unattributed", n=f"{total - attributed:,}"))
    return ui(lg, "model.machines", list=ui(lg, "reason.sep").join(items))


def model_page(ctx: Context, sub: Entry) -> str:
    """A model's page with its interface in language `ctx.lg` (the same numbers in every one)."""
    out, lg = ctx.out, ctx.lg
    path = f"models/{sub.id}.md"
    prefix = prefix_for(path)
    prov = sub.results.provenance
    parts = _header(sub, lg)
    parts.append(facts_section(sub, lg))
    parts.append(f"\n## {ui(lg, 'model.h_scores')}\n")
    parts.append(out.table(report_card(sub, lg), prefix))
    parts.append(instruction_row(ctx, sub.id, prefix))
    parts.append(conflict_line(ctx, sub.id, prefix))
    chart = _noise_chart(sub, out, prefix, lg)
    if chart:
        parts.append(chart)
    parts.append(outcome_section(sub, out, prefix, lg))
    docs = f"{prefix}{DOCS_SECTION}/grounding.html"
    parts.append(grounding_section(sub, out, prefix, lg, docs))
    method = f"{prefix}methodology.html"
    agreements = ctx.data.faithfulness_agreements
    parts.append(faithfulness_section(sub, agreements, out, prefix, lg, method))
    relevance = ctx.data.relevance_agreements
    parts.append(relevance_section(sub, relevance, out, prefix, lg, method))
    if sub.results.probes:
        href = f"{prefix}{PROBES_PATH.removesuffix('.md')}.html"
        probes = f'<a href="{href}">{esc(ui(lg, "probes.title"))}</a>'
        parts.append(f"\n<p>{ui(lg, 'card.probes', link=probes)}</p>\n")
    if sub.judges:
        parts.append(f"\n## {ui(lg, 'model.h_judge')}\n")
        parts.append(out.table(judge_table(sub, lg), prefix))
    # the full metric list, collapsed: every metric of both modes, then every cell
    summary = esc(ui(lg, "card.all_metrics"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    parts.append(out.table(scores_table(sub, lg), prefix).strip("\n"))
    parts.append(f"<h3>{esc(ui(lg, 'model.h_cells'))}</h3>")
    parts.append(out.table(cells_table(sub, lg), prefix).strip("\n"))
    parts.append("</details>\n")
    parts.append(f"\n## {ui(lg, 'model.h_reproduce')}\n")
    parts.append(
        '\n<pre class="lb-cmd"><code>'
        + esc(f"rgb-leaderboard data fetch\n{prov.command}")
        + "</code></pre>\n"
    )
    commit = esc(prov.git_commit) if prov.git_commit else esc(ui(lg, "model.unknown"))
    dirty = ui(lg, "model.dirty") if prov.git_dirty else ""
    fingerprint = ui(lg, "model.fingerprint", fp=esc(prov.fingerprint), commit=commit, dirty=dirty)
    parts.append(f"\n<p>{fingerprint}</p>\n")
    if sub.reproduced is not None:  # reproduce.json: a sample regenerated with the model
        parts.append(f"\n<p>{_reproduced(sub.reproduced, lg)}</p>\n")
    if sub.attestation is not None:  # attestation.json: answers of uncommitted code re-generated
        a = sub.attestation
        bad = sorted({p.invocation_started for p in a.pairs if not p.identical})
        commits = {c.started: (c.git_commit or "?")[:12] for c in a.invocations}
        key = "model.attested" if a.passed else "model.attest_failed"
        text = ui(
            lg,
            key,
            bad=ui(lg, "sep.list").join(sorted({commits.get(b, "?") for b in bad})),
            sample=a.sample,
            of=f"{a.of:,}",
            k=len(a.invocations),
            identical=sum(p.identical for p in a.pairs),
            commit=esc(a.checkout.git_commit[:12]),
            command=esc(a.command),
        )
        parts.append(f"\n<p>{text}</p>\n")
    where = _machines(sub, lg)
    if where:
        parts.append(f"\n<p>{where}</p>\n")
    parts.append(f"\n## {ui(lg, 'model.h_downloads')}\n")
    parts.append(_files(sub))
    parts.append(f"\n## {ui(lg, 'model.h_provenance')}\n")
    parts.append(_kv(sorted(prov.model_dump().items())))
    bs = sub.results.bootstrap
    ci_text = ui(
        lg,
        "model.ci_text",
        method=esc(ci_method(bs.method, lg)),
        resamples=bs.resamples,
        seed=bs.seed,
        confidence=esc(pct(bs.confidence, 0)),
    )
    parts.append(f"\n<p>{ci_text}</p>\n")
    if sub.results.partial_reasons:
        parts.append(
            "\n<ul>"
            + "".join(f"<li>{esc(r)}</li>" for r in reasons(lg, sub.results.partial_reasons))
            + "</ul>\n"
        )
    if sub.model_yaml is not None:
        parts.append("\n## model.yaml\n")
        parts.append(f'\n<pre class="lb-yaml"><code>{esc(sub.model_yaml)}</code></pre>\n')
    links = " · ".join(
        f'<a href="{prefix}abilities/{lang}-{a}.html">{esc(label)}</a>'
        for lang in LANGS
        for a in ABILITIES
        for label in [
            ui(lg, "model.ability_link", lang=ui(lg, f"lang.{lang}"), ability=ability_name(a, lg))
        ]
    )
    parts.append("\n" + links + "\n")
    return "\n".join(parts)


def model_pages(ctx: Context) -> tuple[Page, ...]:
    """One page per entry, and the entry's files copied beside it (results.json, predictions,
    model.yaml: the same bytes in every language, so written once, here)."""
    pages = []
    for sub in ctx.data.submissions:
        files = [sub.dir / "results.json", sub.predictions_file]
        if sub.model_yaml is not None:
            files.append(sub.dir / "model.yaml")
        for f in files:
            if f is not None:
                ctx.out.files[f"models/{sub.id}/{f.name}"] = f.read_bytes()
        pages.append(Page(f"models/{sub.id}.md", partial(model_page, sub=sub)))
    return tuple(pages)

"""Per-model pages: scores and cells in both modes, curves, provenance, YAML, reproduce, files."""

from __future__ import annotations

import json

from leaderboard.board.load import Entry
from leaderboard.board.ranking import cells_for, cliff_marks, coverage
from leaderboard.core.types import ABILITIES, LANGS, MODES, PROBES
from leaderboard.site.render import charts
from leaderboard.site.render.fmt import esc, md_text, pct
from leaderboard.site.render.page import (
    ABILITY_NAMES,
    CLIFF_ALT,
    LANG_NAMES,
    Output,
    badge,
    front_matter,
    judged_cell,
    model_size_and_quant,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table


def _scores_table(sub: Entry) -> Table:
    """One row per (language, ability, metric), the two scoring modes side by side."""
    order = {k: i for i, k in enumerate(("zh", "en", "all"))}
    aorder = {k: i for i, k in enumerate(("overall", *ABILITIES))}
    groups: dict[tuple[str, str, str], dict[str, object]] = {}
    for e in sub.results.scores:
        groups.setdefault((e.lang, e.ability, e.metric), {})[e.mode] = e
    rows = []
    for key in sorted(
        groups, key=lambda k: (order.get(k[0], 9), aorder.get(k[1], 9), k[2] != "score", k[2])
    ):
        lang, ability, metric = key
        by_mode = groups[key]
        first = next(iter(by_mode.values()))
        cells = {
            "lang": Cell.text(lang),
            "ability": Cell.text(ABILITY_NAMES.get(ability, ability)),
            "metric": Cell(
                metric, f'<span title="{esc(first.definition)}">{esc(metric)}</span>', metric
            ),
            "n": Cell.text(first.n_questions, first.n_questions),
            "complete": Cell.text(
                "yes" if all(e.complete for e in by_mode.values()) else "no (partial)"
            ),
        }
        for mode in MODES:
            e = by_mode.get(mode)
            cells[mode] = Cell.rate(e.value if e else None, e.ci if e else None)
        rows.append(Row(cells))
    return Table(
        id=f"model-{sub.id}-scores",
        title=f"{sub.name}: scores",
        columns=(
            Column("lang", "Lang"),
            Column("ability", "Ability"),
            Column("metric", "Metric"),
            Column("rgb", "Reference (rgb) %", True),
            Column("strict", "Strict %", True),
            Column("n", "Questions", True),
            Column("complete", "Complete"),
        ),
        rows=tuple(rows),
        note="Hover a metric for its definition. 95% CI under each value.",
    )


def _cells_table(sub: Entry) -> Table:
    rows = []
    for c in sorted(
        sub.results.cells,
        key=lambda c: (
            LANGS.index(c.lang),
            (ABILITIES + PROBES).index(c.ability),
            c.noise_rate,
            MODES.index(c.mode),
        ),
    ):
        rows.append(
            Row(
                {
                    "lang": Cell.text(c.lang),
                    "ability": Cell.text(c.ability),
                    "noise_rate": Cell.text(f"{c.noise_rate:.1f}", c.noise_rate),
                    "mode": Cell.text(c.mode),
                    "accuracy": Cell.rate(c.accuracy, c.accuracy_ci),
                    "rejection": Cell.rate(c.rejection_rate, c.rejection_rate_ci),
                    "over_refusal": Cell.rate(c.over_refusal_rate),
                    "ed": Cell.rate(c.ed, c.ed_ci),
                    "cr": Cell.rate(c.cr, c.cr_ci),
                    "f1": Cell.rate(c.token_f1, c.token_f1_ci),
                    "n": Cell.text(f"{c.n}/{c.expected_n}", c.n),
                    "errors": Cell.text(c.n_errors, c.n_errors),
                    "data": Cell.text(c.data_file + ("" if c.data_complete else " (partial file)")),
                    "chars": Cell.text(f"{c.mean_output_chars:.0f}", c.mean_output_chars),
                }
            )
        )
    return Table(
        id=f"model-{sub.id}-cells",
        title=f"{sub.name}: all cells",
        columns=(
            Column("lang", "Lang"),
            Column("ability", "Ability"),
            Column("noise_rate", "Noise", True),
            Column("mode", "Mode"),
            Column("accuracy", "Accuracy", True),
            Column("rejection", "Rejection", True),
            Column("over_refusal", "Over-refusal", True),
            Column("ed", "ED", True),
            Column("cr", "CR", True),
            Column("f1", "Token F1", True),
            Column("n", "n / expected", True),
            Column("errors", "Errors", True),
            Column("data", "Data file"),
            Column("chars", "Mean output chars", True),
        ),
        rows=tuple(rows),
    )


def _judge_table(sub: Entry) -> Table:
    """Rej* and ED* by every LLM judge of this submission, with kappa against strict mode."""
    rows = []
    for judge in sub.judges:
        for rate in judge.rates:
            kappa = next(
                (
                    k
                    for k in judge.agreement
                    if k.lang == rate.lang and k.task == rate.task and k.against == "strict"
                ),
                None,
            )
            text = "undefined" if kappa is None or kappa.kappa is None else f"{kappa.kappa:.2f}"
            if kappa is not None and kappa.kappa_ci is not None:
                text += f" [{kappa.kappa_ci[0]:.2f}, {kappa.kappa_ci[1]:.2f}]"
            rows.append(
                Row(
                    {
                        "lang": Cell.text(rate.lang),
                        "metric": Cell.text("Rej*" if rate.metric == "rej_star" else "ED*"),
                        "value": judged_cell((judge,), rate.lang, rate.metric),
                        "kappa": Cell.text(text, kappa.kappa if kappa and kappa.kappa else -2.0),
                    }
                )
            )
    return Table(
        id=f"model-{sub.id}-judge",
        title=f"{sub.name}: LLM-judged Rej* and ED*",
        columns=(
            Column("lang", "Lang"),
            Column("metric", "Metric"),
            Column("value", "Judged rate", True),
            Column("kappa", "Kappa vs strict [95% CI]", True, "Cohen's kappa, judge vs strict"),
        ),
        rows=tuple(rows),
        note="Rates in %, 95% CI underneath; kappa undefined when both raters never vary.",
    )


def _kv(rows: list[tuple[str, object]]) -> str:
    body = []
    for k, v in rows:
        text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
        body.append(f'<tr><th scope="row">{esc(k)}</th><td><code>{esc(text)}</code></td></tr>')
    return (
        '\n\n<div class="lb-scroll"><table class="lb-kv"><tbody>'
        + "".join(body)
        + "</tbody></table></div>\n\n"
    )


def model_page(sub: Entry, out: Output) -> str:
    path = f"models/{sub.id}.md"
    prefix = prefix_for(path)
    prov = sub.results.provenance
    size, quant = model_size_and_quant(sub)
    cov = coverage(sub.results, None)
    badges = badge("measured", "measured")
    if cov.partial:
        badges += " " + badge("partial", "partial", "; ".join(cov.reasons))
    parts = [
        front_matter(title=sub.name) + f"# {md_text(sub.name)}\n",
        f"\n<p>{badges}</p>\n",
        f"\n<p>Entry <code>{esc(sub.id)}</code> · weights <code>{esc(prov.model)}</code>"
        f" · size {esc(size or '—')} · quantization {esc(quant)} · backend "
        f"<code>{esc(prov.backend)}</code> · coverage {esc(pct(cov.fraction, 0))}% "
        f"({cov.n}/{cov.expected} instances)</p>\n",
    ]
    if cov.partial:
        parts.append('\n<p class="lb-warn">Partial: ' + esc("; ".join(cov.reasons)) + "</p>\n")
    parts.append("\n## Scores\n")
    parts.append(out.table(_scores_table(sub), prefix))
    series = []
    for lang in LANGS:
        for mode in MODES:
            cs = cells_for(sub.results, lang, "noise", mode)
            if cs:
                series.append(
                    charts.Series(
                        f"{lang} {mode}",
                        tuple(c.noise_rate for c in cs),
                        tuple(c.accuracy for c in cs),
                        tuple(c.accuracy_ci[0] if c.accuracy_ci else None for c in cs),
                        tuple(c.accuracy_ci[1] if c.accuracy_ci else None for c in cs),
                        **cliff_marks(sub.results, lang, mode),  # type: ignore[arg-type]
                    )
                )
    if series:
        alt = (
            f"Line chart: noise-robustness accuracy (%) against noise rate for {sub.name}, one "
            "line per language and scoring mode" + CLIFF_ALT
        )
        args = (series, f"{sub.name}: noise robustness")
        parts.append(out.chart(f"model-{sub.id}-noise", charts.noise_curve, args, alt, prefix))
    if sub.judges:
        parts.append("\n## LLM judge (Rej*, ED*)\n")
        parts.append(out.table(_judge_table(sub), prefix))
    parts.append("\n## All cells, both scoring modes\n")
    parts.append(out.table(_cells_table(sub), prefix))
    parts.append("\n## Reproduce\n")
    parts.append(
        '\n<pre class="lb-cmd"><code>'
        + esc(f"rgb-leaderboard data fetch\n{prov.command}")
        + "</code></pre>\n"
    )
    parts.append(
        f"\n<p>Fingerprint <code>{esc(prov.fingerprint)}</code>; code "
        f"<code>{esc(prov.git_commit or 'unknown')}</code>"
        + (" (uncommitted changes)" if prov.git_dirty else "")
        + ".</p>\n"
    )
    files = [("results.json", "results.json")]
    if sub.predictions_file is not None:
        files.append((sub.predictions_file.name, sub.predictions_file.name))
    if sub.model_yaml is not None:
        files.append(("model.yaml", "model.yaml"))
    parts.append("\n## Downloads\n")
    parts.append(
        '\n<ul class="lb-downloads">'
        + "".join(
            f'<li><a href="{esc(sub.id)}/{esc(f)}">{esc(label)}</a></li>' for label, f in files
        )
        + "</ul>\n"
    )
    parts.append("\n## Provenance\n")
    parts.append(_kv(sorted(prov.model_dump().items())))
    bs = sub.results.bootstrap
    parts.append(
        f"\n<p>Confidence intervals: {esc(bs.method)}, {bs.resamples} resamples, seed "
        f"{bs.seed}, {esc(pct(bs.confidence, 0))}%.</p>\n"
    )
    if sub.results.partial_reasons:
        parts.append(
            "\n<ul>"
            + "".join(f"<li>{esc(r)}</li>" for r in sub.results.partial_reasons)
            + "</ul>\n"
        )
    if sub.model_yaml is not None:
        parts.append("\n## model.yaml\n")
        parts.append(f'\n<pre class="lb-yaml"><code>{esc(sub.model_yaml)}</code></pre>\n')
    parts.append(
        "\n"
        + " · ".join(
            f'<a href="{prefix}abilities/{lang}-{a}.html">{esc(LANG_NAMES[lang])}: '
            f"{esc(ABILITY_NAMES[a])}</a>"
            for lang in LANGS
            for a in ABILITIES
        )
        + "\n"
    )
    return "\n".join(parts)

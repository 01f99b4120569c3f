"""The "From retrieval to answer" page: the retrieve-then-generate chain with its error
attribution, context replacement with context reliance, and the noise cliff (issue 15).

Every figure is read from results.json's `probes` section (computed by leaderboard.stats.probes
and leaderboard.stats.cliff); nothing is recomputed here.
"""

from __future__ import annotations

from collections.abc import Callable

from leaderboard.board.load import Entry, SiteData
from leaderboard.board.ranking import cell, probe_entry
from leaderboard.core.schema import ProbeEntry
from leaderboard.core.types import LANGS
from leaderboard.site.render import charts
from leaderboard.site.render.page import (
    LANG_NAMES,
    MODE_NAMES,
    Output,
    front_matter,
    model_cell,
    prefix_for,
)
from leaderboard.site.render.tables import Cell, Column, Row, Table

PATH = "retrieval-to-answer.md"
INTRO = """\
Where does a RAG error come from: the retriever that missed the passage, or the generator that
had it and still failed? And does the generator read the passages at all? Three probes answer
this on RGB's own questions (the noise split: `zh_refine`, and for English the 50-record partial
file), next to the four RGB abilities, whose numbers they never change.

- **Retrieve-then-generate.** The model sees the top 5 passages BM25 (the retrieval track's
  retriever: jieba tokens for zh, stemmed words for en) ranks out of the question's own positive
  and negative passages, best first, with RGB's prompt. Each question is a *retrieval miss* (no
  passage holds the answer, and the answer is wrong or refused), a *generation miss* (a passage
  holds it, the answer is wrong or refused), *correct*, or *correct without support* (right
  although no passage held the answer: from memory). A `system` submission (a whole RAG
  pipeline) is attributed from the passage ids it returns.
- **Context replacement.** The same questions with the passages replaced by positive passages of
  unrelated questions of the same language (seeded, origins in the instance browser). Accuracy
  there is answering from memory; *context reliance* = accuracy with the question's own
  positives (noise rate 0) minus accuracy with replaced passages, on the same questions. A model
  whose answers do not change when the passages change is not reading them. Refusing under
  replacement is the right behaviour; RGB's negative rejection (noise rate 1.0) is shown beside it,
  whose negatives are on-topic.
- **The noise cliff.** From each noise curve: the largest drop between consecutive noise rates
  (paired CI) and the first rate where accuracy falls below half of the noise-0 accuracy; both
  are marked on the noise charts.

All CIs are 95% cluster-bootstrap intervals over questions; the probe cells share their data
file's draws with the noise cells, so differences are paired.
"""
CHAIN_COLS = (
    ("recall_at_k", "Recall@5", "Share of questions whose top 5 passages hold the answer"),
    ("accuracy_given_support", "Acc. | support", "Accuracy where a passage holds the answer"),
    ("end_to_end", "End-to-end", "Accuracy of retrieve-then-generate on all questions"),
    ("loss_retrieval", "Loss: retrieval", "Share of the end-to-end loss from retrieval misses"),
    ("loss_generation", "Loss: generation", "Share of the end-to-end loss from generation misses"),
)
REPLACEMENT_COLS = (
    ("own_accuracy", "Own passages", "Accuracy at noise rate 0, same questions"),
    ("memory_accuracy", "Replaced", "Accuracy with passages of unrelated questions"),
    ("context_reliance", "Context reliance", "Own minus replaced, paired 95% CI"),
    ("refusal", "Refusal (replaced)", "Share refusing with replaced passages"),
)
STACK = (
    ("retrieval_miss", "retrieval miss", "#d62728"),
    ("generation_miss", "generation miss", "#ff7f0e"),
    ("correct", "correct", "#2ca02c"),
    ("correct_without_support", "correct without support", "#9467bd"),
)


def _rate(e: ProbeEntry | None) -> Cell:
    return Cell.rate(e.value if e else None, e.ci if e else None)


def _measured(data: SiteData, probe: str) -> list[tuple[Entry, str]]:
    return [
        (s, lang)
        for s in sorted(data.submissions, key=lambda s: s.id)
        for lang in LANGS
        if any(e.probe == probe and e.lang == lang for e in s.results.probes)
    ]


def _n(s: Entry, lang: str, probe: str, metric: str, mode: str) -> Cell:
    e = probe_entry(s.results, lang, probe, metric, mode)
    return Cell.text(e.n_questions if e else None, e.n_questions if e else None)


def _probe_rows(
    data: SiteData,
    probe: str,
    n_metric: str,
    columns: tuple,
    mode: str,
    prefix: str,
    extra: Callable[[Entry, str], dict[str, Cell]] | None = None,
) -> tuple[list[Row], list[Column]]:
    """One row per measured (model, language) of a probe: n, then each rate with its CI."""
    rows = []
    for s, lang in _measured(data, probe):
        row = {"model": model_cell(s, prefix, lang), "lang": Cell.text(lang)}
        row["n"] = _n(s, lang, probe, n_metric, mode)
        for key, _, _ in columns:
            row[key] = _rate(probe_entry(s.results, lang, probe, key, mode))
        row.update(extra(s, lang) if extra else {})
        rows.append(Row(row))
    cols = [Column("model", "Model"), Column("lang", "Language"), Column("n", "n", True)]
    cols += [Column(k, label, True, tip) for k, label, tip in columns]
    return rows, cols


def chain_table(data: SiteData, mode: str, prefix: str) -> Table:
    rows, cols = _probe_rows(data, "chain", "recall_at_k", CHAIN_COLS, mode, prefix)
    return Table(
        id=f"chain-{mode}",
        title=f"Retrieve-then-generate chain, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        note="Rates in percent with 95% CIs; the two loss columns split 1 − end-to-end.",
    )


def replacement_table(data: SiteData, mode: str, prefix: str) -> Table:
    def rgb_rejection(s: Entry, lang: str) -> dict[str, Cell]:
        rej = cell(s.results, lang, "rejection", 1.0, mode)
        ci = rej.rejection_rate_ci if rej else None
        return {"rgb_rejection": Cell.rate(rej.rejection_rate if rej else None, ci)}

    rows, cols = _probe_rows(
        data, "replacement", "memory_accuracy", REPLACEMENT_COLS, mode, prefix, rgb_rejection
    )
    cols.append(
        Column("rgb_rejection", "RGB rejection", True, "Refusal at noise rate 1.0 (on-topic)")
    )
    return Table(
        id=f"replacement-{mode}",
        title=f"Context replacement, {MODE_NAMES[mode]}",
        columns=tuple(cols),
        rows=tuple(rows),
        note="Context reliance pairs each question's two answers (own passages, replaced).",
    )


def cliff_table(data: SiteData, mode: str, prefix: str) -> Table:
    rows = []
    for s, lang in _measured(data, "cliff"):
        drop = probe_entry(s.results, lang, "cliff", "largest_drop", mode)
        half = probe_entry(s.results, lang, "cliff", "below_half_at", mode)
        where = f"{drop.rates[0]:.1f} → {drop.rates[1]:.1f}" if drop and drop.rates else None
        at = None if half is None else ("none" if half.value is None else f"{half.value:.1f}")
        rows.append(
            Row(
                {
                    "model": model_cell(s, prefix, lang),
                    "lang": Cell.text(lang),
                    "where": Cell.text(where),
                    "drop": _rate(drop),
                    "half": Cell.text(at),
                }
            )
        )
    return Table(
        id=f"noise-cliff-{mode}",
        title=f"Noise cliff, {MODE_NAMES[mode]}",
        columns=(
            Column("model", "Model"),
            Column("lang", "Language"),
            Column("where", "Largest drop between"),
            Column("drop", "Drop", True, "Accuracy lost, paired 95% CI"),
            Column("half", "Below half at", False, "First noise rate below half of noise 0"),
        ),
        rows=tuple(rows),
    )


def _stack_chart(data: SiteData, out: Output, mode: str, prefix: str) -> str:
    labels, parts = [], {k: [] for k, _, _ in STACK}
    for s, lang in _measured(data, "chain"):
        labels.append(f"{s.name} ({lang})")
        for key, _, _ in STACK:
            e = probe_entry(s.results, lang, "chain", key, mode)
            parts[key].append(e.value if e and e.value is not None else 0.0)
    if not labels:
        return ""
    series = [(name, color, parts[k]) for k, name, color in STACK]
    alt = (
        "Stacked bar chart: for each model and language, the share of questions that were a "
        "retrieval miss, a generation miss, correct, or correct without support "
        f"({MODE_NAMES[mode]}); the numbers are in the table above"
    )
    args = (labels, series, f"Where the answers went ({mode})")
    return out.chart(f"chain-attribution-{mode}", charts.stacked_bars, args, alt, prefix)


def probes_page(data: SiteData, out: Output) -> str:
    prefix = prefix_for(PATH)
    parts = [front_matter() + "# From retrieval to answer\n", INTRO]
    if not any(s.results.probes for s in data.submissions):
        parts.append(
            "\n*No submission has run the probes yet* (`run --abilities chain,replacement`).\n"
        )
    for mode in ("rgb", "strict"):
        parts.append(f"\n## {MODE_NAMES[mode].capitalize()}\n")
        parts.append("\n### Retrieve-then-generate\n")
        parts.append(out.table(chain_table(data, mode, prefix), prefix))
        parts.append(_stack_chart(data, out, mode, prefix))
        parts.append("\n### Context replacement\n")
        parts.append(out.table(replacement_table(data, mode, prefix), prefix))
        parts.append("\n### Noise cliff\n")
        parts.append(out.table(cliff_table(data, mode, prefix), prefix))
    langs = ", ".join(LANG_NAMES[lang] for lang in LANGS)
    parts.append(f"\nLanguages: {langs}. Definitions of every figure: the downloads' JSON.\n")
    return "\n".join(parts)

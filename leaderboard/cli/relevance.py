"""`relevance`: the relevance judge (judge/relevance.py) on the answers of run folders whose
question fixes no type for its answer (the code decides the others), or, with --labels, on the
grounding labels' answers to such questions, with the judge's agreement (Cohen's kappa, relevant
against not) per split and language. Verdicts are cached in relevance.jsonl (a rerun judges only
what is missing); any judge backend."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from leaderboard.backends.registry import load_backend
from leaderboard.board.relevance_labelled import labels_files, read_relevance_labels
from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.errors import DataError
from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.judge_schema import FaithfulnessSample, RelevanceRow
from leaderboard.data.manifest import data_root
from leaderboard.judge.faithfulness import sample_answers
from leaderboard.judge.relevance import (
    RELEVANCE_NAME,
    RelevanceStore,
    relevance_items,
    run_relevance,
)
from leaderboard.judge.relevance_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    ALL,
    LABELS_DIR,
    RESULTS_NAME,
    agreement_record,
    relevance_provenance,
    relevance_summary,
    write_agreement,
    write_relevance_results,
)
from leaderboard.run.store import RunStore
from leaderboard.trust.verify import scored_answers


def _pct(share) -> str:
    if share.value is None:
        return f"- (n={share.n})"
    ci = "" if share.ci is None else f" [{100 * share.ci[0]:.1f}, {100 * share.ci[1]:.1f}]"
    return f"{100 * share.value:.1f}%{ci} n={share.n}"


def _command() -> str:
    return " ".join(shlex.quote(a) for a in ["rgb-leaderboard", *sys.argv[1:]])


def _row_line(row: RelevanceRow, sampled: bool = False) -> str:
    """One language's figures; an incomplete row says whether it is a seeded sample or partial."""
    shares = {s.figure: s for s in row.shares}
    cover = "" if row.complete else (" (a seeded sample)" if sampled else " (partial)")
    return (
        f"judged {row.judged} of {row.eligible} eligible{cover}, unparsable {row.n_unparsable}; "
        f"by judge {_pct(shares['judge'])}; by code {_pct(shares['code'])}; "
        f"combined {_pct(shares['combined'])}"
    )


def _labels_cmd(judge, labels: Path, split: str, limit: int | None, out: Path | None, resamples):
    if split not in ("dev", "test", "all"):
        raise DataError(f"--split: {split!r}; use dev, test or all")
    files = labels_files(labels)
    labelled = [lab for f in files for lab in read_relevance_labels(f)]
    chosen = [lab for lab in labelled if split in ("all", lab.split)]
    if limit is not None:  # the first N labelled answers of each language
        chosen = [
            lab for lg in ("zh", "en") for lab in [x for x in chosen if x.item.lang == lg][:limit]
        ]
    out_dir = out or AGREEMENT_DIR / judge.id
    store = RelevanceStore(out_dir / RELEVANCE_NAME)
    stats = run_relevance(judge, lambda: load_backend(judge), [lab.item for lab in chosen], store)
    typer.echo(f"judged {stats.judged}, cached {stats.cached}, failed {stats.errors}")
    record = agreement_record(
        judge, files, labelled, split, store, relevance_provenance(judge, _command()), resamples
    )
    write_agreement(out_dir / AGREEMENT_NAME, record)
    for row in record.agreement:
        kappa = "undefined" if row.kappa is None else f"{row.kappa:.2f}"
        ci = "" if row.kappa_ci is None else f" [{row.kappa_ci[0]:.2f}, {row.kappa_ci[1]:.2f}]"
        observed = "-" if row.observed is None else f"{100 * row.observed:.1f}%"
        typer.echo(
            f"{row.split} {row.lang}: agreement {observed}, kappa (relevant vs not) {kappa}{ci}, "
            f"n={row.n} of {row.n_labelled} labelled (unparsable {row.n_unparsable}, unjudged "
            f"{row.n_unjudged})"
        )
    typer.echo(f"wrote {out_dir / AGREEMENT_NAME}")


def relevance_cmd(
    folders: list[Path] = typer.Argument(
        None, help="Run folders whose answers to untyped questions to judge (not with --labels)."
    ),
    judge_file: Path = typer.Option(..., "--judge", help="The judge's YAML (judges/*.yaml)."),
    lang: str | None = typer.Option(None, "--lang", help="Only this language."),
    ability: str | None = typer.Option(None, "--ability", help="Only this ability or probe."),
    limit: int | None = typer.Option(
        None, "--limit", help="Judge at most N answers (with --labels: N per language)."
    ),
    sample: int | None = typer.Option(
        None,
        "--sample-answers",
        help="Judge at most N answers per language, drawn at random (seeded, the same draw on "
        "every machine; a larger N holds a smaller one). Not with --labels.",
    ),
    seed: int = typer.Option(0, "--seed", help="With --sample-answers: the draw's seed."),
    labels: Path | None = typer.Option(
        None,
        "--labels",
        help=f"Judge the grounding labels' answers to untyped questions ({LABELS_DIR}: "
        "grounding_<lang>.jsonl) and print the judge's agreement with their `relevant`.",
    ),
    split: str = typer.Option("all", "--split", help="With --labels: test, dev or all."),
    out: Path | None = typer.Option(
        None,
        "--out",
        help=f"Where {RELEVANCE_NAME} and {RESULTS_NAME} go (default: each run folder; with "
        f"--labels, where {RELEVANCE_NAME} and {AGREEMENT_NAME} go, default "
        f"{AGREEMENT_DIR.as_posix()}/<judge id>/: the committed home, checked by `verify` and "
        "shown on the site).",
    ),
    resamples: int = typer.Option(
        2000, "--resamples", help="With --labels: bootstrap resamples of the kappa intervals."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Judge whether each answer to a question that fixes no type for its answer addresses the
    question (cached verdicts), and print per language the share relevant by the judge, by code
    (typed questions) and both combined; with --labels, the judge's kappa against the grounding
    labels."""
    judge = load_judge_config(judge_file)
    if sample is not None and (labels is not None or sample < 1):
        raise DataError("--sample-answers: a positive number of answers, not with --labels")
    if labels is not None:
        _labels_cmd(judge, labels, split, limit, out, resamples)
        return
    root = data_root(data_dir)
    for folder in folders or []:
        results = RunStore(folder).read_results()
        fp = results.provenance.fingerprint
        answers = scored_answers(folder, root)
        eligible = relevance_items(answers, fp)  # every answer the figures are over
        items = [
            it
            for it in eligible
            if (lang is None or it.lang == lang) and (ability is None or it.ability == ability)
        ]
        if sample is not None:  # drawn from every eligible answer, as the figures redraw it
            drawn = {it.key for it in sample_answers(eligible, sample, seed)}
            items = [it for it in items if it.key in drawn]
        if limit is not None:
            items = items[:limit]
        out_dir = out or folder
        store = RelevanceStore(out_dir / RELEVANCE_NAME)
        stats = run_relevance(judge, lambda: load_backend(judge), items, store)
        typer.echo(
            f"{folder}: {len(items)} answers of {len(eligible)} eligible; judged "
            f"{stats.judged}, cached {stats.cached}, failed {stats.errors}"
        )
        summary = relevance_summary(
            judge,
            answers,
            eligible,
            store,
            relevance_provenance(judge, _command()),
            None if sample is None else FaithfulnessSample(answers_per_lang=sample, seed=seed),
        )
        write_relevance_results(out_dir / RESULTS_NAME, results.submission_id, fp, summary)
        for row in summary.rows:
            if row.ability == ALL:
                typer.echo(f"  {row.lang}: {_row_line(row, summary.sample is not None)}")
        typer.echo(f"  wrote {out_dir / RESULTS_NAME} (per ability there)")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `relevance`."""
    app.command("relevance")(relevance_cmd)

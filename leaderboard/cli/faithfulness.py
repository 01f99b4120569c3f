"""`faithfulness`: the statement-level faithfulness judge (judge/faithfulness.py) on the answers
longer than one statement of run folders, or, with --labels, on the hand-labelled statements, with
the judge's agreement (Cohen's kappa, supported against not) per language. Verdicts are cached in
faithfulness.jsonl (a rerun judges only what is missing); any judge backend."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from leaderboard.backends.registry import load_backend
from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.errors import DataError
from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.judge_schema import FaithfulnessSample
from leaderboard.data.manifest import data_root
from leaderboard.judge.faithfulness import (
    FAITHFULNESS_NAME,
    LABELS_DIR,
    StatementItem,
    StatementStore,
    read_labels,
    run_faithfulness,
    sample_answers,
    statement_items,
)
from leaderboard.judge.faithfulness_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    RESULTS_NAME,
    agreement_record,
    faithfulness_summary,
    label_id,
    statement_provenance,
    write_agreement,
    write_faithfulness_results,
)
from leaderboard.judge.statements import split_statements
from leaderboard.run.store import RunStore
from leaderboard.trust.verify import scored_answers


def _pct(share) -> str:
    if share.value is None:
        return f"- (n={share.n})"
    ci = "" if share.ci is None else f" [{100 * share.ci[0]:.1f}, {100 * share.ci[1]:.1f}]"
    return f"{100 * share.value:.1f}{ci} n={share.n}"


def _command() -> str:
    return " ".join(shlex.quote(a) for a in ["rgb-leaderboard", *sys.argv[1:]])


def _chosen(items, lang: str | None, ability: str | None):
    return [
        it
        for it in items
        if (lang is None or it.instance.lang == lang)
        and (ability is None or it.instance.ability == ability)
    ]


def _labelled_items(
    labels, root: Path, split: str
) -> tuple[list[tuple[str, StatementItem]], list[str]]:
    """The labelled statements as items (answers and passages rebuilt as `verify` does), and the
    labels left out as stale: the answer's statement at that index is not the labelled text any
    more (the splitter or the answer changed since labelling). A label whose answer is gone is
    an error naming it."""
    out = []
    stale: list[str] = []
    by_folder: dict[str, dict[str, object]] = {}
    for lab in labels:
        if split != "all" and lab.split != split:
            continue
        if lab.folder not in by_folder:
            folder = Path(lab.folder)
            fp = RunStore(folder).read_results().provenance.fingerprint
            by_folder[lab.folder] = {
                "fp": fp,
                **{it.instance.key: it for it in scored_answers(folder, root)},
            }
        found = by_folder[lab.folder]
        item = found.get(lab.key)
        if item is None:
            raise DataError(f"label {lab.folder} {lab.key}: no such answer in that run folder")
        inst = item.instance  # type: ignore[attr-defined]
        texts = split_statements(item.prediction, inst.query, inst.lang)  # type: ignore[attr-defined]
        if lab.statement >= len(texts) or texts[lab.statement] != lab.statement_text:
            stale.append(label_id(lab))
            continue
        out.append(
            (
                lab.folder,
                StatementItem(
                    inst.key,
                    inst.lang,
                    inst.id,
                    lab.statement,
                    lab.statement_text,
                    inst.query,
                    inst.docs,
                    item.prediction,
                    str(found["fp"]),  # type: ignore[attr-defined]
                ),
            )
        )
    return out, stale


def faithfulness_cmd(
    folders: list[Path] = typer.Argument(
        None, help="Run folders whose multi-statement answers to judge (not with --labels)."
    ),
    judge_file: Path = typer.Option(..., "--judge", help="The judge's YAML (judges/*.yaml)."),
    lang: str | None = typer.Option(None, "--lang", help="Only this language."),
    ability: str | None = typer.Option(None, "--ability", help="Only this ability or probe."),
    limit: int | None = typer.Option(
        None, "--limit", help="Judge at most N statements (with --labels: N per language)."
    ),
    sample: int | None = typer.Option(
        None,
        "--sample-answers",
        help="Judge every statement of at most N answers per language, drawn at random (seeded, "
        "the same draw on every machine; a larger N holds a smaller one). Not with --labels.",
    ),
    seed: int = typer.Option(0, "--seed", help="With --sample-answers: the draw's seed."),
    labels: Path | None = typer.Option(
        None,
        "--labels",
        help=f"Judge the hand-labelled statements of this folder ({LABELS_DIR}) and print the "
        "judge's agreement with them.",
    ),
    split: str = typer.Option("test", "--split", help="With --labels: test, dev or all."),
    out: Path | None = typer.Option(
        None,
        "--out",
        help=f"Where faithfulness.jsonl and {RESULTS_NAME} go (default: each run folder; with "
        f"--labels, where faithfulness.jsonl and {AGREEMENT_NAME} go, default "
        f"{AGREEMENT_DIR.as_posix()}/<judge id>/: the committed home, checked by `verify` and "
        "shown on the site).",
    ),
    resamples: int = typer.Option(
        2000, "--resamples", help="With --labels: bootstrap resamples of the kappa intervals."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Judge each statement of the multi-statement answers supported / unsupported /
    contradicted by the passages shown (cached verdicts), and print per language the shares,
    the answers with an unsupported statement (hallucination) or a contradicted one
    (misrepresentation); with --labels, the judge's kappa against the hand labels."""
    judge = load_judge_config(judge_file)
    root = data_root(data_dir)
    if sample is not None and (labels is not None or sample < 1):
        raise DataError("--sample-answers: a positive number of answers, not with --labels")
    if labels is not None:
        if split not in ("dev", "test", "all"):
            raise DataError(f"--split: {split!r}; use dev, test or all")
        files = sorted(labels.glob("*.jsonl"))
        labelled = [lab for f in files for lab in read_labels(f)]
        pairs, stale = _labelled_items(labelled, root, split)
        if stale:
            typer.echo(
                f"left out {len(stale)} labelled statement(s) whose answer's statements are not "
                "the labelled ones any more (the splitter or the answer changed since "
                "labelling; listed in agreement.json `stale`)"
            )
        if limit is not None:  # the first N statements of each language
            pairs = [
                p for lg in ("zh", "en") for p in [q for q in pairs if q[1].lang == lg][:limit]
            ]
        out_dir = out or AGREEMENT_DIR / judge.id
        store = StatementStore(out_dir / FAITHFULNESS_NAME)
        items = [it for _, it in pairs]
        stats = run_faithfulness(judge, lambda: load_backend(judge), items, store)
        typer.echo(f"judged {stats.judged}, cached {stats.cached}, failed {stats.errors}")
        record = agreement_record(
            judge,
            files,
            labelled,
            split,
            store,
            statement_provenance(judge, _command()),
            resamples,
            stale,
        )
        write_agreement(out_dir / AGREEMENT_NAME, record)
        for row in record.agreement:
            kappa = "undefined" if row.kappa is None else f"{row.kappa:.2f}"
            ci = "" if row.kappa_ci is None else f" [{row.kappa_ci[0]:.2f}, {row.kappa_ci[1]:.2f}]"
            observed = "-" if row.observed is None else f"{row.observed:.2f}"
            typer.echo(
                f"{row.lang}: kappa (supported vs not) {kappa}{ci}, n={row.n} of "
                f"{row.n_labelled} labelled (stale {row.n_stale}, unparsable "
                f"{row.n_unparsable}, unjudged {row.n_unjudged}), observed agreement {observed}"
            )
        typer.echo(f"wrote {out_dir / AGREEMENT_NAME}")
        return
    for folder in folders or []:
        run_store = RunStore(folder)
        results = run_store.read_results()
        fp = results.provenance.fingerprint
        answers = scored_answers(folder, root)
        eligible = statement_items(answers, fp)  # every statement the figures are over
        items = statement_items(_chosen(answers, lang, ability), fp)
        if sample is not None:  # drawn from every eligible answer, as the figures redraw it
            drawn = {it.key for it in sample_answers(eligible, sample, seed)}
            items = [it for it in items if it.key in drawn]
        if limit is not None:
            items = items[:limit]
        out_dir = out or folder
        store = StatementStore(out_dir / FAITHFULNESS_NAME)
        stats = run_faithfulness(judge, lambda: load_backend(judge), items, store)
        typer.echo(
            f"{folder}: {len(items)} statements of {len(eligible)} eligible; judged "
            f"{stats.judged}, cached {stats.cached}, failed {stats.errors}"
        )
        summary_record = faithfulness_summary(
            judge,
            eligible,
            store,
            statement_provenance(judge, _command()),
            None if sample is None else FaithfulnessSample(answers_per_lang=sample, seed=seed),
        )
        write_faithfulness_results(
            out_dir / RESULTS_NAME, results.submission_id, fp, summary_record
        )
        for row in summary_record.rows:
            parts = ", ".join(f"{s.figure} {_pct(s)}" for s in row.shares)
            typer.echo(
                f"  {row.lang}: statements judged {row.judged_statements} of "
                f"{row.eligible_statements}, answers {row.judged_answers} of "
                f"{row.eligible_answers}; {parts}"
            )


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `faithfulness`."""
    app.command("faithfulness")(faithfulness_cmd)

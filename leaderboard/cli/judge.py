"""`judge` (the paper's Rej* and ED* by an LLM judge) and `judge-agreement` (the judge against the
labelled answers)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from leaderboard.backends.registry import load_backend
from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.errors import ConfigError
from leaderboard.core.files import atomic_write_text
from leaderboard.core.judge_config import load_judge_config
from leaderboard.data.manifest import data_root
from leaderboard.judge.agreement import (
    AGREEMENT_NAME,
    LABELS_DIR,
    label_agreement,
    labelled_items,
    labels_files,
    read_labelled,
)
from leaderboard.judge.run import (
    JUDGEMENTS_NAME,
    JudgementStore,
    judge_fingerprint,
    judge_provenance,
    run_judge,
)
from leaderboard.judge.summary import (
    JUDGE_RESULTS_NAME,
    read_judge_results,
    submission_items,
    summarize,
    write_judge_results,
)
from leaderboard.run.store import RunStore


def _pct(x: float | None, ci: tuple[float, float] | None = None) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}" + ("" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]")


def _kappa(x: float | None, ci: tuple[float, float] | None) -> str:
    if x is None:
        return "undefined"
    return f"{x:.2f}" + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]")


def _command() -> str:
    return " ".join(shlex.quote(a) for a in ["rgb-leaderboard", *sys.argv[1:]])


def _progress(enabled: bool):
    def on_chunk(done: int, total: int, ms: int) -> None:
        if enabled:
            typer.echo(f"judged {done}/{total} ({ms} ms for the last chunk)", err=True)

    return on_chunk


def _judge_all(judge, items, out_dir: Path, chunk_size: int, progress: bool):
    """Judge `items` into out_dir's judgements file (cached verdicts reused); both commands
    judge the same way, only their items and summaries differ."""
    store = JudgementStore(out_dir / JUDGEMENTS_NAME)
    stats, describe = run_judge(
        judge,
        lambda: load_backend(judge),
        items,
        store,
        chunk_size=chunk_size,
        on_chunk=_progress(progress),
    )
    return store, judge_fingerprint(judge), stats, describe


def _rates_table(title: str, rates, agreement) -> Table:
    table = Table(title=title)
    for col in (
        "lang",
        "metric",
        "value % [95% CI]",
        "n",
        "unparsable",
        "unjudged",
        "of predictions",
        "reference rule %",
    ):
        table.add_column(col)
    for r in rates:
        table.add_row(
            r.lang,
            r.metric,
            _pct(r.value, r.ci),
            str(r.n),
            str(r.n_unparsable),
            str(r.n_unjudged),
            str(r.n_predictions),
            _pct(r.reference_rule_value),
        )
    return table


def _kappa_table(title: str, entries) -> Table:
    table = Table(title=title)
    for col in ("lang", "task", "rater", "against", "n", "agree %", "kappa [95% CI]", "table"):
        table.add_column(col)
    for e in entries:
        t = e.table
        cells = f"{t['both_yes']}/{t['rater_only']}/{t['other_only']}/{t['both_no']}"
        table.add_row(
            e.lang,
            e.task,
            e.rater,
            e.against,
            str(e.n),
            _pct(e.observed),
            _kappa(e.kappa, e.kappa_ci),
            cells,
        )
    return table


def judge_cmd(
    submission: Path = typer.Argument(..., help="submissions/<id> (the folder with predictions)."),
    judge_file: Path = typer.Option(..., "--judge", help="The judge YAML (e.g. judges/*.yaml)."),
    limit: int | None = typer.Option(
        None, "--limit", help="Judge only the first N ids per language and task (resumable)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Where judgements.jsonl and judge_results.json go (default: the submission folder).",
    ),
    chunk_size: int = typer.Option(4, "--chunk-size", min=1, help="Judge calls per append."),
    resamples: int = typer.Option(2000, "--resamples", min=0, help="Bootstrap resamples."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Print progress."),
) -> None:
    """Judge a submission's rejection and counterfactual answers with the reference judge prompts
    (the paper's Rej* and ED*); every verdict is cached, a rerun resumes."""

    judge = load_judge_config(judge_file)
    folder = submission if submission.is_dir() else submission.parent
    if not folder.is_dir():
        raise ConfigError(f"{submission}: no such submission folder")
    items, pred_fp = submission_items(folder, data_root(data_dir))
    selected = _first_per_group(items, limit)
    out_dir = out or folder
    store, jfp, stats, describe = _judge_all(judge, selected, out_dir, chunk_size, progress)
    results_path = out_dir / JUDGE_RESULTS_NAME
    if describe is None and results_path.is_file():  # nothing new judged: keep the old record
        old = read_judge_results(results_path)
        same = [j for j in old.judges if j.judge_fingerprint == jfp]
        describe = same[0].provenance.get("backend") if same else None  # type: ignore[assignment]
    summary = summarize(
        judge, jfp, items, store, judge_provenance(judge, describe, _command()), resamples
    )
    run_store = RunStore(folder)
    sub_id = (
        run_store.read_results().submission_id if run_store.results_path.is_file() else folder.name
    )
    write_judge_results(results_path, sub_id, pred_fp, summary)
    console = _print_judged(
        judge,
        jfp,
        stats,
        f" (asked again next run), {stats.skipped} failed generations not judged",
        ("Rej* / ED* (judged)", "agreement with the scorers (yes = rejected / detected)"),
        summary,
    )
    console.print(f"wrote {out_dir / JUDGEMENTS_NAME} and {results_path}")


def _print_judged(judge, jfp: str, stats, tail: str, titles: tuple[str, str], result) -> Console:
    """What both judge commands print first: the judge, its counts, the rates and the kappas
    (`titles` for those two tables); the console, for the command's last line."""
    console = Console(highlight=False, soft_wrap=False, width=160)
    console.print(
        f"judge {judge.id} ({judge.backend}: {judge.model}), fingerprint {jfp}: "
        f"{stats.judged} judged now, {stats.cached} cached, {stats.errors} judge errors{tail}"
    )
    console.print(_rates_table(titles[0], result.rates, result.agreement))
    console.print(_kappa_table(titles[1], result.agreement))
    return console


def _first_per_group(items, limit: int | None):
    if limit is None:
        return list(items)
    counts: dict[tuple[str, str], int] = {}
    out = []
    for it in items:
        k = (it.task, it.lang)
        counts[k] = counts.get(k, 0) + 1
        if counts[k] <= limit:
            out.append(it)
    return out


def agreement_cmd(
    judge_file: Path = typer.Option(..., "--judge", help="The judge YAML."),
    labels: Path | None = typer.Option(
        None,
        "--labels",
        help="Folder with zh.jsonl and en.jsonl (default: the package's "
        "leaderboard/scoring/labels).",
    ),
    split: str = typer.Option("all", "--split", help="dev, test or all."),
    limit: int | None = typer.Option(
        None,
        "--limit",
        help="N labelled answers per language and task, a fixed sample (by the hash of the id); "
        "resumable.",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        help="Folder for judgements.jsonl and agreement.json (default: "
        "runs/judge-agreement/<judge id>; the committed home, checked by `verify` and shown on "
        "the methodology page, is judges/agreement/<judge id>).",
    ),
    chunk_size: int = typer.Option(4, "--chunk-size", min=1, help="Judge calls per append."),
    resamples: int = typer.Option(2000, "--resamples", min=0, help="Bootstrap resamples."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Print progress."),
) -> None:
    """Cohen's kappa (95% CI) of the judge against the labelled answers, per language, with the
    strict and rgb scorers against the same labels for contrast."""
    if split not in ("dev", "test", "all"):
        raise ConfigError(f"--split: {split!r}; use dev, test or all")
    splits = ["dev", "test"] if split == "all" else [split]
    judge = load_judge_config(judge_file)
    files = labels_files(labels or LABELS_DIR)
    answers = [a for f in files for a in read_labelled(f)]
    items = labelled_items(answers, splits, limit)
    out_dir = out or Path("runs") / "judge-agreement" / judge.id
    store, jfp, stats, describe = _judge_all(judge, items, out_dir, chunk_size, progress)
    result = label_agreement(
        judge,
        jfp,
        answers,
        items,
        store,
        files,
        splits,
        limit,
        judge_provenance(judge, describe, _command()),
        resamples,
    )
    path = out_dir / AGREEMENT_NAME
    atomic_write_text(
        path, json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    )
    console = _print_judged(
        judge,
        jfp,
        stats,
        f"; labelled answers per language: {result.n_items}",
        ("judge on the labelled answers", "agreement (yes = rejected / detected)"),
        result,
    )
    console.print(f"wrote {out_dir / JUDGEMENTS_NAME} and {path}")


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
    app.command("judge")(judge_cmd)
    app.command("judge-agreement")(agreement_cmd)

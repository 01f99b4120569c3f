"""`verify`: every results.json recomputed from its predictions with the current code and data;
fails naming each differing value (the trust chain a submission pull request goes through)."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.release import RELEASES_DIR
from leaderboard.board.release_check import is_release_target, verify_releases
from leaderboard.board.relevance_labelled import (
    is_relevance_agreement_target,
    verify_relevance_agreements,
)
from leaderboard.board.strict_audits import AUDIT_DIR, is_audit_target, verify_audits
from leaderboard.cli.arguments import DATA_DIR_HELP, submission_folders
from leaderboard.core.errors import DataError
from leaderboard.core.parallel import pmap, shared
from leaderboard.data.manifest import data_root, lang_dir
from leaderboard.judge.agreement import AGREEMENT_DIR
from leaderboard.judge.agreement_check import is_agreement_target, verify_agreements
from leaderboard.judge.faithfulness_check import (
    check_faithfulness,
    is_faithfulness_agreement_target,
    verify_faithfulness_agreements,
)
from leaderboard.judge.faithfulness_figures import AGREEMENT_DIR as FAITH_AGREEMENT_DIR
from leaderboard.judge.relevance_check import check_relevance
from leaderboard.judge.relevance_figures import AGREEMENT_DIR as RELEVANCE_AGREEMENT_DIR
from leaderboard.judge.results_check import verify_judges
from leaderboard.retrieval.results import RESULTS_DIR
from leaderboard.scoring.tokens import load_jieba
from leaderboard.trust.attest import verify_attestations
from leaderboard.trust.retrieval_files import is_retrieval_target, verify_retrieval
from leaderboard.trust.verify import verify


def verify_cmd(
    submissions: list[Path] | None = typer.Argument(
        None,
        help="Submission folders, retrieval files or folders, judges/agreement/<id> and "
        "judges/faithfulness/agreement/<id> and judges/relevance/agreement/<id> folders, "
        "releases/<id> folders, audits/strict (default: every submissions/*/ with a "
        "results.json, retrieval/, judges/agreement/, releases/ and audits/strict/).",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    recompute_retrieval: bool = typer.Option(
        False,
        "--recompute-retrieval",
        help="Slow: also recompute dense and hybrid retrieval rankings by embedding every "
        "passage and question the embedding cache lacks (minutes per split on a CPU). Without "
        "it verify never embeds: those rankings are checked from cached vectors only when the "
        "cache holds all of them, and each file says what was not recomputed.",
    ),
) -> None:
    """Recompute every results.json from its predictions (current code and data), every
    judge_results.json from its judgements, the retrieval results from the data and every
    judges/agreement/*/agreement.json from its judgements and the labels (the statement judge's
    judges/faithfulness/agreement/*/agreement.json likewise, and each run folder's
    faithfulness.jsonl checked line by line against its answers; the relevance judge's
    judges/relevance/agreement/*/agreement.json, relevance_results.json and relevance.jsonl
    the same way), the strict audits
    audits/strict/after*.json from the committed answers and the hand labels; exit 1 naming each
    value that differs, a scoring-version mismatch, a fingerprint or prompt hash that does not
    match the instances, a labels file that changed; and every release's scores re-derived
    from the results.json files it names."""

    root = data_root(data_dir)
    failed = 0
    named = list(submissions or [])
    faith_agreements = [p for p in named if is_faithfulness_agreement_target(p)]
    named = [p for p in named if p not in faith_agreements]
    relevance_agreements = [p for p in named if is_relevance_agreement_target(p)]
    named = [p for p in named if p not in relevance_agreements]
    agreements = [p for p in named if is_agreement_target(p)]
    releases = [p for p in named if p not in agreements and is_release_target(p)]
    audits = [p for p in named if p not in agreements + releases and is_audit_target(p)]
    named_rest = [p for p in named if p not in agreements + releases + audits]
    retrieval = [p for p in named_rest if is_retrieval_target(p)]
    if not submissions:
        faith_agreements = [FAITH_AGREEMENT_DIR] if FAITH_AGREEMENT_DIR.is_dir() else []
        relevance_agreements = [RELEVANCE_AGREEMENT_DIR] if RELEVANCE_AGREEMENT_DIR.is_dir() else []
        retrieval = [Path(RESULTS_DIR)] if Path(RESULTS_DIR).is_dir() else []
        agreements = [AGREEMENT_DIR] if AGREEMENT_DIR.is_dir() else []
        releases = [Path(RELEASES_DIR)] if Path(RELEASES_DIR).is_dir() else []
        audits = [AUDIT_DIR] if is_audit_target(AUDIT_DIR) else []
    folders = [p for p in named_rest if not is_retrieval_target(p)]
    folders = submission_folders(folders, instructions=True) if folders or not submissions else []
    if (folders or audits) and not _has_data(root):
        raise DataError(
            f"{root}: no RGB data file here, so no instance can be rebuilt; run "
            "`rgb-leaderboard data fetch` (or `data fetch --from DIR`), or pass --data-dir"
        )
    if recompute_retrieval and retrieval:
        typer.echo(
            "note: --recompute-retrieval embeds every passage and question the embedding cache "
            "lacks (minutes per split on a CPU)",
            err=True,
        )
    # the whole-board checks as (function, arguments), printed after the run folders as before
    checks = [
        (verify_audits, (audits, root)),  # the longest: first in the queue, printed last
        (verify_judges, (folders, root)),
        (verify_attestations, (folders,)),
        (verify_retrieval, (retrieval, root, recompute_retrieval)),
        (verify_agreements, (agreements,)),
        (verify_faithfulness_agreements, (faith_agreements,)),
        (verify_relevance_agreements, (relevance_agreements,)),
        (verify_releases, (releases,)),
    ]
    if folders or audits:
        load_jieba()  # once before forking, not once per worker
    tasks: list[int | Path] = [*range(len(checks)), *folders]
    outcomes = pmap(_verify_task, tasks, {"root": root, "checks": checks})
    done = dict(zip(tasks, outcomes, strict=True))
    for key in [*folders, 1, 2, 3, 4, 5, 6, 7, 0]:  # run folders, then the checks as before
        lines, n = done[key]
        for line in lines:
            typer.echo(line)
        failed += n
    if failed:
        typer.secho(f"{failed} file(s) failed verification", fg=typer.colors.RED, err=True)
        raise typer.Exit(1)


def _verify_task(task: int | Path) -> tuple[list[str], int]:
    """The report lines and failures of one independent piece of `verify`: a whole-board check
    (its index in the shared `checks`) or one run folder. `verify` spreads them over processes
    (core.parallel); their lines are printed in the order of the serial command."""
    if isinstance(task, int):
        fn, args = shared()["checks"][task]  # type: ignore[index]
        lines, n = fn(*args)
        return list(lines), n
    return _verify_folder(task)


def _verify_folder(folder: Path) -> tuple[list[str], int]:
    """One run folder's report lines and failures: results.json recomputed from its predictions,
    then the judges' files checked against the answers it rebuilt."""
    report = verify(folder, shared()["root"])  # type: ignore[arg-type]
    lines = [report.render(), *(f"  note: {note}" for note in report.recomputed.notes)]
    failed = int(not report.ok)
    rc = report.recomputed
    for judged in (
        check_faithfulness(folder, rc.answers, rc.old.provenance.fingerprint),
        check_relevance(folder, rc.answers, rc.old.provenance.fingerprint),
    ):
        if judged is not None:
            lines.append(judged.render())
            failed += not judged.ok
    return lines, failed


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `verify`."""
    app.command("verify")(verify_cmd)


def _has_data(root: Path) -> bool:
    """Whether any RGB data file was fetched under `root` (the manifests are committed)."""
    return any(
        p.name != "MANIFEST.json"
        for lang in ("zh", "en")
        for p in lang_dir(root, lang).rglob("*.json")
    )

"""From a submission's predictions to judge items, and from verdicts to Rej*, ED* and agreement.

Rej* is the share of judged rejection answers the judge calls "not addressed", ED* the share of
judged counterfactual answers it says identified the factual error; both over the parsed verdicts
(unparsable ones are counted apart, never guessed), with a 95% Wilson interval. Agreement is
Cohen's kappa of the judge's decisions against the strict and rgb scorers on the same answers.
judge_results.json keeps one summary per judge id and is rewritten atomically.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from leaderboard.core.checkout import now_iso
from leaderboard.core.errors import ResultsError
from leaderboard.core.files import atomic_write_text
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import (
    JudgementRecord,
    JudgeRate,
    JudgeResults,
    JudgeSummary,
    JudgeTask,
    KappaEntry,
)
from leaderboard.core.safe_io import read_text
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.submission import SUBMISSION_FILE, load_submission
from leaderboard.core.types import LANGS, Lang, Mode
from leaderboard.data.splits import load_split
from leaderboard.judge.kappa import KAPPA_SEED, agreement, rate_with_ci
from leaderboard.judge.run import JudgeItem, JudgementStore
from leaderboard.protocol.judge import (
    JUDGE_TASKS,
    PARSER_VERSION,
    TASK_ABILITY,
    decision,
    parse_verdict,
    template_sha256,
)
from leaderboard.run.store import RunStore
from leaderboard.scoring.score import detects_error, is_rejection

JUDGE_RESULTS_NAME = "judge_results.json"
METRIC: dict[JudgeTask, str] = {"rejection": "rej_star", "error_detection": "ed_star"}


_File = TypeVar("_File", bound=BaseModel)


def scorer_decision(task: JudgeTask, text: str, lang: Lang, mode: Mode) -> bool:
    """What a scoring mode decides for the judged question (rejected / error detected)."""
    return (
        is_rejection(text, lang, mode) if task == "rejection" else detects_error(text, lang, mode)
    )


def _prediction_fingerprint(store: RunStore, records: Sequence[PredictionRecord]) -> str:
    """The fingerprint of the run results.json describes, else the only one on disk."""
    if store.results_path.is_file():
        return store.read_results().provenance.fingerprint
    found = sorted({r.fingerprint for r in records})
    if len(found) != 1:
        raise ResultsError(
            f"{store.folder}: predictions of {len(found)} run fingerprints and no "
            f"{store.results_path.name} to say which is current; run `rgb-leaderboard run` on "
            "the submission first"
        )
    return found[0]


def submission_items(
    folder: Path, data_root: Path, limit: int | None = None
) -> tuple[list[JudgeItem], str]:
    """Judge items of a submission folder (the current run's rejection and counterfactual
    predictions, questions from the verified data), first `limit` ids per language and task."""
    folder = Path(folder)
    store = RunStore(folder)
    records = store.read().records
    if not records:
        raise ResultsError(f"{folder}: no predictions to judge (predictions.jsonl[.gz])")
    fp = _prediction_fingerprint(store, records)
    variant = "refine"
    if (folder / SUBMISSION_FILE).is_file():
        variant = load_submission(folder).run.variant
    items: list[JudgeItem] = []
    for task in JUDGE_TASKS:
        ability = TASK_ABILITY[task]
        for lang in LANGS:
            recs = sorted(
                (
                    r
                    for r in records
                    if r.fingerprint == fp and r.lang == lang and r.ability == ability
                ),
                key=lambda r: r.id,
            )[:limit]
            if not recs:
                continue
            _, data = load_split(data_root, lang, ability, variant, allow_partial=True)  # type: ignore[arg-type]
            questions = {r.id: r.query for r in data}
            for r in recs:
                if r.id not in questions:
                    raise ResultsError(f"{folder}: {r.key}: id {r.id} is not in the data file")
                items.append(
                    JudgeItem(r.key, task, lang, r.id, questions[r.id], r.prediction, fp, r.error)
                )
    return items, fp


def judge_rates(
    items: Sequence[JudgeItem], verdicts: dict[tuple[str, str], JudgementRecord]
) -> list[JudgeRate]:
    """Rej* / ED* per language over the parsed verdicts, with the Wilson interval."""
    out = []
    for task in JUDGE_TASKS:
        for lang in LANGS:
            group = [it for it in items if it.task == task and it.lang == lang]
            if not group:
                continue
            judged = [verdicts[it.ident] for it in group if it.ident in verdicts]
            decided = [r.decision for r in judged if r.decision is not None]
            value, ci = rate_with_ci(decided)
            ref = [bool(r.reference_decision) for r in judged if r.verdict is not None]
            out.append(
                JudgeRate(
                    lang=lang,
                    task=task,
                    metric=METRIC[task],  # type: ignore[arg-type]
                    value=value,
                    ci=ci,
                    n=len(decided),
                    n_unparsable=sum(r.verdict == "unparsable" for r in judged),
                    n_unjudged=sum(
                        it.ident not in verdicts and it.prediction_error is None for it in group
                    ),
                    n_prediction_errors=sum(it.prediction_error is not None for it in group),
                    n_predictions=len(group),
                    reference_rule_value=sum(ref) / len(ref) if ref else None,
                    complete=len(decided) == len(group),
                )
            )
    return out


def kappa_entries(
    pairs: Sequence[tuple[JudgeItem, bool, bool]],
    against: str,
    resamples: int,
    rater: str = "judge",
    seed: int = KAPPA_SEED,
) -> list[KappaEntry]:
    """Kappa per language and task of (item, rater's decision, other rater's decision) triples."""
    out = []
    for task in JUDGE_TASKS:
        for lang in LANGS:
            sel = [(j, o) for it, j, o in pairs if it.task == task and it.lang == lang]
            if not sel:
                continue
            a = agreement(
                [j for j, _ in sel],
                [o for _, o in sel],
                resamples=resamples,
                seed=seed,
                label=f"{rater}:{against}:{task}:{lang}",
            )
            out.append(
                KappaEntry(
                    lang=lang,
                    task=task,
                    rater=rater,
                    against=against,
                    n=a.n,
                    observed=a.observed,
                    kappa=a.kappa,
                    kappa_ci=a.kappa_ci,
                    table={
                        "both_yes": a.both_yes,
                        "rater_only": a.a_only,
                        "other_only": a.b_only,
                        "both_no": a.both_no,
                    },
                )
            )
    return out


def verdicts_for(
    items: Sequence[JudgeItem], store: JudgementStore, judge_fp: str
) -> dict[tuple[str, str], JudgementRecord]:
    """(instance key, task) -> this judge's stored verdict, parsed again from the raw reply with the
    current parser (items without a verdict are left out)."""
    out = {}
    for it in items:
        rec = store.get(judge_fp, it.prompt_sha256)
        if rec is not None and rec.error is None:
            parsed = parse_verdict(it.task, rec.output)
            out[it.ident] = rec.model_copy(
                update={
                    "verdict": parsed.verdict,
                    "decision": decision(it.task, parsed.verdict),
                    "parser_version": PARSER_VERSION,
                }
            )
    return out


def judge_against_scorers(
    items: Sequence[JudgeItem],
    verdicts: Mapping[tuple[str, str], JudgementRecord],
    resamples: int,
    modes: Sequence[Mode] = ("strict", "rgb"),
    seed: int = KAPPA_SEED,
) -> list[KappaEntry]:
    """Cohen's kappa of the judge's decisions against the scorers of `modes` on the answers it
    decided: what judge_results.json records and `verify` recomputes (both modes), and the
    judge-against-strict row of an agreement file."""
    agree: list[KappaEntry] = []
    for mode in modes:
        pairs = [
            (
                it,
                bool(verdicts[it.ident].decision),
                scorer_decision(it.task, it.prediction, it.lang, mode),
            )
            for it in items
            if it.ident in verdicts and verdicts[it.ident].decision is not None
        ]
        agree += kappa_entries(pairs, mode, resamples, seed=seed)
    return agree


def summarize(
    judge: JudgeConfig,
    judge_fp: str,
    items: Sequence[JudgeItem],
    store: JudgementStore,
    provenance: dict[str, object],
    resamples: int = 2000,
) -> JudgeSummary:
    verdicts = verdicts_for(items, store, judge_fp)
    agree = judge_against_scorers(items, verdicts, resamples)
    return JudgeSummary(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=judge_fp,
        model=judge.model,
        backend=judge.backend,
        template_sha256={t: template_sha256(t) for t in JUDGE_TASKS},
        parser_version=PARSER_VERSION,
        rates=judge_rates(items, verdicts),
        agreement=agree,
        provenance=provenance,
        created=now_iso(),
    )


def read_judge_file(path: Path, model: type[_File], command: str) -> _File:
    """Load a file the judge commands write (judge_results.json, agreement.json) as `model`; an
    invalid one is an error naming the file, the field and the command that regenerates it from
    the cached verdicts."""
    text = read_text(Path(path), ResultsError)
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise ResultsError(
            f"{path}: field '{field}': {first['msg']}. Regenerate it with `rgb-leaderboard "
            f"{command}` (cached verdicts are reused, so no judge call is repeated)."
        ) from None


def read_judge_results(path: Path) -> JudgeResults:
    """Load judge_results.json; errors name the file and the field."""
    return read_judge_file(path, JudgeResults, "judge")


def replace_judge_summary(
    path: Path,
    submission_id: str,
    prediction_fp: str,
    summary: Any,
    model: type[_File],
    command: str,
) -> _File:
    """Replace this judge's summary (same judge id) in a per-run results file of `model`
    (judge_results.json, faithfulness_results.json), keeping the other judges' summaries of the
    same answers (another prediction fingerprint: they are dropped); atomic rewrite."""
    path = Path(path)
    judges: list[Any] = []
    if path.is_file():
        old: Any = read_judge_file(path, model, command)
        if old.prediction_fingerprint == prediction_fp:
            judges = [j for j in old.judges if j.judge_id != summary.judge_id]
    results = model.model_validate(
        {
            "submission_id": submission_id,
            "prediction_fingerprint": prediction_fp,
            "judges": sorted([*judges, summary], key=lambda j: j.judge_id),
        }
    )
    text = json.dumps(results.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(path, text)
    return results


def write_judge_results(
    path: Path, submission_id: str, prediction_fp: str, summary: JudgeSummary
) -> JudgeResults:
    """Replace this judge's summary (same judge id) and keep the others; atomic rewrite."""
    return replace_judge_summary(path, submission_id, prediction_fp, summary, JudgeResults, "judge")

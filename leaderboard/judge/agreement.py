"""The judge against the labelled answers (leaderboard/scoring/labels/{zh,en}.jsonl).

The labelled answers of the population each prompt is used on are judged (is the question
addressed: the rejection answers; has the model identified the factual errors: the
counterfactual answers) and the verdicts are compared, per language, with the human labels
`rejected` and `error_detected` (Cohen's kappa, bootstrap CI). For contrast the
strict and rgb scorers are compared with the same labels on the same answers, and the judge with
strict mode. Judging goes through the same cached, resumable loop as a submission.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from leaderboard.core.checkout import now_iso, repo_relative
from leaderboard.core.errors import DataError
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import JudgeRate, KappaEntry, LabelAgreement
from leaderboard.core.safe_io import read_text
from leaderboard.core.types import LANGS, Ability, Lang
from leaderboard.judge.kappa import KAPPA_SEED
from leaderboard.judge.run import JudgeItem, JudgementStore
from leaderboard.judge.summary import (
    judge_against_scorers,
    judge_rates,
    kappa_entries,
    read_judge_file,
    scorer_decision,
    verdicts_for,
)
from leaderboard.protocol.judge import JUDGE_TASKS, TASK_ABILITY
from leaderboard.scoring.labelled import Labels

LABELS_DIR = Path(__file__).resolve().parents[1] / "scoring" / "labels"
LABELS_FINGERPRINT = "labelled-set"
# The committed home of a judge's agreement (`judge-agreement --out judges/agreement/<judge id>`):
# agreement.json beside the judgements.jsonl it is computed from, so `verify` can recompute it and
# the methodology page can show it.
AGREEMENT_DIR = Path("judges") / "agreement"
AGREEMENT_NAME = "agreement.json"


class LabelledAnswer(BaseModel):
    """One line of a labels file (the format of the labelled set for the scorers)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int | str
    lang: Lang
    ability: Ability
    question: str
    answer: object
    fakeanswer: object = None
    docs: list[str] | None = None
    prediction: str
    labels: Labels
    split: Literal["dev", "test"]
    source: str
    note: str | None = None


def read_labelled(path: Path) -> list[LabelledAnswer]:
    """A labels file; a bad line is an error naming file, line and field."""
    out = []
    for lineno, raw in enumerate(read_text(Path(path), DataError).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            out.append(LabelledAnswer.model_validate_json(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(line)"
            raise DataError(f"{path}:{lineno}: field '{field}': {first['msg']}") from None
    return out


def labels_files(folder: Path, langs: Sequence[Lang] = LANGS) -> list[Path]:
    files = [Path(folder) / f"{lang}.jsonl" for lang in langs]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise DataError(
            f"labelled set not found: {', '.join(missing)}; pass --labels DIR holding "
            "zh.jsonl and en.jsonl"
        )
    return files


def labelled_items(
    answers: Sequence[LabelledAnswer], splits: Sequence[str], limit: int | None
) -> list[JudgeItem]:
    """The answers a judge is used on: the rejection prompt on the labelled rejection answers, the
    error-detection prompt on the labelled counterfactual answers. With `limit`, N per language and
    task: a fixed pseudo-random sample (ordered by the hash of the id), because the files are
    grouped by source and their first lines are not representative."""
    items = []
    for lang in LANGS:
        for task in JUDGE_TASKS:
            chosen = [
                a
                for a in answers
                if a.lang == lang and a.split in splits and a.ability == TASK_ABILITY[task]
            ]
            if limit is not None:
                chosen = sorted(chosen, key=lambda a: hashlib.sha256(str(a.id).encode()).digest())
                chosen = chosen[:limit]
            items += [
                JudgeItem(
                    f"labels/{a.lang}/{a.id}",
                    task,
                    a.lang,
                    a.id,
                    a.question,
                    a.prediction,
                    LABELS_FINGERPRINT,
                )
                for a in chosen
            ]
    return items


def label_figures(
    answers: Sequence[LabelledAnswer],
    items: Sequence[JudgeItem],
    store: JudgementStore,
    judge_fp: str,
    resamples: int,
    seed: int = KAPPA_SEED,
) -> tuple[list[JudgeRate], list[KappaEntry]]:
    """The judge's rates and every kappa of an agreement file, from the stored replies parsed again
    with the current parser: one function for `judge-agreement` and `verify`, so the check
    recomputes exactly what the command wrote."""
    by_key = {f"labels/{a.lang}/{a.id}": a for a in answers}

    def label(it: JudgeItem) -> bool:
        lab = by_key[it.key].labels
        return lab.rejected if it.task == "rejection" else lab.error_detected

    verdicts = verdicts_for(items, store, judge_fp)
    decided = [
        it for it in items if it.ident in verdicts and verdicts[it.ident].decision is not None
    ]
    pairs = [(it, bool(verdicts[it.ident].decision), label(it)) for it in decided]
    entries = kappa_entries(pairs, "labels", resamples, seed=seed)
    entries += judge_against_scorers(items, verdicts, resamples, modes=("strict",), seed=seed)
    for mode in ("strict", "rgb"):  # the scorers on every item, for contrast
        pairs = [
            (it, scorer_decision(it.task, it.prediction, it.lang, mode), label(it)) for it in items
        ]
        entries += kappa_entries(pairs, "labels", resamples, rater=mode, seed=seed)
    return judge_rates(items, verdicts), entries


def label_agreement(
    judge: JudgeConfig,
    judge_fp: str,
    answers: Sequence[LabelledAnswer],
    items: Sequence[JudgeItem],
    store: JudgementStore,
    files: Sequence[Path],
    splits: Sequence[str],
    limit: int | None,
    provenance: dict[str, object],
    resamples: int = 2000,
) -> LabelAgreement:
    """The agreement file's record (labels recorded repository-relative with their sha256, so a
    committed file names the same labels on every checkout)."""
    rates, entries = label_figures(answers, items, store, judge_fp, resamples)
    return LabelAgreement(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=judge_fp,
        labels={repo_relative(str(f)): file_sha256(f) for f in files},
        splits=list(splits),  # type: ignore[arg-type]
        n_items=n_items(items),
        limit=limit,
        resamples=resamples,
        seed=KAPPA_SEED,
        rates=rates,
        agreement=entries,
        provenance=provenance,
        created=now_iso(),
    )


def n_items(items: Sequence[JudgeItem]) -> dict[str, int]:
    """Labelled answers judged per language (an answer judged by both prompts counts once)."""
    return {lang: len({it.key for it in items if it.lang == lang}) for lang in LANGS}


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_agreement(path: Path) -> LabelAgreement:
    """Load an agreement.json; an invalid one is an error naming the file and the field."""
    return read_judge_file(path, LabelAgreement, "judge-agreement")


def agreement_paths(repo_root: Path) -> list[Path]:
    """The committed agreement files of a repository: judges/agreement/<judge id>/agreement.json."""
    return sorted((Path(repo_root) / AGREEMENT_DIR).glob(f"*/{AGREEMENT_NAME}"))

"""The relevance judge's figures as files the site reads and `verify` recomputes.

relevance_results.json (beside a run folder's relevance.jsonl): per judge, language and ability
(and `all`), how many answers the judge could read (eligible: untyped question, not refused, no
error claimed, generated) and read (judged: a parsed verdict), the share relevant by the judge
over the judged ones, the share relevant by code over the typed answers (as results.json's
grounding figure `relevant` counts them), and both pooled (`combined`: every answer with a
relevance, code's or the judge's); Wilson intervals, n always recorded. A judge run over a prefix
or a sample of the answers gives figures over those, and the row says how much it covers.

judges/relevance/agreement/<judge id>/agreement.json (beside the relevance.jsonl of the labelled
answers): per split (the held-out test part first, then dev and all) and language, the judge
against the grounding labels' `relevant` on the untyped questions: observed agreement, Cohen's
kappa of relevant against not with its bootstrap interval, n, and the confusion counts.

Both are computed from the stored replies parsed again with the current parser, by one function
each for the command and for `verify`, so the check recomputes exactly what the command wrote.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from leaderboard.core.checkout import now_iso, repo_relative
from leaderboard.core.files import atomic_write_text
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import (
    FaithfulnessSample,
    RelevanceAgreement,
    RelevanceKappa,
    RelevanceResults,
    RelevanceRow,
    RelevanceShare,
    RelevanceSummary,
)
from leaderboard.core.types import LANGS
from leaderboard.judge.faithfulness import sample_answers
from leaderboard.judge.faithfulness_figures import file_sha256
from leaderboard.judge.kappa import KAPPA_SEED, agreement, rate_with_ci
from leaderboard.judge.relevance import (
    PARSER_VERSION,
    VERDICTS,
    LabelledRelevance,
    RelevanceItem,
    RelevanceStore,
    code_relevant,
    relevance_fingerprint,
    reparsed,
    template_sha256,
)
from leaderboard.judge.run import judge_provenance
from leaderboard.judge.summary import read_judge_file, replace_judge_summary
from leaderboard.scoring.outcome import ScoredItem

RESULTS_NAME = "relevance_results.json"
# the committed home of the relevance judge's agreement with the grounding labels
AGREEMENT_DIR = Path("judges") / "relevance" / "agreement"
AGREEMENT_NAME = "agreement.json"
LABELS_DIR = Path("leaderboard") / "scoring" / "labels"
SPLITS = ("test", "dev", "all")  # the held-out part first: the figure to trust
ALL = "all"  # the row over every ability of a language
RESULTS_COMMAND = "relevance RUN_FOLDER --judge FILE"
AGREEMENT_COMMAND = "relevance --labels leaderboard/scoring/labels --judge FILE"


def _share(figure: str, flags: Sequence[bool]) -> RelevanceShare:
    value, ci = rate_with_ci(flags)
    return RelevanceShare(
        figure=figure,  # type: ignore[arg-type]
        count=int(sum(flags)),
        n=len(flags),
        value=value,
        ci=ci,
    )


def _row(
    lang: str,
    ability: str,
    every: Sequence[RelevanceItem],
    verdicts: Sequence[str | None],
    coded: Sequence[bool],
) -> RelevanceRow:
    """One row: `every` the eligible items, `verdicts` those of the items read (all, or the
    sample's), `coded` the code's relevance of the typed answers."""
    parsed = [v == "relevant" for v in verdicts if v in VERDICTS]
    unparsable = sum(v == "unparsable" for v in verdicts)
    unjudged = sum(v is None for v in verdicts)
    return RelevanceRow(
        lang=lang,  # type: ignore[arg-type]
        ability=ability,
        eligible=len(every),
        judged=len(parsed),
        n_unparsable=unparsable,
        n_unjudged=unjudged,
        typed=len(coded),
        shares=[
            _share("judge", parsed),
            _share("code", coded),
            _share("combined", [*coded, *parsed]),
        ],
        complete=unparsable == 0 and unjudged == 0 and len(verdicts) == len(every),
    )


def relevance_rows(
    answers: Sequence[ScoredItem],
    items: Sequence[RelevanceItem],
    store: RelevanceStore,
    judge_fp: str,
    sample: FaithfulnessSample | None = None,
) -> list[RelevanceRow]:
    """Per language, a row over every ability (`all`) then one per ability in the answers'
    order. `answers`: every answer of the run (the code's part); `items`: every eligible one.
    With a sample, the judged counts and the judge's figures are over the sampled answers only
    (a full run under way beside it must not leak its prefix into the sample's figures); the
    eligible counts stay the whole run's."""
    drawn = (
        None
        if sample is None
        else {it.key for it in sample_answers(items, sample.answers_per_lang, sample.seed)}
    )
    read = {
        it.key: reparsed(store, judge_fp, it) for it in items if drawn is None or it.key in drawn
    }
    coded: dict[str, bool] = {}
    for a in answers:
        value = code_relevant(a)
        if value is not None:
            coded[a.instance.key] = value
    abilities = {a.instance.key: a.instance.ability for a in answers}
    rows = []
    for lang in LANGS:
        every = [it for it in items if it.lang == lang]
        typed = [k for k in coded if k.split("/", 1)[0] == lang]
        if not every and not typed:
            continue
        order = list(dict.fromkeys(a.instance.ability for a in answers if a.instance.lang == lang))
        for ability in (ALL, *order):
            mine = [it for it in every if ability in (ALL, it.ability)]
            flags = [coded[k] for k in typed if ability in (ALL, abilities[k])]
            if not mine and not flags:
                continue
            verdicts = [read[it.key] for it in mine if it.key in read]
            rows.append(_row(lang, ability, mine, verdicts, flags))
    return rows


def relevance_provenance(judge: JudgeConfig, command: str) -> dict[str, object]:
    """judge_provenance with the relevance templates and parser in place of the reference
    judge's."""
    out = judge_provenance(judge, None, command)
    out["templates"] = {lang: template_sha256(lang) for lang in LANGS}
    out["parser_version"] = PARSER_VERSION
    return out


def relevance_summary(
    judge: JudgeConfig,
    answers: Sequence[ScoredItem],
    items: Sequence[RelevanceItem],
    store: RelevanceStore,
    provenance: dict[str, object],
    sample: FaithfulnessSample | None = None,
) -> RelevanceSummary:
    fp = relevance_fingerprint(judge)
    return RelevanceSummary(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=fp,
        model=judge.model,
        backend=judge.backend,
        template_sha256={lang: template_sha256(lang) for lang in LANGS},
        parser_version=PARSER_VERSION,
        rows=relevance_rows(answers, items, store, fp, sample),
        provenance=provenance,
        created=now_iso(),
        sample=sample,
    )


def read_relevance_results(path: Path) -> RelevanceResults:
    """Load relevance_results.json; errors name the file and the field."""
    return read_judge_file(path, RelevanceResults, RESULTS_COMMAND)


def write_relevance_results(
    path: Path, submission_id: str, prediction_fp: str, summary: RelevanceSummary
) -> RelevanceResults:
    """Replace this judge's summary (same judge id), keep the others of the same answers; atomic
    rewrite."""
    return replace_judge_summary(
        path, submission_id, prediction_fp, summary, RelevanceResults, RESULTS_COMMAND
    )


def _label(value: bool) -> str:
    return "relevant" if value else "not_relevant"


def agreement_rows(
    labels: Sequence[LabelledRelevance],
    store: RelevanceStore,
    judge_fp: str,
    resamples: int = 2000,
    seed: int = KAPPA_SEED,
) -> list[RelevanceKappa]:
    """Per split (test, dev, all) and language with labelled answers: the judge's verdict on
    each labelled answer (looked up by its prompt, so a verdict stored for the same question and
    answer elsewhere is the same verdict) against the label; kappa of relevant against not over
    the parsed verdicts, the confusion counts ("judge/label"; the judge's side also
    "unparsable" and "unjudged")."""
    rows = []
    for split in SPLITS:
        for lang in LANGS:
            mine = [lab for lab in labels if lab.item.lang == lang and split in (ALL, lab.split)]
            if not mine:
                continue
            got = [(lab, reparsed(store, judge_fp, lab.item)) for lab in mine]
            pairs = [(v == "relevant", lab.relevant) for lab, v in got if v in VERDICTS]
            a = agreement(
                [p[0] for p in pairs],
                [p[1] for p in pairs],
                resamples=resamples,
                seed=seed,
                label=f"relevance:{split}:{lang}",
            )
            confusion: dict[str, int] = {}
            for lab, v in got:
                cell = f"{v or 'unjudged'}/{_label(lab.relevant)}"
                confusion[cell] = confusion.get(cell, 0) + 1
            rows.append(
                RelevanceKappa(
                    split=split,  # type: ignore[arg-type]
                    lang=lang,
                    n_labelled=len(mine),
                    n=a.n,
                    n_unparsable=sum(v == "unparsable" for _, v in got),
                    n_unjudged=sum(v is None for _, v in got),
                    observed=a.observed,
                    kappa=a.kappa,
                    kappa_ci=a.kappa_ci,
                    confusion=dict(sorted(confusion.items())),
                )
            )
    return rows


def agreement_record(
    judge: JudgeConfig,
    files: Sequence[Path],
    labels: Sequence[LabelledRelevance],
    judged_split: str,
    store: RelevanceStore,
    provenance: dict[str, object],
    resamples: int = 2000,
) -> RelevanceAgreement:
    """The agreement file's record (labels files repository-relative with their sha256)."""
    fp = relevance_fingerprint(judge)
    return RelevanceAgreement(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=fp,
        labels={repo_relative(str(f)): file_sha256(f) for f in files},
        judged_split=judged_split,  # type: ignore[arg-type]
        resamples=resamples,
        seed=KAPPA_SEED,
        agreement=agreement_rows(labels, store, fp, resamples),
        provenance=provenance,
        created=now_iso(),
    )


def write_agreement(path: Path, record: RelevanceAgreement) -> None:
    text = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(Path(path), text)


def read_relevance_agreement(path: Path) -> RelevanceAgreement:
    """Load an agreement.json of the relevance judge; errors name the file and the field."""
    return read_judge_file(path, RelevanceAgreement, AGREEMENT_COMMAND)


def relevance_agreement_paths(repo_root: Path) -> list[Path]:
    """The committed agreement files: judges/relevance/agreement/<judge id>/agreement.json."""
    return sorted((Path(repo_root) / AGREEMENT_DIR).glob(f"*/{AGREEMENT_NAME}"))

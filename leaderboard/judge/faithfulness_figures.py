"""The statement judge's figures as files the site reads and `verify` recomputes.

faithfulness_results.json (beside a run folder's faithfulness.jsonl): per judge and language, how
many of the eligible statements (those of the answers with at least two) and answers were judged,
each verdict's share of the judged statements, and the shares of the judged answers (every
statement with a parsed verdict) with an unsupported statement (hallucination) or a contradicted
one (misrepresentation); Wilson intervals, n always recorded. A judge run over a prefix of the
statements gives figures over that prefix, and the row says how much it covers.

judges/faithfulness/agreement/<judge id>/agreement.json (beside the faithfulness.jsonl of the
labelled statements): per language, Cohen's kappa of "supported" against not, the observed
agreement and the confusion counts over the three labels.

Both are computed from the stored replies parsed again with the current parser, by one function
each for the command and for `verify`, so the check recomputes exactly what the command wrote.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from pathlib import Path

from leaderboard.core.checkout import now_iso, repo_relative
from leaderboard.core.files import atomic_write_text
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import (
    FaithfulnessAgreement,
    FaithfulnessKappa,
    FaithfulnessResults,
    FaithfulnessRow,
    FaithfulnessSample,
    FaithfulnessShare,
    FaithfulnessSummary,
)
from leaderboard.core.types import LANGS
from leaderboard.judge.faithfulness import (
    LabelledStatement,
    StatementItem,
    StatementStore,
    faithfulness_fingerprint,
    sample_answers,
)
from leaderboard.judge.kappa import KAPPA_SEED, agreement, rate_with_ci
from leaderboard.judge.run import judge_provenance
from leaderboard.judge.statements import (
    PARSER_VERSION,
    VERDICTS,
    parse_statement_verdict,
    template_sha256,
)
from leaderboard.judge.summary import read_judge_file, replace_judge_summary

RESULTS_NAME = "faithfulness_results.json"
# the committed home of the statement judge's agreement with the labels
AGREEMENT_DIR = Path("judges") / "faithfulness" / "agreement"
AGREEMENT_NAME = "agreement.json"
# the answer-level figures: the verdict one statement must have for the answer to count
ANSWER_FIGURES = (("hallucination", "unsupported"), ("misrepresentation", "contradicted"))


def reparsed(store: StatementStore, judge_fp: str, item: StatementItem) -> str | None:
    """An item's verdict from its stored reply, parsed with the current parser (None: no reply
    of this judge)."""
    rec = store.get(judge_fp, item.prompt_sha256)
    if rec is None or rec.error is not None:
        return None
    return parse_statement_verdict(rec.output)


def _share(figure: str, flags: Sequence[bool]) -> FaithfulnessShare:
    value, ci = rate_with_ci(flags)
    return FaithfulnessShare(
        figure=figure,  # type: ignore[arg-type]
        count=int(sum(flags)),
        n=len(flags),
        value=value,
        ci=ci,
    )


def faithfulness_rows(
    items: Sequence[StatementItem],
    store: StatementStore,
    judge_fp: str,
    sample: FaithfulnessSample | None = None,
) -> list[FaithfulnessRow]:
    """One row per language with eligible statements (`items`: every statement of every
    eligible answer of the run). With a sample, the judged counts and the figures are over the
    sampled answers only, whatever else the cache holds (a full run under way beside it judges
    the answers in order, and that prefix must not leak into a random sample's figures); the
    eligible counts stay the whole run's."""
    drawn = (
        None
        if sample is None
        else {it.key for it in sample_answers(items, sample.answers_per_lang, sample.seed)}
    )
    rows = []
    for lang in LANGS:
        every = [it for it in items if it.lang == lang]
        if not every:
            continue
        mine = [
            (it, reparsed(store, judge_fp, it)) for it in every if drawn is None or it.key in drawn
        ]
        parsed = [v for _, v in mine if v is not None and v != "unparsable"]
        answers: dict[str, list[str | None]] = {}
        for it, v in mine:
            answers.setdefault(it.key, []).append(v)
        whole = [vs for vs in answers.values() if all(v in VERDICTS for v in vs)]
        shares = [_share(v, [p == v for p in parsed]) for v in VERDICTS]
        shares += [_share(name, [v in vs for vs in whole]) for name, v in ANSWER_FIGURES]
        unparsable = sum(v == "unparsable" for _, v in mine)
        unjudged = sum(v is None for _, v in mine)
        rows.append(
            FaithfulnessRow(
                lang=lang,
                eligible_answers=len({it.key for it in every}),
                eligible_statements=len(every),
                judged_answers=len(whole),
                judged_statements=len(parsed),
                n_unparsable=unparsable,
                n_unjudged=unjudged,
                shares=shares,
                complete=unparsable == 0 and unjudged == 0 and len(mine) == len(every),
            )
        )
    return rows


def statement_provenance(judge: JudgeConfig, command: str) -> dict[str, object]:
    """judge_provenance with the statement templates and parser in place of the reference
    judge's."""
    out = judge_provenance(judge, None, command)
    out["templates"] = {lang: template_sha256(lang) for lang in LANGS}
    out["parser_version"] = PARSER_VERSION
    return out


def faithfulness_summary(
    judge: JudgeConfig,
    items: Sequence[StatementItem],
    store: StatementStore,
    provenance: dict[str, object],
    sample: FaithfulnessSample | None = None,
) -> FaithfulnessSummary:
    fp = faithfulness_fingerprint(judge)
    return FaithfulnessSummary(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=fp,
        model=judge.model,
        backend=judge.backend,
        template_sha256={lang: template_sha256(lang) for lang in LANGS},
        parser_version=PARSER_VERSION,
        rows=faithfulness_rows(items, store, fp, sample),
        provenance=provenance,
        created=now_iso(),
        sample=sample,
    )


def read_faithfulness_results(path: Path) -> FaithfulnessResults:
    """Load faithfulness_results.json; errors name the file and the field."""
    return read_judge_file(path, FaithfulnessResults, "faithfulness RUN_FOLDER --judge FILE")


def write_faithfulness_results(
    path: Path, submission_id: str, prediction_fp: str, summary: FaithfulnessSummary
) -> FaithfulnessResults:
    """Replace this judge's summary (same judge id), keep the others of the same answers; atomic
    rewrite."""
    return replace_judge_summary(
        path,
        submission_id,
        prediction_fp,
        summary,
        FaithfulnessResults,
        "faithfulness RUN_FOLDER --judge FILE",
    )


def labelled_verdicts(store: StatementStore, judge_fp: str) -> dict[tuple[str, str], str]:
    """The stored replies of one judge by (instance key, statement text), parsed again: the
    prompt is fixed by the instance (question, passages) and the statement, so a labelled
    statement is found without rebuilding its answer (first reply wins)."""
    out: dict[tuple[str, str], str] = {}
    for (fp, _), rec in store.by_key.items():
        if fp == judge_fp and rec.error is None:
            out.setdefault((rec.key, rec.statement_text), parse_statement_verdict(rec.output))
    return out


def _same_question(key: str, other: str) -> bool:
    """Two instance keys (<lang>/<ability>/<noise rate>/<id>) of one question of one split."""
    a, b = key.split("/"), other.split("/")
    return (a[0], a[1], a[-1]) == (b[0], b[1], b[-1])


def labelled_verdict(judged: dict[tuple[str, str], str], label: LabelledStatement) -> str | None:
    """The verdict on a labelled statement: the one stored under its own instance key, else the
    one its prompt was stored under first. The store holds one verdict per prompt, and two noise
    rates of one question can show the very same passages (a question with few noise passages),
    so the same statement there is one prompt, judged once, stored under the first key. Taken
    only when every stored verdict on that statement of that question agrees; else unjudged."""
    own = judged.get((label.key, label.statement_text))
    if own is not None:
        return own
    found = {
        v
        for (key, text), v in judged.items()
        if text == label.statement_text and _same_question(key, label.key)
    }
    return found.pop() if len(found) == 1 else None


def in_split(label: LabelledStatement, split: str) -> bool:
    return split == "all" or label.split == split


def label_id(label: LabelledStatement) -> str:
    """How agreement.json names a labelled statement (its `stale` list)."""
    return f"{label.folder} {label.key} {label.statement}"


def agreement_rows(
    labels: Sequence[LabelledStatement],
    split: str,
    judged: dict[tuple[str, str], str],
    resamples: int = 2000,
    seed: int = KAPPA_SEED,
    stale: Collection[str] = (),
) -> list[FaithfulnessKappa]:
    """Per language, the judge against the labels of the split: kappa of supported against not
    over the statements with a parsed verdict, and the confusion counts ("judge/label"; the
    judge's side also "unparsable" and "unjudged"); the `stale` labels (label_id) left out and
    counted."""
    rows = []
    left_out = set(stale)
    for lang in LANGS:
        split_labels = [lab for lab in labels if lab.lang == lang and in_split(lab, split)]
        if not split_labels:
            continue
        mine = [lab for lab in split_labels if label_id(lab) not in left_out]
        got = [(lab, labelled_verdict(judged, lab)) for lab in mine]
        pairs = [(v == "supported", lab.label == "supported") for lab, v in got if v in VERDICTS]
        a = agreement(
            [p[0] for p in pairs],
            [p[1] for p in pairs],
            resamples=resamples,
            seed=seed,
            label=f"faithfulness:{lang}",
        )
        confusion: dict[str, int] = {}
        for lab, v in got:
            cell = f"{v or 'unjudged'}/{lab.label}"
            confusion[cell] = confusion.get(cell, 0) + 1
        rows.append(
            FaithfulnessKappa(
                lang=lang,
                n_labelled=len(split_labels),
                n=a.n,
                n_stale=len(split_labels) - len(mine),
                n_unparsable=sum(v == "unparsable" for _, v in got),
                n_unjudged=sum(v is None for _, v in got),
                observed=a.observed,
                kappa=a.kappa,
                kappa_ci=a.kappa_ci,
                confusion=dict(sorted(confusion.items())),
            )
        )
    return rows


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def agreement_record(
    judge: JudgeConfig,
    files: Sequence[Path],
    labels: Sequence[LabelledStatement],
    split: str,
    store: StatementStore,
    provenance: dict[str, object],
    resamples: int = 2000,
    stale: Collection[str] = (),
) -> FaithfulnessAgreement:
    """The agreement file's record (labels files repository-relative with their sha256; the
    stale labels left out, listed)."""
    fp = faithfulness_fingerprint(judge)
    return FaithfulnessAgreement(
        judge_id=judge.id,
        display_name=judge.display_name,
        judge_fingerprint=fp,
        labels={repo_relative(str(f)): file_sha256(f) for f in files},
        split=split,  # type: ignore[arg-type]
        resamples=resamples,
        seed=KAPPA_SEED,
        stale=sorted(set(stale)),
        agreement=agreement_rows(
            labels, split, labelled_verdicts(store, fp), resamples, stale=stale
        ),
        provenance=provenance,
        created=now_iso(),
    )


def write_agreement(path: Path, record: FaithfulnessAgreement) -> None:
    text = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(Path(path), text)


def read_faithfulness_agreement(path: Path) -> FaithfulnessAgreement:
    """Load an agreement.json of the statement judge; errors name the file and the field."""
    return read_judge_file(path, FaithfulnessAgreement, "faithfulness --labels ... --judge FILE")


def faithfulness_agreement_paths(repo_root: Path) -> list[Path]:
    """The committed agreement files: judges/faithfulness/agreement/<judge id>/agreement.json."""
    return sorted((Path(repo_root) / AGREEMENT_DIR).glob(f"*/{AGREEMENT_NAME}"))

"""Files the LLM judge writes beside a submission's predictions.

judgements.jsonl: one JudgementRecord per (judge, judged prediction), append-only, the judge's raw
reply kept so verdicts can be parsed again. judge_results.json: one JudgeSummary per judge (Rej*,
ED* with intervals, agreement with the scoring modes) and the judge's provenance, rewritten
atomically. extra="forbid", as for every file the project reads back.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Lang

JUDGE_SCHEMA_VERSION = 1
JudgeTask = Literal["rejection", "error_detection"]
Verdict = Literal["yes", "no", "unparsable"]
CI = tuple[float, float]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class JudgementRecord(_Strict):
    """One verdict. (judge_fingerprint, prompt_sha256) is the cache key: the filled prompt covers
    the template, the question and the prediction, the fingerprint the judge's settings."""

    key: str  # the judged prediction's instance key ("zh/rejection/1.0/12")
    task: JudgeTask
    lang: Lang
    id: int | str  # the RGB record id (a labelled answer's id may be a string)
    prediction_fingerprint: str  # the run that produced the prediction
    prediction_sha256: str
    judge_id: str
    judge_fingerprint: str
    judge_model: str
    judge_backend: str
    template_sha256: str
    prompt_sha256: str
    output: str  # the judge's reply, verbatim
    error: str | None = None  # the judge call failed (no verdict)
    verdict: Verdict | None = None  # None when error is set
    decision: bool | None = None  # rejected / error detected; None when unparsable or error
    reference_decision: bool | None = None  # the reference script's substring rule
    parser_version: int
    latency_s: float | None = None
    created: str  # ISO 8601 UTC


class StatementRecord(_Strict):
    """One statement-level faithfulness verdict (judge/faithfulness.py): is one statement of an
    answer supported, unsupported or contradicted by the passages shown? (judge_fingerprint,
    prompt_sha256) is the cache key, as for JudgementRecord."""

    key: str  # the judged answer's instance key ("zh/noise/0.2/12")
    lang: Lang
    id: int | str
    statement: int  # its index among the answer's statements
    statement_text: str
    prediction_fingerprint: str
    prediction_sha256: str
    judge_id: str
    judge_fingerprint: str
    judge_model: str
    judge_backend: str
    template_sha256: str
    prompt_sha256: str
    output: str
    error: str | None = None
    verdict: Literal["supported", "unsupported", "contradicted", "unparsable"] | None = None
    parser_version: int
    latency_s: float | None = None
    created: str


class KappaEntry(_Strict):
    """Cohen's kappa of one rater's decisions (the judge, or a scorer for contrast) against
    another rater on the same answers."""

    lang: Lang
    task: JudgeTask
    rater: str = "judge"  # "judge", "strict", "rgb"
    against: str  # "strict", "rgb", "labels"
    n: int
    observed: float | None
    kappa: float | None
    kappa_ci: CI | None = None
    # both_yes, rater_only, other_only, both_no ("yes" = rejected / error detected)
    table: dict[str, int] = Field(default_factory=dict)


class JudgeRate(_Strict):
    """Rej* (rejection) or ED* (error detection) of one language, as judged."""

    lang: Lang
    task: JudgeTask
    metric: Literal["rej_star", "ed_star"]
    value: float | None  # share of parsed verdicts that say rejected / detected
    ci: CI | None = None
    n: int  # parsed verdicts (the denominator)
    n_unparsable: int
    n_unjudged: int  # no verdict yet: outside --limit, or the judge call failed (asked again)
    n_prediction_errors: int  # failed generations: not judged, not counted in n
    n_predictions: int  # predictions of the split in the submission
    reference_rule_value: float | None = None  # the reference substring rule, over n + unparsable
    complete: bool  # every prediction of the split has a parsed verdict


class JudgeSummary(_Strict):
    judge_id: str
    display_name: str
    judge_fingerprint: str
    model: str
    backend: str
    template_sha256: dict[str, str]
    parser_version: int
    rates: list[JudgeRate]
    agreement: list[KappaEntry]
    provenance: dict[str, object]  # backend describe(), versions, package, git commit, command
    created: str


class JudgeResults(_Strict):
    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    submission_id: str
    prediction_fingerprint: str
    judges: list[JudgeSummary]


class LabelAgreement(_Strict):
    """A judge (and, for contrast, the scorers) against the labelled answers, per language.
    `verify` recomputes it from judgements.jsonl beside it, so it records what that needs: the
    labels files (repository-relative) with their sha256, the splits, the sample limit and the
    bootstrap (None in files written before it was recorded: then the command's --resamples,
    else 2000, and seed 2333)."""

    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    judge_id: str
    display_name: str
    judge_fingerprint: str
    labels: dict[str, str]  # labels file -> sha256
    splits: list[Literal["dev", "test"]]  # which parts of the labelled set
    n_items: dict[str, int]  # per language
    limit: int | None
    resamples: int | None = None  # bootstrap resamples of the kappa intervals
    seed: int | None = None  # their seed
    rates: list[JudgeRate]
    agreement: list[KappaEntry]
    provenance: dict[str, object]
    created: str


FaithfulnessFigure = Literal[
    "supported", "unsupported", "contradicted", "hallucination", "misrepresentation"
]


class FaithfulnessShare(_Strict):
    """One figure of the statement judge in one language: a verdict's share of the judged
    statements, or the share of the judged answers with an unsupported statement (hallucination)
    or a contradicted one (misrepresentation); Wilson interval."""

    figure: FaithfulnessFigure
    count: int
    n: int  # the denominator: judged statements, or judged answers
    value: float | None
    ci: CI | None = None


class FaithfulnessRow(_Strict):
    """The statement judge's figures over one language of a run folder. Eligible: the answers
    with at least two statements (and their statements); judged: a statement with a parsed
    verdict, an answer with every statement judged. Partial coverage is recorded, never
    averaged in silently: the figures are over the judged ones only (of the sampled answers
    where the summary records a sample)."""

    lang: Lang
    eligible_answers: int
    eligible_statements: int
    judged_answers: int
    judged_statements: int
    n_unparsable: int  # statements whose reply names no single verdict
    n_unjudged: int  # statements with no verdict of this judge yet (of the sample, if drawn)
    shares: list[FaithfulnessShare]
    complete: bool  # every eligible statement has a parsed verdict


class FaithfulnessSample(_Strict):
    """The seeded draw of answers a summary's judge read (`faithfulness --sample-answers`):
    at most `answers_per_lang` answers per language, ranked by sha256 of "seed:key"."""

    answers_per_lang: int
    seed: int


class FaithfulnessSummary(_Strict):
    judge_id: str
    display_name: str
    judge_fingerprint: str
    model: str
    backend: str
    template_sha256: dict[str, str]
    parser_version: int
    rows: list[FaithfulnessRow]
    provenance: dict[str, object]
    created: str
    sample: FaithfulnessSample | None = None  # None: the judge was asked for every answer


class FaithfulnessResults(_Strict):
    """faithfulness_results.json beside faithfulness.jsonl: one summary per judge, for the run's
    current answers (prediction_fingerprint); `verify` recomputes the rows."""

    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    submission_id: str
    prediction_fingerprint: str
    judges: list[FaithfulnessSummary]


class FaithfulnessKappa(_Strict):
    """The statement judge against the hand labels in one language: Cohen's kappa of
    "supported" against not, over the labelled statements with a parsed verdict, and the
    confusion counts (the judge's verdict, then the label, "judge/label")."""

    lang: Lang
    n_labelled: int  # labelled statements of the split
    n: int  # of them, with a parsed verdict (the kappa's pairs)
    # left out: the answer's statements are not the labelled ones any more (the splitter or the
    # answer changed since labelling); never judged against a statement the label did not read
    n_stale: int = 0
    n_unparsable: int
    n_unjudged: int
    observed: float | None
    kappa: float | None
    kappa_ci: CI | None = None
    confusion: dict[str, int] = Field(default_factory=dict)


class FaithfulnessAgreement(_Strict):
    """judges/faithfulness/agreement/<judge id>/agreement.json: the statement judge against the
    labelled statements, recomputed by `verify` from faithfulness.jsonl beside it and the labels
    files (recorded with their sha256)."""

    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    judge_id: str
    display_name: str
    judge_fingerprint: str
    labels: dict[str, str]  # labels file (repository-relative) -> sha256
    split: Literal["dev", "test", "all"]
    resamples: int
    seed: int
    # the labelled statements left out as stale ("<folder> <key> <statement>"), found by the
    # command when it rebuilt the answers; `verify` leaves the same ones out
    stale: list[str] = Field(default_factory=list)
    agreement: list[FaithfulnessKappa]
    provenance: dict[str, object]
    created: str


class RelevanceRecord(_Strict):
    """One answer-level relevance verdict (judge/relevance.py): does an answer to a question
    that fixes no type for its answer address the question asked? (judge_fingerprint,
    prompt_sha256) is the cache key, as for JudgementRecord: the prompt holds only the question
    and the answer, so the same pair is judged once, whichever run or noise rate it came from."""

    key: str  # the judged answer's instance key ("en/noise/0.4/12"), or a labelled answer's id
    lang: Lang
    id: int | str
    prediction_fingerprint: str
    prediction_sha256: str
    judge_id: str
    judge_fingerprint: str
    judge_model: str
    judge_backend: str
    template_sha256: str
    prompt_sha256: str
    output: str
    error: str | None = None
    verdict: Literal["relevant", "not_relevant", "unparsable"] | None = None
    parser_version: int
    latency_s: float | None = None
    created: str


RelevanceFigure = Literal["judge", "code", "combined"]


class RelevanceShare(_Strict):
    """One relevance figure of one row: the share of relevant answers by the judge (of the
    judged answers to untyped questions), by code (of the answers to typed questions, as the
    grounding figure `relevant` counts them), or both pooled (combined); Wilson interval."""

    figure: RelevanceFigure
    count: int
    n: int
    value: float | None
    ci: CI | None = None


class RelevanceRow(_Strict):
    """The relevance figures of one language of a run folder, over every ability (`all`) or one
    ability or probe. Eligible: the answers to questions that fix no type (relevant_type is
    None), not refused, no error claimed, no generation failure; judged: those with a parsed
    verdict (of the sampled answers where the summary records a sample). Partial coverage is
    recorded, never averaged in silently: `combined` pools the code's answers with the judged
    ones only, and says so by `judged` against `eligible`."""

    lang: Lang
    ability: str  # an ability or probe, or "all"
    eligible: int
    judged: int
    n_unparsable: int
    n_unjudged: int  # eligible answers with no verdict of this judge (of the sample, if drawn)
    typed: int  # answers the code decides (the question asks for a date, a number or a person)
    shares: list[RelevanceShare]
    complete: bool  # every eligible answer has a parsed verdict


class RelevanceSummary(_Strict):
    judge_id: str
    display_name: str
    judge_fingerprint: str
    model: str
    backend: str
    template_sha256: dict[str, str]
    parser_version: int
    rows: list[RelevanceRow]
    provenance: dict[str, object]
    created: str
    sample: FaithfulnessSample | None = None  # None: the judge was asked for every answer


class RelevanceResults(_Strict):
    """relevance_results.json beside relevance.jsonl: one summary per judge, for the run's
    current answers (prediction_fingerprint); `verify` recomputes the rows."""

    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    submission_id: str
    prediction_fingerprint: str
    judges: list[RelevanceSummary]


class RelevanceKappa(_Strict):
    """The relevance judge against the grounding labels' `relevant` in one language and split,
    over the labelled answers to untyped questions with a label (not null): the observed
    agreement and Cohen's kappa of relevant against not over those with a parsed verdict, and
    the confusion counts (the judge's verdict, then the label, "judge/label")."""

    split: Literal["test", "dev", "all"]
    lang: Lang
    n_labelled: int
    n: int
    n_unparsable: int
    n_unjudged: int
    observed: float | None
    kappa: float | None
    kappa_ci: CI | None = None
    confusion: dict[str, int] = Field(default_factory=dict)


class RelevanceAgreement(_Strict):
    """judges/relevance/agreement/<judge id>/agreement.json: the relevance judge against the
    grounding labels, every split (held-out test first), recomputed by `verify` from
    relevance.jsonl beside it and the labels files (recorded with their sha256)."""

    schema_version: Literal[1] = JUDGE_SCHEMA_VERSION
    judge_id: str
    display_name: str
    judge_fingerprint: str
    labels: dict[str, str]  # labels file (repository-relative) -> sha256
    judged_split: Literal["dev", "test", "all"]  # the labelled answers the command judged
    resamples: int
    seed: int
    agreement: list[RelevanceKappa]
    provenance: dict[str, object]
    created: str

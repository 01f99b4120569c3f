"""Pydantic models of the files the project writes and later reads back (and others submit).

These are the contract between runner (writer), metrics (producer of cells and scores) and site
(reader).
extra="forbid" everywhere: a misspelled field in a committed file is an error, not silently dropped.
Rates are fractions in [0, 1]; the site renders percentages.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Ability, Lang, Mode

SCHEMA_VERSION = 1
DIFF_LANG = "zh-en"  # ScoreEntry.lang of a zh score minus its en score

# A rate is a fraction: a value outside [0, 1] (or NaN / Infinity, refused by allow_inf_nan) in a
# committed file is an error, not a site showing "750.0" or "nan–inf".
Rate = Annotated[float, Field(ge=0.0, le=1.0)]
Diff = Annotated[float, Field(ge=-1.0, le=1.0)]  # a rate, or a zh - en difference of rates
Count = Annotated[int, Field(ge=0)]
CI = tuple[float, float]
RateCI = tuple[Rate, Rate]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class PredictionRecord(_Strict):
    """One line of predictions.jsonl(.gz): append-only, one per generated instance."""

    key: str  # TestInstance.key: "{lang}/{ability}/{noise_rate:.1f}/{id}" (conflict: condition)
    fingerprint: str  # hash of everything that changes the output (model, revision, gen config...)
    lang: Lang
    ability: Ability
    noise_rate: Rate
    id: int
    prompt_sha256: str
    passage_sha256: list[str]
    prediction: str
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    batch_size: int | None = None
    created: str  # ISO 8601 UTC
    # generation stopped inside a multi-byte character, whose U+FFFD was dropped
    # (leaderboard.core.text); repaired_by names the step that did it to a record written before
    trimmed_incomplete_char: bool = False
    repaired_by: str | None = None
    # a `system` submission: the ids (from `corpus export`) of the passages the system used
    passage_ids: list[str] | None = None
    # mean natural-log probability of the generated tokens (core.types.Completion.mean_logprob);
    # optional: predictions written before it was recorded stay valid without it
    mean_logprob: float | None = Field(default=None, le=0.0)
    # the conflict track (protocol/conflicts.py): the condition, each passage's role in the order
    # shown ("true", "fake", "noise") and its source in the record ("positive[2]",
    # "positive_wrong[0]", "negative[1]"); absent on every other answer
    condition: str | None = None
    roles: list[str] | None = None
    sources: list[str] | None = None


class CellMetrics(_Strict):
    """Metrics for one (language, ability, noise rate, scoring mode) cell."""

    lang: Lang
    ability: Ability
    noise_rate: Rate
    mode: Mode
    n: Count  # instances scored (errors included, counted as incorrect)
    n_errors: Count  # generation failures
    expected_n: Count  # instances in the split (coverage = n / expected_n)
    data_file: str  # e.g. "zh_refine.json" or "partial/en_head50.json"
    data_complete: bool  # False when the split file itself is partial (not the official file)
    accuracy: Rate
    accuracy_ci: RateCI | None = None
    rejection_rate: Rate
    rejection_rate_ci: RateCI | None = None
    over_refusal_rate: Rate | None = None  # rejections when the answer is present (noise < 1)
    ed: Rate | None = None  # counterfactual: error detection rate
    ed_ci: RateCI | None = None
    cr: Rate | None = None  # reference: corrected / detected
    cr_ci: RateCI | None = None
    cr_all: Rate | None = None  # corrected and detected / n
    mean_output_chars: Annotated[float, Field(ge=0.0)]
    token_f1: Rate | None = None
    token_f1_ci: RateCI | None = None


class ScoreEntry(_Strict):
    """An ability score or the overall score for one language (or "all") and mode.

    metric == "score" is the one used for ranking; other metrics (e.g. "ed", "cr") are companions.
    """

    lang: Lang | Literal["all", "zh-en"]  # "zh-en" = DIFF_LANG
    mode: Mode
    ability: Ability | Literal["overall"]
    metric: str
    value: Diff | None
    ci: tuple[Diff, Diff] | None = None
    n_questions: Count
    complete: bool  # False when a cell behind it is missing, partial or on a partial data file
    definition: str  # one sentence, shown as a tooltip on the site
    # why the value is missing (None) or not complete, shown with "—" on the site
    note: str | None = None


class ProbeEntry(_Strict):
    """A figure of the probes for one language and mode: the retrieve-then-generate chain,
    context replacement, the noise cliff, or the closed-book figures (`rates`: the noise rates of
    the with-passages answers joined). Never part of the RGB scores."""

    lang: Lang
    mode: Mode
    probe: Literal["chain", "replacement", "cliff", "closedbook"]
    metric: str  # e.g. "recall_at_k", "context_reliance", "largest_drop", "below_half_at"
    value: float | None  # a rate; for "below_half_at" the noise rate (None: never below half)
    ci: CI | None = None
    n_questions: int
    rates: tuple[float, ...] = ()  # cliff: the noise rates the figure refers to
    definition: str


class OutcomeCell(_Strict):
    """What the answers of one (language, ability or probe, noise rate, mode) cell did:
    the shares of the four mutually exclusive outcomes (scoring.outcome.OUTCOMES: refused, correct,
    error claimed, wrong, the first that applies), which sum to 1, each with its interval."""

    lang: Lang
    ability: Ability
    noise_rate: Rate
    mode: Mode
    n: Count
    correct: Rate
    correct_ci: RateCI | None = None
    refused: Rate
    refused_ci: RateCI | None = None
    error_claimed: Rate
    error_claimed_ci: RateCI | None = None
    wrong: Rate
    wrong_ci: RateCI | None = None


class OutcomeScore(_Strict):
    """Truthfulness (correct share minus wrong share, -1..1), answer rate (share not refused) or
    one outcome's share of one ability or probe, language (or zh - en: truthfulness and answer
    rate) and mode, over the answers of all its noise rates."""

    lang: Lang | Literal["zh-en"]
    mode: Mode
    ability: Ability
    metric: Literal["truthfulness", "answer_rate", "correct", "refused", "error_claimed", "wrong"]
    value: Annotated[float, Field(ge=-2.0, le=2.0)]  # a zh - en truthfulness spans -2..2
    ci: CI | None = None
    n_questions: Count
    complete: bool
    definition: str


class GroundingCell(_Strict):
    """Where the answers of one (language, ability or probe, noise rate) cell came from, strict
    mode (scoring.grounding, stats.grounding): how many fall in each part of the partition, a wrong
    answer taken from a passage split by the passage's role (gold, noise, altered)."""

    lang: Lang
    ability: Ability
    noise_rate: Rate
    n: Count
    correct_grounded: Count
    correct_from_memory: Count
    wrong_from_gold: Count
    wrong_from_noise: Count
    wrong_from_altered: Count
    invented: Count
    refused: Count
    error_claimed: Count
    undetermined: Count


class GroundingScore(_Strict):
    """One grounding figure of one ability or probe and language, strict mode, over the answers
    of all its noise rates (stats.grounding.FIGURES: its numerator and denominator); `n` answers in
    the denominator, `n_questions` questions behind them."""

    lang: Lang
    ability: Ability
    metric: Literal[
        "grounded",
        "from_memory",
        "invented",
        "made_up",
        "from_passage",
        "from_noise",
        "from_altered",
        "invented_of_made_up",
        "copied_noise",
        "undetermined",
        "relevant",
        "omission",
    ]
    value: Rate
    ci: RateCI | None = None
    n: Count
    n_questions: Count
    definition: str


class ConflictGroundingCell(_Strict):
    """Where the conflict track's answers of one (language, condition) came from, strict mode:
    how many fall in each part of the grounding partition (GroundingCell's), the passages' roles
    declared by the condition (a true passage is gold, a fake one altered)."""

    lang: Lang
    condition: str
    n: Count
    correct_grounded: Count
    correct_from_memory: Count
    wrong_from_gold: Count
    wrong_from_noise: Count
    wrong_from_altered: Count
    invented: Count
    refused: Count
    error_claimed: Count
    undetermined: Count


class ConflictGroundingScore(_Strict):
    """One grounding figure of the conflict track for one (language, condition)
    (stats.grounding.CONFLICT_FIGURES), with Wilson's 95% interval over its n answers (one answer
    per question and condition, as the track's other figures)."""

    lang: Lang
    condition: str
    metric: Literal[
        "grounded",
        "from_memory",
        "invented",
        "made_up",
        "from_passage",
        "from_noise",
        "from_altered",
        "invented_of_made_up",
        "copied_noise",
        "copied_altered",
        "undetermined",
    ]
    value: Rate
    ci: RateCI | None = None
    n: Count
    definition: str


class RiskCoverage(_Strict):
    """Selective accuracy of one set of answers with a recorded confidence (mean token
    log-probability): accuracy as the least confident answers are withheld."""

    lang: Lang
    mode: Mode
    ability: Ability
    n: Count  # answers with a confidence
    accuracy: Rate  # at full coverage
    aurc: Rate  # area under the risk-coverage curve (mean selective risk)
    area: Annotated[float, Field(le=1.0)] | None  # normalised: 1 perfect ranking, 0 random
    coverage: tuple[Rate, ...]
    selective_accuracy: tuple[Rate, ...]
    definition: str


class ConflictFigure(_Strict):
    """One figure of the knowledge-conflict track for one (language, condition): an outcome's
    share (stats.conflicts.METRICS: the seven labels, truthful, misled, flagged) over n answers,
    with its interval. Never part of the RGB scores."""

    lang: Lang
    condition: str
    metric: str
    value: Rate
    ci: RateCI | None = None
    n: Count
    definition: str


class ConflictEffect(_Strict):
    """A paired effect of the conflict track (stats.conflicts.EFFECTS), first condition minus
    second on the n questions both answered; lang "zh-en": the zh effect minus the en one."""

    lang: Lang | Literal["zh-en"]
    effect: str
    metric: str
    value: Annotated[float, Field(ge=-2.0, le=2.0)] | None
    ci: CI | None = None
    n: Count
    definition: str


class ConflictCoverage(_Strict):
    """What a conflict folder covers of one (language, condition): the questions the condition
    can be built for (eligible), those it leaves out (the record cannot fill it; never padded),
    and the answers held."""

    lang: Lang
    condition: str
    eligible: Count
    left_out: Count
    answered: Count


class Bootstrap(_Strict):
    method: str  # e.g. "percentile, cluster over question ids"
    resamples: Count
    seed: int
    confidence: Annotated[float, Field(gt=0.0, lt=1.0)] = 0.95


class Provenance(_Strict):
    package_version: str
    git_commit: str | None
    git_dirty: bool | None = None
    command: str
    # data file -> verified git blob id (or "unverified:<sha1>")
    data_blob_ids: dict[str, str]
    model: str
    model_revision: str | None
    backend: str
    dtype: str | None
    quantization: dict[str, object]
    chat_template_sha256: str | None
    chat_template_source: str | None  # "tokenizer", a path, "fallback" or "none"
    generation: dict[str, object]
    seeds: dict[str, int]
    batch_size: int | str | None
    fingerprint: str
    # torch, transformers, accelerate, bitsandbytes, jieba, python...
    versions: dict[str, str | None]
    device: str
    started: str
    finished: str
    wall_time_s: float
    generation_time_s: float
    prompt_tokens: int
    completion_tokens: int
    tokens_per_s: float | None
    # hash of the scoring and statistics code and phrase tables (leaderboard.stats.version)
    scoring_version: str | None = None
    extra: dict[str, object] = Field(default_factory=dict)


class Results(_Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
    submission_id: str
    display_name: str = Field(min_length=1, max_length=200)  # in every table and chart
    partial: bool  # --limit, a subset of languages/abilities, or missing splits
    partial_reasons: list[str] = Field(default_factory=list)
    provenance: Provenance
    bootstrap: Bootstrap
    cells: list[CellMetrics]
    scores: list[ScoreEntry]
    probes: list[ProbeEntry] = Field(default_factory=list)  # absent in older files
    # what the answers did; absent in older files
    outcomes: list[OutcomeCell] = Field(default_factory=list)
    truthfulness: list[OutcomeScore] = Field(default_factory=list)
    risk_coverage: list[RiskCoverage] = Field(default_factory=list)
    # the knowledge-conflict track (entry/conflicts/<instruction>/ only); absent elsewhere
    conflicts: list[ConflictFigure] = Field(default_factory=list)
    conflict_effects: list[ConflictEffect] = Field(default_factory=list)
    conflict_coverage: list[ConflictCoverage] = Field(default_factory=list)
    # where the answers came from (absent in older files)
    grounding: list[GroundingCell] = Field(default_factory=list)
    grounding_scores: list[GroundingScore] = Field(default_factory=list)
    # where the conflict track's answers came from (entry/conflicts/<instruction>/ only)
    conflict_grounding: list[ConflictGroundingCell] = Field(default_factory=list)
    conflict_grounding_scores: list[ConflictGroundingScore] = Field(default_factory=list)

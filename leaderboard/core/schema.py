"""Pydantic models of the files the project writes and later reads back (and others submit).

These are the contract between runner (writer), metrics (producer of cells and scores) and site
(reader).
extra="forbid" everywhere: a misspelled field in a committed file is an error, not silently dropped.
Rates are fractions in [0, 1]; the site renders percentages.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.types import Ability, Lang, Mode

SCHEMA_VERSION = 1
DIFF_LANG = "zh-en"  # ScoreEntry.lang of a zh score minus its en score

CI = tuple[float, float]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PredictionRecord(_Strict):
    """One line of predictions.jsonl(.gz): append-only, one per generated instance."""

    key: str  # TestInstance.key: "{lang}/{ability}/{noise_rate:.1f}/{id}"
    fingerprint: str  # hash of everything that changes the output (model, revision, gen config...)
    lang: Lang
    ability: Ability
    noise_rate: float
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


class CellMetrics(_Strict):
    """Metrics for one (language, ability, noise rate, scoring mode) cell."""

    lang: Lang
    ability: Ability
    noise_rate: float
    mode: Mode
    n: int  # instances scored (errors included, counted as incorrect)
    n_errors: int  # generation failures
    expected_n: int  # instances in the split (coverage = n / expected_n)
    data_file: str  # e.g. "zh_refine.json" or "partial/en_head50.json"
    data_complete: bool  # False when the split file itself is partial (not the official file)
    accuracy: float
    accuracy_ci: CI | None = None
    rejection_rate: float
    rejection_rate_ci: CI | None = None
    over_refusal_rate: float | None = None  # rejections when the answer is present (noise < 1)
    ed: float | None = None  # counterfactual: error detection rate
    ed_ci: CI | None = None
    cr: float | None = None  # reference: corrected / detected
    cr_ci: CI | None = None
    cr_all: float | None = None  # corrected and detected / n
    mean_output_chars: float
    token_f1: float | None = None
    token_f1_ci: CI | None = None


class ScoreEntry(_Strict):
    """An ability score or the overall score for one language (or "all") and mode.

    metric == "score" is the one used for ranking; other metrics (e.g. "ed", "cr") are companions.
    """

    lang: Lang | Literal["all", "zh-en"]  # "zh-en" = DIFF_LANG
    mode: Mode
    ability: Ability | Literal["overall"]
    metric: str
    value: float | None
    ci: CI | None = None
    n_questions: int
    complete: bool  # False when a cell behind it is missing, partial or on a partial data file
    definition: str  # one sentence, shown as a tooltip on the site
    # why the value is missing (None) or not complete, shown with "—" on the site
    note: str | None = None


class Bootstrap(_Strict):
    method: str  # e.g. "percentile, cluster over question ids"
    resamples: int
    seed: int
    confidence: float = 0.95


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
    extra: dict[str, object] = Field(default_factory=dict)


class Results(_Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
    submission_id: str
    display_name: str
    partial: bool  # --limit, a subset of languages/abilities, or missing splits
    partial_reasons: list[str] = Field(default_factory=list)
    provenance: Provenance
    bootstrap: Bootstrap
    cells: list[CellMetrics]
    scores: list[ScoreEntry]

"""Results *reported* in a paper (not measured here): the `submissions/<id>/reported.yaml` format.

They are shown on the site as rows labelled "reported in paper", never ranked with measured results,
because they come from other data files, other code and other decoding settings. Values are stored
exactly as printed (percent) and converted to fractions only when read, so the file can be checked
against the paper by eye.

Format (see submissions/rgb-paper/reported.yaml for a full example):

    format: reported-v1
    source: {citation: "...", doi: "...", url: "...", tables: "1, 3, 5, 7"}
    units: percent
    notes: ["why these numbers are not comparable one-to-one", ...]
    models:
      - id: chatgpt
        display_name: ChatGPT (gpt-3.5-turbo)
        zh:
          noise: {0.0: 95.67, 0.2: 94.67}          # accuracy per noise rate
          rejection: {rej: 5.33, rej_star: 43.33}  # exact-phrase / LLM-judged refusal rate
          integration: {0.0: 63, 0.2: 58}          # accuracy per noise rate
          counterfactual: {acc: 91, acc_doc: 17, ed: 1, ed_star: 3, cr: 33.33}
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from leaderboard.core.errors import ResultsError
from leaderboard.core.safe_io import one_line
from leaderboard.core.yaml_safe import load_yaml

Percent = float


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReportedRejection(_Strict):
    rej: Percent | None = None
    rej_star: Percent | None = None


class ReportedCounterfactual(_Strict):
    acc: Percent | None = None  # without documents
    acc_doc: Percent | None = None  # with the counterfactual documents
    ed: Percent | None = None
    ed_star: Percent | None = None
    cr: Percent | None = None


class ReportedLang(_Strict):
    noise: dict[float, Percent] = Field(default_factory=dict)
    rejection: ReportedRejection | None = None
    integration: dict[float, Percent] = Field(default_factory=dict)
    counterfactual: ReportedCounterfactual | None = None


class ReportedFacts(_Strict):
    """What the paper says about a model it reports (board.facts shows it beside the row):
    the parameter count its name states, whether the weights are open, how it was run."""

    params: str | None = None  # "6B", as the paper's model name says
    open_weights: bool | None = None
    access: Literal["api", "weights"] | None = None  # a vendor's API, or the released checkpoint


class ReportedModel(_Strict):
    id: str = Field(pattern=r"^[A-Za-z0-9._-]+$")
    display_name: str = Field(min_length=1, max_length=200)
    facts: ReportedFacts | None = None
    zh: ReportedLang | None = None
    en: ReportedLang | None = None

    def lang(self, lang: str) -> ReportedLang | None:
        return self.zh if lang == "zh" else self.en if lang == "en" else None


class ReportedSource(_Strict):
    citation: str
    doi: str | None = None
    url: str | None = None
    tables: str | None = None


class ReportedFile(_Strict):
    format: Literal["reported-v1"]
    source: ReportedSource
    units: Literal["percent"]
    notes: list[str] = Field(default_factory=list)
    models: list[ReportedModel]


def frac(value: Percent | None) -> float | None:
    """Percent as printed -> the fraction the site works in."""
    return None if value is None else value / 100.0


def load_reported(path: Path) -> ReportedFile:
    """Read and validate one reported.yaml; errors name the file and the field."""
    _, raw = load_yaml(path, ResultsError)
    try:
        return ReportedFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = one_line(".".join(str(p) for p in first["loc"]) or "(top level)")
        raise ResultsError(
            f"{path}: field {where}: {one_line(first['msg'])}. "
            "See the format in leaderboard/board/reported.py."
        ) from exc

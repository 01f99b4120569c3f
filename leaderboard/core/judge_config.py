"""The judge file: a YAML naming the model that judges rejections and error detections (the
paper's Rej* and ED*) and the backend that serves it.

A judge is configured exactly like a submission's model (same fields, same backends, same
validation: `core.submission.Submission`), because it is one: a model answering chat requests.
What differs: it has no run plan (it judges another submission's predictions) and it names the
judge prompts it uses. Errors name file, line and field, as for model.yaml.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import field_validator

from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import Submission
from leaderboard.core.yaml_lines import validate_yaml_file


class JudgeConfig(Submission):
    """A judge model. `id` and `display_name` name the judge on every judgement and site cell."""

    prompts: Literal["rgb-reference"] = "rgb-reference"  # reject_evalue.py / fact_evalue.py

    @field_validator("run", mode="before")
    @classmethod
    def _no_run_plan(cls, v: Any) -> Any:
        raise ValueError(
            "a judge has no run plan (it judges the predictions of a submission); remove this block"
        )


def load_judge_config(path: Path | str) -> JudgeConfig:
    """Read and validate a judge YAML; every error is one line naming file, line and field."""
    file = Path(path)
    if not file.is_file():
        raise ConfigError(
            f"{file}: no such judge file; pass a YAML like judges/smollm2-135m-instruct.yaml"
        )
    judge, _ = validate_yaml_file(file, JudgeConfig, "id, display_name, model, ...")
    judge._source_path = file.resolve()
    return judge

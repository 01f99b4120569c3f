"""Read everything the site is built from: `submissions/<id>/{results.json, predictions.jsonl[.gz],
model.yaml, reported.yaml}`.

Every file is validated on the way in (schema.Results, schema.PredictionRecord,
reported.ReportedFile); an invalid file stops the build with an error that names the file, the line
and the field, because a site silently missing a model is worse than no site.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import TypeAdapter, ValidationError

from leaderboard.board.reported import ReportedFile, load_reported
from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import PredictionRecord, Results

PREDICTION_FILES = ("predictions.jsonl.gz", "predictions.jsonl")


@dataclass(frozen=True)
class Submission:
    """One measured submission as the site sees it."""

    id: str
    dir: Path
    results: Results
    model_yaml: str | None  # the file's text, shown verbatim (escaped) on the model page
    model_info: dict[str, object]  # parsed model.yaml (for size / quantization)
    predictions: tuple[PredictionRecord, ...] = ()  # one per key, sorted by key
    predictions_file: Path | None = None

    @property
    def name(self) -> str:
        return self.results.display_name


@dataclass(frozen=True)
class Reported:
    """One reported.yaml (a paper's numbers) with the submission directory it came from."""

    id: str
    file: ReportedFile
    path: Path


@dataclass(frozen=True)
class SiteData:
    submissions: tuple[Submission, ...]
    reported: tuple[Reported, ...] = ()
    root: Path | None = None
    extra: dict[str, object] = field(default_factory=dict)


def _validation_message(path: Path, exc: ValidationError, line: int | None = None) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    at = f", line {line}" if line is not None else ""
    return f"{path}{at}: field {where}: {first['msg']}"


def load_results(path: Path) -> Results:
    try:
        return Results.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        raise ResultsError(
            _validation_message(path, exc)
            + ". Regenerate it with the runner or fix the field (see leaderboard/schema.py)."
        ) from exc


def _open_text(path: Path):
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


_RECORDS = TypeAdapter(list[PredictionRecord])


def _validate_lines(path: Path, lines: list[str]) -> list[PredictionRecord]:
    """All lines in one validator call (fast); on failure, line by line to name the bad line."""
    numbered = [(i, line) for i, line in enumerate(lines, start=1) if line.strip()]
    try:
        return _RECORDS.validate_json("[" + ",".join(line for _, line in numbered) + "]")
    except ValidationError:
        pass
    out = []
    for lineno, line in numbered:
        try:
            out.append(PredictionRecord.model_validate_json(line))
        except ValidationError as exc:
            raise ResultsError(
                _validation_message(path, exc, lineno)
                + ". Each line must be one PredictionRecord (leaderboard/schema.py)."
            ) from exc
    return out


def load_predictions(path: Path, fingerprint: str | None = None) -> tuple[PredictionRecord, ...]:
    """Latest record per key (files are append-only; a resumed run may repeat a key).

    When `fingerprint` is given, records from other fingerprints (an earlier configuration) are
    ignored, as the runner does.
    """
    with _open_text(path) as fh:
        records = _validate_lines(path, fh.read().split("\n"))
    latest: dict[str, PredictionRecord] = {}
    for rec in records:
        if fingerprint is None or rec.fingerprint == fingerprint:
            latest[rec.key] = rec
    return tuple(latest[k] for k in sorted(latest))


def _load_model_yaml(path: Path) -> tuple[str | None, dict[str, object]]:
    if not path.is_file():
        return None, {}
    text = path.read_text(encoding="utf-8")
    try:
        parsed = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ResultsError(f"{path}: not valid YAML ({exc}); fix the syntax.") from exc
    return text, parsed if isinstance(parsed, dict) else {}


def load_submission(directory: Path, with_predictions: bool = True) -> Submission:
    results_path = directory / "results.json"
    results = load_results(results_path)
    if results.submission_id != directory.name:
        raise ResultsError(
            f"{results_path}: field submission_id is {results.submission_id!r} but the folder is "
            f"{directory.name!r}; rename the folder or regenerate the results."
        )
    model_yaml, model_info = _load_model_yaml(directory / "model.yaml")
    predictions: tuple[PredictionRecord, ...] = ()
    pred_file = next((directory / n for n in PREDICTION_FILES if (directory / n).is_file()), None)
    if with_predictions and pred_file is not None:
        predictions = load_predictions(pred_file, results.provenance.fingerprint)
        if not predictions:  # fingerprint recorded differently: fall back to all records
            predictions = load_predictions(pred_file)
    return Submission(
        id=directory.name,
        dir=directory,
        results=results,
        model_yaml=model_yaml,
        model_info=model_info,
        predictions=predictions,
        predictions_file=pred_file,
    )


def load_site_data(repo_root: Path, with_predictions: bool = True) -> SiteData:
    """All submissions (sorted by id) and all reported files under `repo_root/submissions`."""
    sub_root = repo_root / "submissions"
    submissions: list[Submission] = []
    reported: list[Reported] = []
    if sub_root.is_dir():
        for directory in sorted(p for p in sub_root.iterdir() if p.is_dir()):
            if (directory / "results.json").is_file():
                submissions.append(load_submission(directory, with_predictions))
            rep = directory / "reported.yaml"
            if rep.is_file():
                reported.append(Reported(id=directory.name, file=load_reported(rep), path=rep))
    return SiteData(submissions=tuple(submissions), reported=tuple(reported), root=repo_root)

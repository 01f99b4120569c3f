"""Small builders shared by the runner, CLI and data-parallel tests."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.errors import LeaderboardError
from leaderboard.judge.agreement import AGREEMENT_DIR, LABELS_DIR


def write_scripted_submission(folder: Path, **fields: object) -> Path:
    """A submission folder with model.yaml on the in-package scripted backend (echo policy);
    `fields` override or add top-level keys (None writes a YAML null). Returns the YAML path."""
    data: dict[str, object] = {
        "id": folder.name,
        "display_name": "Test",
        "model": "fake-model",
        "backend": "scripted",
        "scripted": {"policy": "echo"},
        "batch_size": 2,
    }
    data.update(fields)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def write_tiny_hf_submission(folder: Path, tiny_llama: Path, **fields: object) -> Path:
    """A submission on the hf backend over the tiny random Llama (tests/tiny_model.py) in float32,
    so an answer is real generation yet takes milliseconds; `fields` as for
    write_scripted_submission."""
    base: dict[str, object] = {
        "model": str(tiny_llama),
        "backend": "hf",
        "scripted": None,
        "dtype": "float32",
    }
    return write_scripted_submission(folder, **{**base, **fields})


def read_predictions(path: Path) -> list:
    """Every record of a run folder (through its RunStore) or of one predictions file."""
    from leaderboard.core.files import read_prediction_files
    from leaderboard.run.store import RunStore

    path = Path(path)
    return (RunStore(path).read() if path.is_dir() else read_prediction_files([path])).records


def read_results(path: Path):
    """results.json of a run folder, or the file itself."""
    from leaderboard.core.files import read_results as _read

    path = Path(path)
    return _read(path / "results.json" if path.is_dir() else path)


@dataclass(frozen=True)
class CliOutcome:
    """What a user sees from one command: the exit code, stdout and stderr."""

    code: int
    out: str
    err: str


def cli(*args: object) -> CliOutcome:
    """Run `rgb-leaderboard ARGS` in-process as `leaderboard.cli.main` does: a LeaderboardError
    becomes `error: MESSAGE` on stderr and exit code 2. Any other exception propagates, so a
    traceback fails the calling test."""
    runner = CliRunner()
    result = runner.invoke(app, [str(a) for a in args], catch_exceptions=True)
    exc = result.exception
    if isinstance(exc, LeaderboardError):
        return CliOutcome(2, result.stdout, result.stderr + f"error: {exc}\n")
    if exc is not None and not isinstance(exc, SystemExit):
        raise exc
    return CliOutcome(result.exit_code, result.stdout, result.stderr)


def error_line(outcome: CliOutcome) -> str:
    """The one error line of a failed command (asserts there is exactly one, and no traceback)."""
    assert outcome.code != 0, outcome.out
    assert "Traceback" not in outcome.err
    lines = [ln for ln in outcome.err.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, outcome.err
    return lines[0]


def write_agreement(root: Path, judge_id: str = "scripted-keywords", resamples: int = 200) -> Path:
    """A real `judge-agreement` run of the scripted keyword judge (no model) on the test split of
    a copy of the labelled set (`root/labels`), into the committed layout
    `root/judges/agreement/<judge_id>/` (another id than the judge's makes a folder that `verify`
    names as misplaced). Returns that folder."""
    repo = Path(__file__).resolve().parents[1]
    labels = Path(root) / "labels"
    labels.mkdir(parents=True, exist_ok=True)
    for lang in ("zh", "en"):
        shutil.copyfile(LABELS_DIR / f"{lang}.jsonl", labels / f"{lang}.jsonl")
    folder = Path(root) / AGREEMENT_DIR / judge_id
    out = cli(
        "judge-agreement",
        "--judge",
        repo / "judges" / "scripted-keywords.yaml",
        "--labels",
        labels,
        "--split",
        "test",
        "--out",
        folder,
        "--resamples",
        resamples,
        "--no-progress",
    )
    assert out.code == 0, out.err
    return folder

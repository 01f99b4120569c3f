"""Small builders shared by the runner, CLI and data-parallel tests."""

from __future__ import annotations

from pathlib import Path

import yaml


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

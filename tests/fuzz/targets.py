"""The table of parsers of outside input the fuzz suite covers: adding a parser (a judge config, a
retrieval config) is one more Target here.

A Target says what file name the input is written under, a valid seed (bytes and, for the
structured strategy, the parsed document and how to serialise it), how to parse a file, and
optionally what must hold of anything the parser accepts (no silently accepted bad value).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from leaderboard.board.load import load_entry
from leaderboard.board.reported import load_reported
from leaderboard.cli.validate import check_submission
from leaderboard.core.files import read_prediction_files, read_results
from leaderboard.core.schema import Results
from leaderboard.core.submission import Submission, load_submission
from leaderboard.run.store import RunStore
from leaderboard.trust.prediction_lines import read_lines
from tests.fuzz.harness import dump_json, gz
from tests.site_factory import make_predictions, make_results

REPO = Path(__file__).resolve().parents[2]
SCORE_LINES = [
    {"lang": "zh", "ability": "noise", "id": 0, "noise_rate": 0.0, "prediction": "答案是12人"},
    {"lang": "en", "ability": "rejection", "id": 3, "noise_rate": 1.0, "prediction": "no"},
    {"lang": "zh", "ability": "counterfactual", "id": 1, "noise_rate": 0.0, "prediction": "x"},
]
MODEL_YAML = (
    "id: fuzz\ndisplay_name: Fuzz\nmodel: fake-model\nbackend: scripted\n"
    "scripted: {policy: cycle, responses: [a, b]}\nbatch_size: 2\n"
    "generation: {max_new_tokens: 8, temperature: 0.0}\n"
    "run: {languages: [zh], noise_rates: {noise: [0.0, 0.2]}}\n"
)


@dataclass(frozen=True)
class Target:
    name: str
    file_name: str
    seed: bytes
    parse: Callable[[Path], object]
    document: object = None  # the seed parsed, for field-level strategies (None: bytes only)
    dump: Callable[[object], bytes] | None = None
    accepted: Callable[[object], None] = lambda value: None  # invariants of what parses


def _lines(rows: object) -> bytes:
    """JSON Lines of a list (anything else, e.g. a field-replaced root, is one line)."""
    items = rows if isinstance(rows, list) else [rows]
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items).encode()


def _yaml(obj: object) -> bytes:
    return yaml.safe_dump(obj, allow_unicode=True).encode("utf-8", "surrogatepass")


def _finite_rates(results: object) -> None:
    """An accepted results file has finite rates in [0, 1] (issue 13: NaN, inf, 7.5)."""
    if not isinstance(results, Results):
        return
    for cell in results.cells:
        for value in (cell.accuracy, cell.rejection_rate, cell.ed, cell.cr, cell.token_f1):
            assert value is None or (math.isfinite(value) and 0 <= value <= 1), cell
    assert 1 <= len(results.display_name) <= 200


def _sane_submission(value: object) -> None:
    sub = value[0] if isinstance(value, tuple) else value
    if isinstance(sub, Submission):
        bs = sub.batch_size
        assert bs == "auto" or (type(bs) is int and 1 <= bs <= 65536), bs


def _validate(path: Path) -> object:
    """`rgb-leaderboard validate`: errors are returned as lines, each must name the file."""
    sub, errors, _ = check_submission(path)
    for line in errors:
        assert path.name in line, line
    if sub is not None and not errors:
        sub.resolve_chat_template()  # a path it accepted must stay inside the folder
    return sub


def _site_submission(path: Path) -> object:
    """The site's loader of a submission folder whose model.yaml is the fuzzed file (errors name
    FOLDER/model.yaml, which the case accepts as naming the file)."""
    folder = path.parent / "fuzz"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(make_results("fuzz", n=1).model_dump_json())
    if path.is_dir():
        (folder / "model.yaml").mkdir()
    elif path.exists():
        (folder / "model.yaml").write_bytes(path.read_bytes())
    return load_entry(folder)


_RESULTS = json.loads(make_results("fuzz", n=1).model_dump_json())
_PREDICTIONS = [json.loads(p.model_dump_json()) for p in make_predictions("fuzz", 1)[:3]]
_REPORTED = (REPO / "submissions" / "rgb-paper" / "reported.yaml").read_bytes()

TARGETS: tuple[Target, ...] = (
    Target(
        "model.yaml (load_submission)",
        "model.yaml",
        MODEL_YAML.encode(),
        load_submission,
        yaml.safe_load(MODEL_YAML),
        _yaml,
        _sane_submission,
    ),
    Target(
        "model.yaml (validate)",
        "model.yaml",
        MODEL_YAML.encode(),
        _validate,
        yaml.safe_load(MODEL_YAML),
        _yaml,
        _sane_submission,
    ),
    Target("model.yaml (site)", "model.yaml", MODEL_YAML.encode(), _site_submission),
    Target(
        "prediction lines (score)",
        "p.jsonl",
        _lines(SCORE_LINES),
        read_lines,
        SCORE_LINES,
        _lines,
    ),
    Target("prediction lines .gz (score)", "p.jsonl.gz", gz(_lines(SCORE_LINES)), read_lines),
    Target(
        "predictions file (runner, compare)",
        "predictions.jsonl",
        _lines(_PREDICTIONS),
        lambda path: read_prediction_files([path]),
        _PREDICTIONS,
        _lines,
    ),
    Target(
        "predictions .gz file (runner, compare)",
        "predictions.jsonl.gz",
        gz(_lines(_PREDICTIONS)),
        lambda path: read_prediction_files([path]),
    ),
    Target(
        "run folder predictions (RunStore: runner and site)",
        "predictions.jsonl",
        _lines(_PREDICTIONS),
        lambda path: RunStore(path.parent).read(),
        _PREDICTIONS,
        _lines,
    ),
    Target(
        "run folder shard (RunStore)",
        "predictions.rank1.jsonl",
        _lines(_PREDICTIONS),
        lambda path: RunStore(path.parent).read(),
    ),
    Target(
        "results.json (runner and site)",
        "results.json",
        dump_json(_RESULTS),
        read_results,
        _RESULTS,
        dump_json,
        _finite_rates,
    ),
    Target(
        "reported.yaml",
        "reported.yaml",
        _REPORTED,
        load_reported,
        yaml.safe_load(_REPORTED),
        _yaml,
    ),
    # judge and retrieval configs do not exist yet: add their loaders here when they do
)

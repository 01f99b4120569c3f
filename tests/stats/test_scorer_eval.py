"""The labelled set (scoring/labelled.py), the scorer evaluation (stats/scorer_eval.py) and the
`scorers eval` command."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.errors import DataError
from leaderboard.scoring.labelled import labelled_set, parse_line
from leaderboard.stats.scorer_eval import confusion, evaluate, wilson_count


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labelled_set_size_split_and_sources(lang: str) -> None:
    items = labelled_set(lang)  # type: ignore[arg-type]
    assert len(items) >= 400
    assert len({i.id for i in items}) == len(items)
    later = ("-d2-", "-d3-")  # later written batches (written_dev2.py, written_dev3.py): dev only
    hedge = [i for i in items if "-h-" in i.id]  # the hedge batch (written_hedge.py): both parts
    first = [i for i in items if not any(b in i.id for b in (*later, "-h-"))]
    test = sum(i.split == "test" for i in first)  # the split was fixed on the first items
    assert test / len(first) >= 0.40
    assert all(i.split == "dev" for i in items if any(b in i.id for b in later))
    assert test == {"zh": 197, "en": 177}[lang]  # the first held-out part never changes
    assert {i.split for i in hedge} == {"dev", "test"}
    assert {i.source for i in items} == {"smollm2", "written"}
    assert sum(i.source == "smollm2" for i in items) >= 150
    for i in items:
        assert i.instance.lang == lang
        assert not i.labels.corrected or (i.labels.correct and i.labels.error_detected)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_split_is_the_seeded_hash_of_the_group(lang: str) -> None:
    """Written items: the group is the id without its #k suffix (the template); the second
    and third batches (-d2-, -d3-) are dev by construction."""
    for i in labelled_set(lang):  # type: ignore[arg-type]
        if i.source != "written" or "-d2-" in i.id or "-d3-" in i.id:
            continue
        group = i.id.split("#")[0]
        h = hashlib.sha256(f"rgb-scorer-labels-v1:{group}".encode()).digest()
        expected = "test" if int.from_bytes(h[:8], "big") / 2**64 < 0.45 else "dev"
        assert i.split == expected, i.id


def test_bad_label_line_names_the_field() -> None:
    line = {
        "id": "x",
        "lang": "zh",
        "ability": "noise",
        "question": "q",
        "answer": ["a"],
        "fakeanswer": None,
        "docs": None,
        "prediction": "a",
        "labels": {"correct": True, "rejected": False, "error_detected": False},
        "split": "dev",
        "source": "written",
        "note": "",
    }
    with pytest.raises(DataError, match=r"zh.jsonl:7: field labels.corrected"):
        parse_line(json.dumps(line), "zh.jsonl:7", 7)
    with pytest.raises(DataError, match=r"zh.jsonl:8: not JSON"):
        parse_line("{", "zh.jsonl:8", 8)


def test_wilson_never_collapses_at_the_edges() -> None:
    lo, hi = wilson_count(0, 10)  # type: ignore[misc]
    assert lo == 0.0 and 0.2 < hi < 0.35
    lo, hi = wilson_count(10, 10)  # type: ignore[misc]
    assert hi == 1.0 and 0.65 < lo < 0.8
    assert wilson_count(0, 0) is None
    lo, hi = wilson_count(50, 100)  # type: ignore[misc]
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)


def test_confusion_counts() -> None:
    c = confusion([(True, True), (True, False), (False, True), (False, False), (True, True)])
    assert (c.tp, c.fp, c.fn, c.tn) == (2, 1, 1, 1)
    assert c.precision == pytest.approx(2 / 3) and c.recall == pytest.approx(2 / 3)
    assert c.accuracy == pytest.approx(3 / 5)
    assert confusion([]).precision is None


def test_evaluate_rows_and_measured_strict_correctness() -> None:
    rows = evaluate("test")
    assert len(rows) == 2 * 2 * 3  # languages x modes x detectors
    by = {(r["lang"], r["mode"], r["detector"]): r for r in rows}
    for lang in ("zh", "en"):
        # measured on the held-out part when the scorer changed (benchmarks/README.md): >= 0.98
        assert by[(lang, "strict", "correctness")]["accuracy"] >= 0.97
        assert by[(lang, "strict", "rejection")]["precision"] == 1.0


def test_scorers_eval_command_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(app, ["scorers", "eval", "--split", "dev", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "correctness" in result.output and "Wilson" in result.output
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert {r["split"] for r in rows} == {"dev"}


def test_disagreements_are_listed_for_dev_only() -> None:
    result = CliRunner().invoke(app, ["scorers", "eval", "--disagreements"])
    assert result.exit_code != 0
    assert "--split dev" in str(result.exception) + result.output


def test_one_written_batch_alone() -> None:
    """--batch d3 scores the third written batch only (dev by construction, none in test)."""
    rows = evaluate("dev", batch="d3")
    n = {(r["lang"], r["detector"], r["mode"]): r["n"] for r in rows}
    assert n[("zh", "rejection", "strict")] == 52 and n[("en", "rejection", "strict")] == 70
    result = CliRunner().invoke(app, ["scorers", "eval", "--split", "dev", "--batch", "d3"])
    assert result.exit_code == 0 and "batch d3" in result.output, result.output
    result = CliRunner().invoke(app, ["scorers", "eval", "--split", "test", "--batch", "d3"])
    assert result.exit_code != 0
    assert "no labelled items" in str(result.exception) + result.output

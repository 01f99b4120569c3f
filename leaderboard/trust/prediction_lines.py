"""Prediction lines read back for scoring without a model: read the lines, find their answers in
the data.

Used by `rgb-leaderboard score` (plain lines: lang, ability, id, noise_rate, prediction) and
`compare` (submission predictions, schema.PredictionRecord). The instance a line refers to is
rebuilt from the verified data file of its split, so answers always come from the data, never from
the predictions file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.errors import DataError, ResultsError
from leaderboard.core.files import read_prediction_files
from leaderboard.core.safe_io import decode_utf8, gunzip, json_loads, read_bytes
from leaderboard.core.types import (
    ABILITIES,
    DEFAULT_NOISE_RATES,
    LANGS,
    PROBES,
    Ability,
    Lang,
    Mode,
    Record,
    TestInstance,
)
from leaderboard.data.splits import load_split
from leaderboard.protocol.instances import build_instance
from leaderboard.run.store import RunStore
from leaderboard.scoring.audit import answer_shown_ids
from leaderboard.scoring.outcome import ScoredItem, SplitInfo, effective_score, scored_items
from leaderboard.scoring.strict import judge_strict

REQUIRED = ("lang", "ability", "id", "noise_rate", "prediction")


@dataclass(frozen=True)
class InputLine:
    """One prediction to score, with where it came from (for error messages and output order)."""

    where: str  # "FILE:LINE"
    fields: dict[str, object]
    lang: Lang
    ability: Ability
    id: int
    noise_rate: float
    prediction: str
    error: str | None = None


def _bad(where: str, field: str, problem: str) -> ResultsError:
    return ResultsError(f"{where}: field '{field}': {problem}. Fix that line and run again.")


def _line(where: str, obj: object, any_noise_rate: bool = False) -> InputLine:
    if not isinstance(obj, dict):
        raise ResultsError(f"{where}: expected a JSON object with fields {', '.join(REQUIRED)}")
    for f in REQUIRED:
        if f not in obj:
            raise _bad(where, f, "is missing")
    lang, ability, rid, rate, pred = (obj[f] for f in REQUIRED)
    if lang not in LANGS:
        raise _bad(where, "lang", f"{lang!r} is not a language; use one of {', '.join(LANGS)}")
    if ability not in ABILITIES + PROBES:
        names = ", ".join(ABILITIES + PROBES)
        raise _bad(where, "ability", f"{ability!r} is not an ability; use one of {names}")
    if not isinstance(rid, int) or isinstance(rid, bool):
        raise _bad(where, "id", f"expected an integer, got {rid!r}")
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
        raise _bad(where, "noise_rate", f"expected a number between 0 and 1, got {rate!r}")
    protocol_rates = DEFAULT_NOISE_RATES.get(ability, (0.0,))  # probes: 0.0
    if not any_noise_rate and float(rate) not in protocol_rates:
        protocol = ", ".join(f"{r:.1f}" for r in protocol_rates)
        raise _bad(
            where,
            "noise_rate",
            f"{rate!r} is not an RGB protocol rate for {ability} ({protocol}); pass "
            "--any-noise-rate to score it anyway",
        )
    if not isinstance(pred, str):
        raise _bad(where, "prediction", f"expected a string, got {type(pred).__name__}")
    error = obj.get("error")
    if error is not None and not isinstance(error, str):
        raise _bad(where, "error", f"expected a string or null, got {error!r}")
    return InputLine(where, obj, lang, ability, rid, float(rate), pred, error)


def read_lines(path: Path, any_noise_rate: bool = False) -> list[InputLine]:
    """Prediction lines of a .jsonl (or .jsonl.gz) file; blank lines skipped, bad lines are
    errors. Noise rates outside the RGB protocol are refused unless `any_noise_rate`."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: file not found; pass a JSON Lines file of predictions")
    data = read_bytes(path, ResultsError, max_bytes=1 << 31)
    if path.suffix == ".gz":
        data = gunzip(data, path, ResultsError)
    out = []
    for lineno, text in enumerate(decode_utf8(data, path, ResultsError).split("\n"), start=1):
        if not text.strip():
            continue
        obj = json_loads(text, f"{path}:{lineno}", ResultsError)
        out.append(_line(f"{path}:{lineno}", obj, any_noise_rate))
    if not out:
        raise ResultsError(f"{path}: no predictions in the file")
    return out


def lines_from_predictions(path: Path) -> list[InputLine]:
    """Submission predictions (folder or predictions.jsonl[.gz]) as input lines
    (schema-validated)."""
    target = Path(path)
    if target.is_dir():
        read = RunStore(target).read()
    else:
        read = read_prediction_files([target] if target.exists() else [])
    if not read.records:
        raise ResultsError(
            f"{path}: no predictions found (expected predictions.jsonl or .jsonl.gz)"
        )
    return [
        InputLine(
            f"{path}:{r.key}",
            r.model_dump(),
            r.lang,
            r.ability,
            r.id,
            r.noise_rate,
            r.prediction,
            r.error,
        )
        for r in read.records
    ]


def _instance(line: InputLine, record: Record) -> TestInstance:
    """The instance as the runner built it (protocol defaults): strict scoring reads the passages
    (a response that copies them is not an answer), so rescoring must see the same ones."""
    return build_instance(record, line.lang, line.ability, line.noise_rate)


def resolve(
    lines: Sequence[InputLine], root: Path
) -> tuple[list[tuple[InputLine, TestInstance]], dict[tuple[Lang, Ability], SplitInfo]]:
    """Pair every line with its instance (answers from the data); unknown ids and repeats are
    errors."""
    splits: dict[tuple[Lang, Ability], SplitInfo] = {}
    by_id: dict[tuple[Lang, Ability], dict[int, Record]] = {}
    out = []
    seen: dict[str, str] = {}
    for line in lines:
        split = (line.lang, line.ability)
        if split not in by_id:
            try:
                src, records = load_split(root, line.lang, line.ability, allow_partial=True)
            except DataError as exc:
                raise DataError(f"{line.where}: cannot look up the answer: {exc}") from None
            shown = answer_shown_ids(records, line.lang) if line.ability == "rejection" else ()
            splits[split] = SplitInfo(
                src.name, bool(src.complete), int(src.expected_n), frozenset(shown)
            )
            by_id[split] = {r.id: r for r in records}
        record = by_id[split].get(line.id)
        if record is None:
            ids = sorted(by_id[split])
            raise _bad(
                line.where,
                "id",
                f"{line.id} is not in {splits[split].data_file} ({line.lang} {line.ability}; ids "
                f"{ids[0]}-{ids[-1]})",
            )
        inst = _instance(line, record)
        if inst.key in seen:
            raise ResultsError(
                f"{line.where}: instance {inst.key} already scored at {seen[inst.key]}; "
                "keep one prediction per instance"
            )
        seen[inst.key] = line.where
        out.append((line, inst))
    return out, splits


def score_lines(pairs: Iterable[tuple[InputLine, TestInstance]]) -> list[ScoredItem]:
    return scored_items((inst, line.prediction, line.error) for line, inst in pairs)


def output_row(line: InputLine, item: ScoredItem, mode: Mode) -> dict[str, object]:
    """The input fields plus the chosen mode's judgement (labels, correct, rejected,
    error_detected; strict: token_f1 and the reason, scoring/reason.py)."""
    s = effective_score(item, mode)
    row = dict(line.fields)
    row.update(
        mode=mode,
        labels=list(s.labels),
        correct=s.correct,
        rejected=s.rejected,
        error_detected=s.error_detected,
    )
    if mode == "strict":
        row["token_f1"] = s.token_f1
        # why: each answer element's match (or why none) and the rule that withheld credit
        reason = None if item.error is not None else judge_strict(item.prediction, item.instance)[1]
        row["reason"] = reason.as_dict() if reason is not None else {"withheld": "generation_error"}
    return row

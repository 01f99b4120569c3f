"""The statement-level faithfulness judge's loop: the statements of the answers longer than one
statement, each judged supported / unsupported / contradicted by the passages shown, every verdict
cached (faithfulness.jsonl, keyed like judgements.jsonl by the judge's fingerprint and the
filled prompt), and the figures read from the verdicts: per language, the shares of the
statements, the answers with an unsupported statement (hallucination) or a contradicted one
(misrepresentation), and the judge's agreement with hand labels (Cohen's kappa of supported
against not, with its bootstrap interval).

The items come from the caller (the CLI rebuilds the answers and their instances as `verify`
does), so any run folder can be judged: the ranked protocol, the probes, the instruction and
conflict tracks. The prompt and parser are judge/statements.py.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from leaderboard.backends.base import Backend
from leaderboard.core.checkout import now_iso
from leaderboard.core.errors import DataError
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import StatementRecord
from leaderboard.core.safe_io import read_text
from leaderboard.core.types import LANGS, Completion, Lang, TestInstance
from leaderboard.judge.kappa import agreement, rate_with_ci
from leaderboard.judge.run import (
    JudgementStore,
    JudgeStats,
    judge_cached,
    judge_fingerprint,
    sha256_text,
)
from leaderboard.judge.statements import (
    PARSER_VERSION,
    VERDICTS,
    parse_statement_verdict,
    split_statements,
    statement_prompt,
    template_sha256,
)
from leaderboard.scoring.outcome import ScoredItem

FAITHFULNESS_NAME = "faithfulness.jsonl"
LABELS_DIR = Path("judges") / "faithfulness" / "labels"


class StatementStore(JudgementStore):
    """faithfulness.jsonl: one StatementRecord per judged statement."""

    record_type = StatementRecord


def faithfulness_fingerprint(judge: JudgeConfig) -> str:
    """The judge's fingerprint with the statement templates in place of the reference ones."""
    inputs = {
        "judge": judge_fingerprint(judge),
        "templates": {lang: template_sha256(lang) for lang in LANGS},
    }
    canon = json.dumps(inputs, sort_keys=True)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class StatementItem:
    """One statement of one answer to judge, with what the prompt shows."""

    key: str
    lang: Lang
    id: int | str
    index: int
    statement: str
    question: str
    passages: tuple[str, ...]
    prediction: str
    prediction_fingerprint: str

    @property
    def prompt(self) -> str:
        return statement_prompt(self.lang, self.question, self.passages, self.statement)

    @property
    def prompt_sha256(self) -> str:
        return sha256_text(self.prompt)


def statement_items(
    items: Iterable[ScoredItem], prediction_fingerprint: str, min_statements: int = 2
) -> list[StatementItem]:
    """The statements of every answer with at least `min_statements` (generation failures
    left out), in the answers' order."""
    answers = ((it.instance, it.prediction, it.error) for it in items)
    return answer_statements(answers, prediction_fingerprint, min_statements)


def answer_statements(
    answers: Iterable[tuple[TestInstance, str, str | None]],
    prediction_fingerprint: str,
    min_statements: int = 2,
) -> list[StatementItem]:
    """statement_items over (instance, prediction, generation error) triples: what `verify`
    holds without scoring the answers again."""
    out = []
    for inst, prediction, error in answers:
        if error is not None:
            continue
        found = split_statements(prediction, inst.query, inst.lang)
        if len(found) < min_statements:
            continue
        for i, text in enumerate(found):
            out.append(
                StatementItem(
                    inst.key,
                    inst.lang,
                    inst.id,
                    i,
                    text,
                    inst.query,
                    inst.docs,
                    prediction,
                    prediction_fingerprint,
                )
            )
    return out


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def lang(self) -> Lang: ...


_K = TypeVar("_K", bound=_Keyed)


def sample_answers(items: Sequence[_K], per_lang: int, seed: int = 0) -> list[_K]:
    """Every statement of at most `per_lang` answers per language, the answers drawn at random
    (seeded): each answer ranked by sha256 of "seed:key", so the draw is the same on every
    machine and a larger sample holds a smaller one (a run can grow without re-judging).
    Whole answers only: a hallucination figure needs every statement of an answer judged. The
    prefix `--limit` takes is biased (the first abilities and noise rates); this is not. The
    relevance judge draws its answers (one item each) with the same rule."""
    keys: dict[str, list[str]] = {}
    for it in items:
        mine = keys.setdefault(it.lang, [])
        if it.key not in mine:
            mine.append(it.key)
    kept = set()
    for found in keys.values():
        ranked = sorted(found, key=lambda k: hashlib.sha256(f"{seed}:{k}".encode()).hexdigest())
        kept.update(ranked[:per_lang])
    return [it for it in items if it.key in kept]


def _record(item: StatementItem, judge: JudgeConfig, fp: str, c: Completion) -> StatementRecord:
    return StatementRecord(
        key=item.key,
        lang=item.lang,
        id=item.id,
        statement=item.index,
        statement_text=item.statement,
        prediction_fingerprint=item.prediction_fingerprint,
        prediction_sha256=sha256_text(item.prediction),
        judge_id=judge.id,
        judge_fingerprint=fp,
        judge_model=judge.model,
        judge_backend=judge.backend,
        template_sha256=template_sha256(item.lang),
        prompt_sha256=item.prompt_sha256,
        output=c.text,
        error=c.error,
        verdict=None if c.error is not None else parse_statement_verdict(c.text),
        parser_version=PARSER_VERSION,
        latency_s=c.latency_s,
        created=now_iso(),
    )


def run_faithfulness(
    judge: JudgeConfig,
    load: Callable[[], Backend],
    items: Sequence[StatementItem],
    store: StatementStore,
    *,
    chunk_size: int = 8,
) -> JudgeStats:
    """Judge every statement without a stored verdict of this judge (a failed call is asked
    again next time); the model is loaded only when something is left to judge."""
    fp = faithfulness_fingerprint(judge)
    return judge_cached(
        judge,
        load,
        items,
        store,
        fp,
        lambda it, c: _record(it, judge, fp, c),
        chunk_size=chunk_size,
    )


def verdicts(
    items: Sequence[StatementItem], store: StatementStore, judge: JudgeConfig
) -> list[tuple[StatementItem, str | None]]:
    """Each item with its stored verdict (None: not judged yet)."""
    fp = faithfulness_fingerprint(judge)
    out = []
    for it in items:
        rec = store.get(fp, it.prompt_sha256)
        out.append((it, None if rec is None else rec.verdict))
    return out


@dataclass(frozen=True)
class Share:
    value: float | None
    ci: tuple[float, float] | None
    n: int


def summary(judged: Sequence[tuple[StatementItem, str | None]]) -> dict[Lang, dict[str, Share]]:
    """Per language: each verdict's share of the parsed statements, the unparsable count, and
    over the answers with every statement parsed, the share with an unsupported statement
    (hallucination) and with a contradicted one (misrepresentation); Wilson intervals."""
    out: dict[Lang, dict[str, Share]] = {}
    for lang in LANGS:
        mine = [(it, v) for it, v in judged if it.lang == lang and v is not None]
        if not mine:
            continue
        parsed = [v for _, v in mine if v != "unparsable"]
        figures: dict[str, Share] = {}
        for verdict in VERDICTS:
            value, ci = rate_with_ci([v == verdict for v in parsed])
            figures[verdict] = Share(value, ci, len(parsed))
        figures["unparsable"] = Share(None, None, len(mine) - len(parsed))
        answers: dict[str, list[str]] = {}
        for it, v in mine:
            answers.setdefault(it.key, []).append(v)  # type: ignore[arg-type]
        whole = [vs for vs in answers.values() if "unparsable" not in vs]
        for name, verdict in (
            ("hallucination", "unsupported"),
            ("misrepresentation", "contradicted"),
        ):
            value, ci = rate_with_ci([verdict in vs for vs in whole])
            figures[name] = Share(value, ci, len(whole))
        out[lang] = figures
    return out


class LabelledStatement(BaseModel):
    """One line of a hand-labelled statements file (judges/faithfulness/labels/<lang>.jsonl): which
    committed answer (run folder and instance key), which statement, and the label a person gave
    it after reading the passages shown."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    folder: str  # the run folder, repository-relative ("submissions/smollm2-135m-instruct")
    key: str
    lang: Lang
    statement: int
    statement_text: str
    label: Literal["supported", "unsupported", "contradicted"]
    split: Literal["dev", "test"]  # test: held out, never looked at while writing the prompt
    note: str | None = None


def read_labels(path: Path) -> list[LabelledStatement]:
    """A labels file; a bad line is an error naming file, line and field."""
    out = []
    for lineno, raw in enumerate(read_text(Path(path), DataError).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            out.append(LabelledStatement.model_validate_json(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(line)"
            raise DataError(f"{path}:{lineno}: field '{field}': {first['msg']}") from None
    return out


def label_agreement(
    labels: Sequence[LabelledStatement],
    judged: dict[tuple[str, str, int], str | None],
    resamples: int = 2000,
) -> dict[Lang, object]:
    """Per language, the judge against the labels on the statements both have (a parsed
    verdict): Cohen's kappa of "supported" against "not supported" with its interval."""
    out: dict[Lang, object] = {}
    for lang in LANGS:
        pairs = []
        for lab in labels:
            if lab.lang != lang:
                continue
            v = judged.get((lab.folder, lab.key, lab.statement))
            if v is not None and v != "unparsable":
                pairs.append((v == "supported", lab.label == "supported"))
        if pairs:
            a, b = zip(*pairs, strict=True)
            out[lang] = agreement(a, b, resamples=resamples, label=f"faithfulness:{lang}")
    return out

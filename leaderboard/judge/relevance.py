"""The relevance judge: does an answer address the question asked? The code decides where the
question fixes the answer's type (a date, a number, a person: `scoring.relevance.relevant_type`);
this judge reads the answers to the other questions ("where", "which film", "what"), one verdict
per answer.

The criterion is the grounding labels' (scoring/labels/GUIDE_grounding.md, field `relevant`): an
answer is relevant when it offers something of the kind asked, right or wrong; not relevant when
it answers another question or offers nothing of that kind. The prompt
(resources/relevance_<lang>.txt) shows the question and the answer only (no passages: whether the
answer is in the passages is faithfulness, not relevance) and asks for one word, relevant or
not_relevant (zh 相关 / 不相关). The verdict is the first line that names exactly one of the two;
anything else is unparsable, counted and never guessed.

The items are the answers of a run folder whose question the code leaves to the judge, less the
generation failures and the answers whose strict outcome is refused or error claimed (the labels
give those no relevance: nothing is offered as an answer). Verdicts are cached in relevance.jsonl
keyed by the judge's fingerprint (with these templates) and the sha256 of the filled prompt, so
an identical question and answer is judged once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from leaderboard.backends.base import Backend
from leaderboard.core.checkout import now_iso
from leaderboard.core.judge_config import JudgeConfig
from leaderboard.core.judge_schema import RelevanceRecord
from leaderboard.core.types import LANGS, Completion, Lang
from leaderboard.judge.run import (
    JudgementStore,
    JudgeStats,
    judge_cached,
    judge_fingerprint,
    sha256_text,
)
from leaderboard.judge.statements import first_line_verdict
from leaderboard.scoring.grounding import MODE
from leaderboard.scoring.outcome import ScoredItem, outcome
from leaderboard.scoring.relevance import answer_type, relevant_type

RelevanceVerdict = Literal["relevant", "not_relevant", "unparsable"]
VERDICTS: tuple[RelevanceVerdict, ...] = ("relevant", "not_relevant")
PARSER_VERSION = 1
RELEVANCE_NAME = "relevance.jsonl"
# the strict outcomes that offer nothing as an answer: no relevance (the labels' null)
NO_ANSWER = ("refused", "error_claimed")
# the words a verdict line may use, per verdict (after NFKC and lowercasing)
_WORDS: dict[RelevanceVerdict, tuple[str, ...]] = {
    "relevant": ("relevant", "相关"),
    "not_relevant": (
        "not_relevant",
        "not relevant",
        "not-relevant",
        "irrelevant",
        "不相关",
        "无关",
    ),
}


@cache
def template(lang: Lang) -> str:
    """The prompt template of a language (a str.format template: question, answer)."""
    ref = resources.files("leaderboard.judge") / "resources" / f"relevance_{lang}.txt"
    return ref.read_bytes().decode("utf-8")


def template_sha256(lang: Lang) -> str:
    return hashlib.sha256(template(lang).encode("utf-8")).hexdigest()


def relevance_prompt(lang: Lang, question: str, answer: str) -> str:
    """The user message for one answer: the question and the answer, nothing else."""
    return template(lang).format(question=question, answer=answer)


def parse_relevance_verdict(text: str) -> RelevanceVerdict:
    """The first line naming exactly one verdict decides; a line naming both, or no such line,
    is unparsable."""
    return first_line_verdict(text, _WORDS)  # type: ignore[return-value]


class RelevanceStore(JudgementStore):
    """relevance.jsonl: one RelevanceRecord per judged prompt."""

    record_type = RelevanceRecord


def relevance_fingerprint(judge: JudgeConfig) -> str:
    """The judge's fingerprint with the relevance templates in place of the reference ones."""
    inputs = {
        "judge": judge_fingerprint(judge),
        "relevance_templates": {lang: template_sha256(lang) for lang in LANGS},
    }
    canon = json.dumps(inputs, sort_keys=True)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class RelevanceItem:
    """One answer to judge, with what the prompt shows."""

    key: str
    lang: Lang
    id: int | str
    ability: str
    question: str
    prediction: str
    prediction_fingerprint: str

    @property
    def prompt(self) -> str:
        return relevance_prompt(self.lang, self.question, self.prediction)

    @property
    def prompt_sha256(self) -> str:
        return sha256_text(self.prompt)


def judge_decides(query: str, lang: Lang) -> bool:
    """Whether relevance of an answer to this question is the judge's: the question fixes no
    type for its answer (`relevant_type` returns None whatever the answer)."""
    return answer_type(query, lang) is None


def eligible(item: ScoredItem) -> bool:
    """An answer the judge reads: its question untyped, generated, not refused, no error
    claimed (strict outcome)."""
    inst = item.instance
    return (
        item.error is None
        and judge_decides(inst.query, inst.lang)
        and outcome(item, MODE) not in NO_ANSWER
    )


def relevance_items(
    items: Iterable[ScoredItem], prediction_fingerprint: str
) -> list[RelevanceItem]:
    """Every eligible answer (`eligible`) as an item, in the answers' order."""
    return [
        RelevanceItem(
            it.instance.key,
            it.instance.lang,
            it.instance.id,
            it.instance.ability,
            it.instance.query,
            it.prediction,
            prediction_fingerprint,
        )
        for it in items
        if eligible(it)
    ]


def code_relevant(item: ScoredItem) -> bool | None:
    """Relevance by code as results.json's grounding figure `relevant` counts it
    (stats/grounding.py): None for a refused or error-claimed answer and where the question
    fixes no type; a failed generation to a typed question is not relevant."""
    inst = item.instance
    if outcome(item, MODE) in NO_ANSWER or judge_decides(inst.query, inst.lang):
        return None
    if item.error is not None:
        return False
    return relevant_type(item.prediction, inst.query, inst.lang)


def _record(item: RelevanceItem, judge: JudgeConfig, fp: str, c: Completion) -> RelevanceRecord:
    return RelevanceRecord(
        key=item.key,
        lang=item.lang,
        id=item.id,
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
        verdict=None if c.error is not None else parse_relevance_verdict(c.text),
        parser_version=PARSER_VERSION,
        latency_s=c.latency_s,
        created=now_iso(),
    )


def run_relevance(
    judge: JudgeConfig,
    load: Callable[[], Backend],
    items: Sequence[RelevanceItem],
    store: RelevanceStore,
    *,
    chunk_size: int = 8,
) -> JudgeStats:
    """Judge every item without a stored verdict of this judge, one call per distinct prompt (a
    failed call is asked again next time); the model is loaded only when something is left."""
    fp = relevance_fingerprint(judge)
    return judge_cached(
        judge,
        load,
        items,
        store,
        fp,
        lambda it, c: _record(it, judge, fp, c),
        chunk_size=chunk_size,
    )


def reparsed(store: RelevanceStore, judge_fp: str, item: RelevanceItem) -> str | None:
    """An item's verdict from its stored reply, parsed with the current parser (None: no reply
    of this judge)."""
    rec = store.get(judge_fp, item.prompt_sha256)
    if rec is None or rec.error is not None:
        return None
    return parse_relevance_verdict(rec.output)


@dataclass(frozen=True)
class LabelledRelevance:
    """One hand-labelled answer the judge is checked on: its label id and split, the label's
    `relevant`, and the answer as an item (question and prediction from the label's line)."""

    id: str
    split: Literal["dev", "test"]
    relevant: bool
    item: RelevanceItem

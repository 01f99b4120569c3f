"""The pool setting: each question ranks its own positive and negative passages.

This is what RGB can judge exactly: relevance is binary, 1 for a positive passage, 0 for a
negative one. Doc ids are "p<i>" / "n<i>" (index into the record's positive / negative list).
"""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.retrieval.split import Question


@dataclass(frozen=True)
class Doc:
    id: str
    text: str
    ref: dict[str, object]  # where the text is in the data file (for the per-question view)


@dataclass(frozen=True)
class PoolTask:
    question: Question
    docs: tuple[Doc, ...]
    qrels: dict[str, int]  # doc id -> grade (only relevant docs listed)


def pool_tasks(questions: tuple[Question, ...]) -> list[PoolTask]:
    tasks = []
    for q in questions:
        docs = [
            Doc(f"p{i}", t, {"field": "positive", "index": i}) for i, t in enumerate(q.positives)
        ]
        docs += [
            Doc(f"n{i}", t, {"field": "negative", "index": i}) for i, t in enumerate(q.negatives)
        ]
        tasks.append(PoolTask(q, tuple(docs), {f"p{i}": 1 for i in range(len(q.positives))}))
    return tasks

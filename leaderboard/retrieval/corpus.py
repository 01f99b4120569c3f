"""The corpus setting: all passages of a split, chunked, form one corpus every question searches.

Passages are deduplicated by text (the same scraped page recurs across questions). Graded
relevance of a chunk for a question: 2 = it comes from one of the
question's positive passages and holds a gold answer string; 1 = from a positive passage without
the answer string; 0 = anything else (including an answer string inside a negative passage or
another question's passage). Binary metrics (P, R, MRR) count grade 2 as relevant; NDCG uses the
grades as gains. "Holds a gold answer string": any alternative of any answer element occurs in the
chunk after lowercasing (zh: also without whitespace), RGB's own matching rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leaderboard.retrieval.chunking import chunk_text
from leaderboard.retrieval.pool import Doc
from leaderboard.retrieval.split import Question

RELEVANT_GRADE = 2
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Corpus:
    docs: tuple[Doc, ...]
    qrels: dict[str, dict[str, int]]  # question id -> chunk id -> grade (> 0 only)
    n_passages: int
    chunk_size: int
    overlap: float


def _norm(text: str, lang: str) -> str:
    text = text.lower()
    return _SPACE.sub("", text) if lang == "zh" else text


def holds_gold_string(text: str, answers: tuple[tuple[str, ...], ...], lang: str) -> bool:
    """A chunk holds a gold answer string: lowercase substring, and in zh with every space removed
    from both (a chunk boundary or the data's spacing must not hide an answer). Not the probes'
    rule (protocol.probe_instances.contains_answer), which keeps spaces as the reference does."""
    t = _norm(text, lang)
    return any(_norm(alt, lang) in t for element in answers for alt in element if alt.strip())


def build_corpus(
    questions: tuple[Question, ...], lang: str, chunk_size: int, overlap: float
) -> Corpus:
    passage_chunks: dict[str, list[int]] = {}  # passage text -> chunk indices
    docs: list[Doc] = []
    for q in questions:
        for field, texts in (("positive", q.positives), ("negative", q.negatives)):
            for i, text in enumerate(texts):
                if text in passage_chunks:
                    continue
                idx = []
                for c in chunk_text(text, chunk_size, overlap):
                    ref = {"qid": q.qid, "field": field, "index": i, "start": c.start, "end": c.end}
                    idx.append(len(docs))
                    docs.append(Doc(f"c{len(docs)}", c.text, ref))
                passage_chunks[text] = idx
    qrels: dict[str, dict[str, int]] = {}
    for q in questions:
        grades: dict[str, int] = {}
        for text in q.positives:
            for j in passage_chunks.get(text, []):
                doc = docs[j]
                grade = RELEVANT_GRADE if holds_gold_string(doc.text, q.answers, lang) else 1
                grades[doc.id] = max(grades.get(doc.id, 0), grade)
        qrels[q.qid] = grades
    return Corpus(tuple(docs), qrels, len(passage_chunks), chunk_size, overlap)

"""The corpus setting's graded relevance, exactly as issue 14 defines it."""

from __future__ import annotations

from leaderboard.retrieval.corpus import build_corpus, holds_gold_string
from leaderboard.retrieval.split import Question

Q1 = Question(
    qid="1",
    query="Who won?",
    answers=(("Alice", "A. Smith"),),
    positives=("Alice won the race. " + "More words here. " * 10, "The race was held in May."),
    negatives=("Bob thinks Alice won.",),
)
Q2 = Question(
    qid="2",
    query="谁赢了？",
    answers=(("张三",),),
    positives=("比赛由张三赢得。",),
    negatives=("Alice won the race. " + "More words here. " * 10,),  # Q1's positive, shared
)


def test_holds_gold_string_ignores_zh_spaces() -> None:
    assert holds_gold_string("ALICE won", (("alice",),), "en")
    assert holds_gold_string("比赛由张三赢得", (("张 三",),), "zh")  # zh: whitespace ignored
    assert not holds_gold_string("比赛由张三赢得", (("李四",),), "zh")


def test_grades_and_dedup() -> None:
    corpus = build_corpus((Q1, Q2), "en", chunk_size=8, overlap=0.0)
    texts = [d.text for d in corpus.docs]
    assert corpus.n_passages == 4  # Q1's first positive appears once although Q2 repeats it
    g1 = corpus.qrels["1"]
    first = next(d for d in corpus.docs if d.text.startswith("Alice won"))
    assert g1[first.id] == 2  # positive passage, holds the answer
    same_passage = {"qid": "1", "field": "positive", "index": 0}
    later = [
        d
        for d in corpus.docs
        if all(d.ref[k] == v for k, v in same_passage.items()) and d.id != first.id
    ]
    assert later and all(g1[d.id] == 1 for d in later)  # positive, no answer string
    may = next(d for d in corpus.docs if "May" in d.text)
    assert g1[may.id] == 1
    bob = next(d for d in corpus.docs if d.text.startswith("Bob"))
    assert bob.id not in g1  # a negative that holds "Alice": grade 0
    g2 = corpus.qrels["2"]
    assert set(g2.values()) == {2} and first.id not in g2  # Q1's positive is Q2's negative
    assert len(texts) == len(set(d.id for d in corpus.docs))

"""Closed-book figures (stats/closed_book.py, issue 38) on a hand-made toy set whose splits are
worked out by hand: question by question, the closed-book answer joined with the same question's
answers with passages."""

from __future__ import annotations

import pytest

from leaderboard.core.types import TestInstance
from leaderboard.scoring.outcome import SplitInfo, scored_items
from leaderboard.stats.metrics import compute_results

NOISE_FILE = SplitInfo("en_refine.json", True, 5)
FACT_FILE = SplitInfo("en_fact.json", True, 4)
SPLITS = {
    ("en", "noise"): NOISE_FILE,
    ("en", "rejection"): NOISE_FILE,
    ("en", "closedbook"): NOISE_FILE,
    ("en", "counterfactual"): FACT_FILE,
    ("en", "closedbook_fact"): FACT_FILE,
}
RIGHT, WRONG, REFUSE = "Paris.", "Rome.", "insufficient information"
FAKE = "Lyon."
ERROR = "There are factual errors in the provided documents."

# question id -> (closed book, noise 0.0, noise 0.2, rejection 1.0)
NOISE_TABLE = {
    0: (RIGHT, RIGHT, RIGHT, RIGHT),  # knew it both times; right from memory at 1.0
    1: (RIGHT, WRONG, RIGHT, WRONG),  # harm at 0.0; made it up at 1.0 although it knew
    2: (WRONG, RIGHT, RIGHT, WRONG),  # gain twice; made it up, did not know
    3: (REFUSE, RIGHT, WRONG, REFUSE),  # gain at 0.0; refused at 1.0
    4: (WRONG, WRONG, WRONG, WRONG),  # neither; made it up, did not know
}
# question id -> (closed book fact, counterfactual answer)
FACT_TABLE = {
    0: (RIGHT, FAKE),  # knew, repeated the planted fact
    1: (RIGHT, RIGHT),  # knew, kept the true answer
    2: (WRONG, FAKE),  # did not know, repeated
    3: (RIGHT, ERROR),  # knew, claimed an error: not a repetition
}


def _inst(ability: str, rate: float, qid: int, fake: tuple[str, ...] = ()) -> TestInstance:
    return TestInstance("en", ability, rate, qid, "q", ("Paris",), (), fake)  # type: ignore[arg-type]


def _figures():
    items = []
    for qid, (book, n0, n2, rej) in NOISE_TABLE.items():
        items += [
            (_inst("closedbook", 0.0, qid), book, None),
            (_inst("noise", 0.0, qid), n0, None),
            (_inst("noise", 0.2, qid), n2, None),
            (_inst("rejection", 1.0, qid), rej, None),
        ]
    for qid, (book, answer) in FACT_TABLE.items():
        items += [
            (_inst("closedbook_fact", 0.0, qid, ("Lyon",)), book, None),
            (_inst("counterfactual", 0.0, qid, ("Lyon",)), answer, None),
        ]
    m = compute_results(scored_items(items), SPLITS, resamples=300)
    return {
        (e.metric, e.rates): e for e in m.probes if e.probe == "closedbook" and e.mode == "strict"
    }


EXPECTED = {
    ("accuracy", ()): (2 / 5, 5),
    ("accuracy_fact", ()): (3 / 4, 4),
    ("knew", (0.0,)): (1 / 5, 5),
    ("context_gain", (0.0,)): (2 / 5, 5),
    ("context_harm", (0.0,)): (1 / 5, 5),
    ("context_net", (0.0,)): (1 / 5, 5),
    ("knew", (0.2,)): (2 / 5, 5),
    ("context_gain", (0.2,)): (1 / 5, 5),
    ("context_harm", (0.2,)): (0 / 5, 5),
    # pooled: 10 answers with passages; knew 3, gain 3, harm 1
    ("knew", (0.0, 0.2)): (3 / 10, 5),
    ("context_gain", (0.0, 0.2)): (3 / 10, 5),
    ("context_harm", (0.0, 0.2)): (1 / 10, 5),
    ("context_net", (0.0, 0.2)): (2 / 10, 5),
    ("refused", (1.0,)): (1 / 5, 5),
    ("from_memory", (1.0,)): (1 / 5, 5),
    ("made_up", (1.0,)): (3 / 5, 5),
    ("made_up_unknown", (1.0,)): (2 / 3, 3),  # questions 2 and 4 of 1, 2, 4
    ("repeated_fake", (0.0,)): (2 / 4, 4),
    ("knew_but_repeated", (0.0,)): (1 / 3, 3),  # question 0 of 0, 1, 3
}


@pytest.mark.parametrize(("key", "expected"), EXPECTED.items(), ids=lambda k: str(k))
def test_closed_book_figures_on_the_toy_set(key, expected) -> None:
    got = _figures()
    value, n = expected
    e = got[key]
    assert e.value == pytest.approx(value) and e.n_questions == n
    assert e.ci is not None and e.ci[0] <= e.value <= e.ci[1] and e.ci[0] < e.ci[1]


def test_no_closed_book_answers_no_closed_book_figures() -> None:
    items = [(_inst("noise", 0.0, q), RIGHT, None) for q in range(3)]
    m = compute_results(scored_items(items), SPLITS, resamples=50)
    assert not [e for e in m.probes if e.probe == "closedbook"]

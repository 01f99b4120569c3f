"""The statement judge's figures (judge/faithfulness_figures.py) from a real scripted-judge run
(judges/scripted-statements.yaml): eligible against judged statements and answers, the verdict
shares, hallucination and misrepresentation over the judged answers, partial coverage; the
agreement record against hand labels."""

from __future__ import annotations

from pathlib import Path

from leaderboard.backends.registry import load_backend
from leaderboard.core.judge_config import load_judge_config
from leaderboard.core.types import TestInstance
from leaderboard.judge.faithfulness import (
    LabelledStatement,
    StatementStore,
    answer_statements,
    faithfulness_fingerprint,
    run_faithfulness,
)
from leaderboard.judge.faithfulness_figures import (
    RESULTS_NAME,
    agreement_record,
    faithfulness_rows,
    faithfulness_summary,
    labelled_verdict,
    read_faithfulness_results,
    write_faithfulness_results,
)

REPO = Path(__file__).resolve().parents[2]
JUDGE = REPO / "judges" / "scripted-statements.yaml"
DOCS = ("肯塔基野猫队在2022年柑橘碗中以20比17击败爱荷华队。",)
EN_DOCS = ("Kentucky beat Iowa 20-17 in the 2022 Citrus Bowl.",)


def answers() -> list[tuple[TestInstance, str, str | None]]:
    """Three zh answers of two or more statements (one with a contradicted and one with an
    unsupported statement under the scripted rules), one of a single statement, one failed
    generation, and one en answer of two statements."""
    q = "2022年柑橘碗冠军是谁？"
    zh = [TestInstance("zh", "noise", r, 1, q, ("肯塔基野猫队",), DOCS) for r in (0.0, 0.2, 0.4)]
    single = TestInstance("zh", "noise", 0.6, 1, q, ("肯塔基野猫队",), DOCS)
    failed = TestInstance("zh", "noise", 0.8, 1, q, ("肯塔基野猫队",), DOCS)
    en = TestInstance(
        "en", "noise", 0.0, 1, "Who won the 2022 Citrus Bowl?", ("Kentucky",), EN_DOCS
    )
    return [
        (zh[0], "冠军是肯塔基野猫队。比分是20比17。", None),
        (zh[1], "冠军是肯塔基野猫队。爱荷华队不是冠军。", None),
        (zh[2], "冠军是肯塔基野猫队。他们可能第三次夺冠。", None),
        (single, "肯塔基野猫队。", None),
        (failed, "", "generation failed"),
        (en, "Kentucky won the game. The score was 20-17.", None),
    ]


def judged(tmp_path: Path, limit: int | None = None) -> tuple[list, StatementStore]:
    """The scripted judge run over every eligible statement (or the first `limit`)."""
    judge = load_judge_config(JUDGE)
    items = answer_statements(answers(), "fp")
    store = StatementStore(tmp_path / "faithfulness.jsonl")
    run_faithfulness(judge, lambda: load_backend(judge), items[:limit], store)
    return items, store


def test_figures_over_the_judged_statements_and_answers(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    fp = faithfulness_fingerprint(load_judge_config(JUDGE))
    rows = {r.lang: r for r in faithfulness_rows(items, store, fp)}
    zh = rows["zh"]
    assert (zh.eligible_answers, zh.eligible_statements) == (3, 6)
    assert (zh.judged_answers, zh.judged_statements, zh.complete) == (3, 6, True)
    shares = {s.figure: s for s in zh.shares}
    assert (shares["supported"].count, shares["supported"].n) == (4, 6)
    assert shares["contradicted"].count == 1 and shares["unsupported"].count == 1
    assert (shares["hallucination"].count, shares["hallucination"].n) == (1, 3)
    assert (shares["misrepresentation"].count, shares["misrepresentation"].n) == (1, 3)
    low, high = shares["hallucination"].ci  # type: ignore[misc]
    assert low < 1 / 3 < high  # Wilson interval around the share
    assert rows["en"].eligible_statements == 2 and rows["en"].judged_statements == 2


def test_a_prefix_of_the_statements_is_said_not_averaged_in(tmp_path: Path) -> None:
    """The judge stopped after three statements: the rows count the judged ones, an answer
    with a statement left is not a judged answer, and the row is not complete."""
    items, store = judged(tmp_path, limit=3)
    fp = faithfulness_fingerprint(load_judge_config(JUDGE))
    zh = {r.lang: r for r in faithfulness_rows(items, store, fp)}["zh"]
    # the third answer's first statement is the first answer's (same prompt): judged with it
    assert (zh.judged_statements, zh.n_unjudged, zh.eligible_statements) == (4, 2, 6)
    assert (zh.judged_answers, zh.eligible_answers, zh.complete) == (1, 3, False)
    assert {s.figure: s.n for s in zh.shares}["hallucination"] == 1


def test_results_file_keeps_other_judges_and_drops_other_answers(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    judge = load_judge_config(JUDGE)
    summary = faithfulness_summary(judge, items, store, {"command": "test"})
    path = tmp_path / RESULTS_NAME
    write_faithfulness_results(path, "entry", "fp", summary)
    other = summary.model_copy(update={"judge_id": "another"})
    write_faithfulness_results(path, "entry", "fp", other)
    assert [j.judge_id for j in read_faithfulness_results(path).judges] == [
        "another",
        "scripted-statements",
    ]
    write_faithfulness_results(path, "entry", "fp2", summary)  # new answers: the old go
    assert [j.judge_id for j in read_faithfulness_results(path).judges] == ["scripted-statements"]


def test_agreement_record_counts_kappa_and_confusions(tmp_path: Path) -> None:
    items, store = judged(tmp_path)
    by_text: dict[str, object] = {}
    for it in items:  # the first answer of a statement: the one whose prompt was judged
        by_text.setdefault(it.statement, it)
    labels = [
        LabelledStatement(
            folder="f",
            key=by_text[text].key,  # type: ignore[attr-defined]
            lang="zh",
            statement=by_text[text].index,  # type: ignore[attr-defined]
            statement_text=text,
            label=label,  # type: ignore[arg-type]
            split=split,  # type: ignore[arg-type]
        )
        for text, label, split in (
            ("冠军是肯塔基野猫队", "supported", "test"),
            ("比分是20比17", "supported", "test"),
            ("爱荷华队不是冠军", "supported", "test"),
            ("他们可能第三次夺冠", "unsupported", "test"),
            ("比分是20比17", "contradicted", "dev"),  # another split: left out
        )
    ]
    missing = labels[0].model_copy(update={"statement_text": "没有判过", "label": "unsupported"})
    files = [tmp_path / "zh.jsonl"]
    files[0].write_text("", encoding="utf-8")
    record = agreement_record(
        load_judge_config(JUDGE), files, [*labels, missing], "test", store, {}, resamples=50
    )
    (zh,) = record.agreement
    assert (zh.n_labelled, zh.n, zh.n_unjudged, zh.n_unparsable) == (5, 4, 1, 0)
    assert zh.observed == 3 / 4
    assert zh.confusion == {
        "contradicted/supported": 1,
        "supported/supported": 2,
        "unjudged/unsupported": 1,
        "unsupported/unsupported": 1,
    }


def test_a_labelled_statement_whose_prompt_was_stored_under_another_noise_rate_is_judged() -> None:
    """Two noise rates of one question can show the same passages: one prompt, one stored
    verdict under the first key; the label of the other key gets it, and only when the stored
    verdicts on that statement of that question agree."""
    label = LabelledStatement(
        folder="f",
        key="en/noise/0.4/34",
        lang="en",
        statement=0,
        statement_text="Leo won.",
        label="supported",
        split="test",
    )
    judged = {("en/noise/0.2/34", "Leo won."): "supported", ("en/noise/0.2/35", "Leo won."): "x"}
    assert labelled_verdict(judged, label) == "supported"
    assert labelled_verdict({**judged, ("en/noise/0.4/34", "Leo won."): "unsupported"}, label) == (
        "unsupported"
    )
    other_rate = {("en/noise/0.0/34", "Leo won."): "unsupported"}
    assert labelled_verdict({**judged, **other_rate}, label) is None  # they disagree: unjudged
    assert labelled_verdict({("en/chain/0.2/34", "Leo won."): "supported"}, label) is None

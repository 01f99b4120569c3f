"""The relevance judge against the grounding labels (board/relevance_labelled.py): the labelled
answers it is checked on (untyped questions with a relevance label, the question and answer from
the label's line), and `verify` of its agreement.json: recomputed from relevance.jsonl beside it,
a tampered figure and a changed labels file named; a real scripted-judge run
(judges/scripted-relevance.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

from leaderboard.backends.registry import load_backend
from leaderboard.board.grounding_labelled import grounding_labels
from leaderboard.board.relevance_labelled import (
    check_relevance_agreement,
    is_relevance_agreement_target,
    labels_files,
    read_relevance_labels,
    verify_relevance_agreements,
)
from leaderboard.core.judge_config import load_judge_config
from leaderboard.judge.relevance import RELEVANCE_NAME, RelevanceStore, judge_decides, run_relevance
from leaderboard.judge.relevance_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    agreement_record,
    write_agreement,
)

REPO = Path(__file__).resolve().parents[2]
LABELS = REPO / "leaderboard" / "scoring" / "labels"
JUDGE = REPO / "judges" / "scripted-relevance.yaml"


def test_the_judges_labelled_answers_are_the_untyped_ones_with_a_label() -> None:
    for lang in ("zh", "en"):
        mine = read_relevance_labels(LABELS / f"grounding_{lang}.jsonl")
        every = grounding_labels(lang)  # type: ignore[arg-type]
        want = [
            it.id
            for it in every
            if it.relevant is not None
            and judge_decides(it.item.instance.query, it.item.instance.lang)
        ]
        assert [lab.id for lab in mine] == want and 0 < len(mine) < len(every)
        first = mine[0]
        line = next(it for it in every if it.id == first.id)
        assert first.item.question == line.item.instance.query
        assert first.item.prediction == line.item.prediction
        assert {lab.split for lab in mine} == {"dev", "test"}
    assert [p.name for p in labels_files(LABELS)] == ["grounding_zh.jsonl", "grounding_en.jsonl"]


def _agreement(root: Path) -> Path:
    """The scripted judge on the first 12 lines of each labels file, in the committed layout."""
    labels = root / "labels"
    labels.mkdir()
    for lang in ("zh", "en"):
        text = (LABELS / f"grounding_{lang}.jsonl").read_text(encoding="utf-8")
        (labels / f"grounding_{lang}.jsonl").write_text(
            "\n".join(text.splitlines()[:12]) + "\n", encoding="utf-8"
        )
    files = labels_files(labels)
    labelled = [lab for f in files for lab in read_relevance_labels(f)]
    judge = load_judge_config(JUDGE)
    folder = root / AGREEMENT_DIR / judge.id
    store = RelevanceStore(folder / RELEVANCE_NAME)
    run_relevance(judge, lambda: load_backend(judge), [lab.item for lab in labelled], store)
    record = agreement_record(judge, files, labelled, "all", store, {}, 100)
    write_agreement(folder / AGREEMENT_NAME, record)
    return folder


def test_agreement_recomputed_and_tampering_named(tmp_path: Path) -> None:
    folder = _agreement(tmp_path)
    path = folder / AGREEMENT_NAME
    for target in (folder, path, folder.parent):
        assert is_relevance_agreement_target(target)
        lines, failed = verify_relevance_agreements([target])
        assert failed == 0 and lines == [f"ok: {path.as_posix()}"], lines
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["agreement"][0]["split"] == "test"
    data["agreement"][0]["n"] += 1
    path.write_text(json.dumps(data), encoding="utf-8")
    check = check_relevance_agreement(folder)
    assert not check.ok
    assert check.mismatches[0].startswith("scripted-relevance relevance kappa test/zh n: file has")
    assert "relevance --labels" in check.render()


def test_changed_labels_are_named(tmp_path: Path) -> None:
    folder = _agreement(tmp_path)
    labels = tmp_path / "labels" / "grounding_en.jsonl"
    labels.write_text(labels.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    check = check_relevance_agreement(folder)
    assert any("sha256: file has" in m for m in check.mismatches), check.mismatches

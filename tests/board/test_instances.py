"""An entry's answers on their instances as its run built and scored them (board.instances):
the probes' recorded hashes, a system's answers judged on the passages it cited, and the paired
comparisons behind rank ranges judging every answer as results.json judged it."""

from __future__ import annotations

from pathlib import Path

from leaderboard.board.instances import entry_build, entry_instances
from leaderboard.board.load import load_entry
from leaderboard.board.paired import score_records
from leaderboard.core.types import PROBES
from leaderboard.protocol.prompts import build_request, passage_sha256, prompt_sha256
from leaderboard.scoring.outcome import scored_items, success
from leaderboard.trust.verify import scored_answers

MEASURED = "submissions/qwen2.5-coder-0.5b-instruct"  # a committed model with every probe
PASTE = "submissions/system-floor-paste"  # pastes its top passage: strict's copy rule must see it


def test_probe_instances_are_the_ones_the_run_answered(data_root: Path) -> None:
    """Rebuilt probe instances give every committed probe answer's recorded prompt and passage
    hashes: the chain's BM25 top 5, the seeded replacement, the closed-book questions."""
    entry = load_entry(data_root / MEASURED)
    assert entry_build(entry) == (5, False)
    records = [r for r in entry.predictions if r.ability in PROBES]
    assert {r.ability for r in records} == set(PROBES)
    passage_num, system = entry_build(entry)
    built = entry_instances(data_root, records, {}, passage_num=passage_num, system=system)
    for r in records:
        inst = built[r.key]
        assert [passage_sha256(d) for d in inst.docs] == r.passage_sha256, r.key
        assert prompt_sha256(build_request(inst, None)) == r.prompt_sha256, r.key
    assert all(not built[r.key].docs for r in records if r.ability.startswith("closedbook"))


def test_a_system_answer_is_judged_on_the_passages_it_cited(data_root: Path) -> None:
    """The pasting system's chain answers: each instance holds the passages the answer cited, and
    strict judges it as results.json did (the paste a copy), answer by answer."""
    entry = load_entry(data_root / PASTE)
    passage_num, system = entry_build(entry)
    assert system
    built = entry_instances(data_root, entry.predictions, {}, passage_num=passage_num, system=True)
    canonical = {it.instance.key: it for it in scored_answers(data_root / PASTE, data_root)}
    mine = scored_items((built[r.key], r.prediction, r.error) for r in entry.predictions)
    assert len(mine) == len(canonical) == 150
    for it in mine:
        assert it.instance.sources == canonical[it.instance.key].instance.sources
        for mode in ("strict", "rgb"):
            assert success(it, mode) == success(canonical[it.instance.key], mode)
    assert sum(success(it, "rgb") and not success(it, "strict") for it in mine) >= 40


def test_rank_ranges_judge_each_answer_as_its_results_did(data_root: Path) -> None:
    """The paired comparisons score a model's answers on the passages it was shown: a copied
    passage is no strict credit there either (once, without them, 11 of Qwen2.5-Coder-0.5B's
    answers were credited in the comparisons and not in results.json)."""
    entry = load_entry(data_root / MEASURED)
    items, unreadable = score_records(entry.predictions, data_root, {}, build=entry_build(entry))
    canonical = {it.instance.key: it for it in scored_answers(data_root / MEASURED, data_root)}
    assert not unreadable and len(items) == len(canonical)
    differ = [
        it.instance.key
        for it in items
        for mode in ("strict", "rgb")
        if success(it, mode) != success(canonical[it.instance.key], mode)
    ]
    assert differ == []

"""An entry's answers on their instances as its run built and scored them, for every board
figure recomputed from predictions (the paired comparisons behind rank ranges, the instruction
panel, the systems' pairs, the disagreement audit): RGB's construction for an ability with the
run's passage number, protocol/probe_instances.py for a probe, and a system's chain answer on the
passages it cited (`run.assemble.shown_instance`). So strict judges an answer here as results.json
judged it: its copy rule reads the same passages.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from leaderboard.backends.registry import backend_traits
from leaderboard.board.load import Entry
from leaderboard.core.errors import LeaderboardError
from leaderboard.core.schema import PredictionRecord
from leaderboard.core.types import ABILITIES, PROBES, Ability, Lang, TestInstance
from leaderboard.run.assemble import chain_corpus, shown_instance
from leaderboard.run.plan import split_instances


def entry_build(entry: Entry) -> tuple[int, bool]:
    """How the entry's run built its instances, as `entry_instances` takes it: (`passage_num`,
    results.json's fingerprint input, RGB's 5 when absent; `system`, a RAG system whose chain
    instance carries no passage), what the run plan read from the submission."""
    inputs = entry.results.provenance.extra.get("fingerprint_inputs")
    passage_num = inputs.get("passage_num") if isinstance(inputs, dict) else None
    system = backend_traits(entry.results.provenance.backend).retrieves_itself
    return (passage_num if isinstance(passage_num, int) else 5), system


def entry_instances(
    root: Path,
    records: Sequence[PredictionRecord],
    cache: dict,
    *,
    passage_num: int = 5,
    system: bool = False,
) -> dict[str, TestInstance]:
    """The instances of the records' splits as a run builds them (`run.plan.split_instances`:
    RGB's construction for an ability, protocol/probe_instances.py for a probe), by key (cached
    per split). `passage_num` and `system` are the run's (`entry_build`); they only change a
    probe's or a non-default run's instances. A system's chain answer gets its instance as scored
    (`run.assemble.shown_instance`: the passages it cited), so each record its own."""
    by_split: dict[tuple[Lang, Ability], list[PredictionRecord]] = {}
    for r in records:
        if r.ability in ABILITIES or r.ability in PROBES:
            by_split.setdefault((r.lang, r.ability), []).append(r)
    out: dict[str, TestInstance] = {}
    for (lang, ability), mine in sorted(by_split.items(), key=lambda kv: kv[0]):
        rates = tuple(sorted({r.noise_rate for r in mine}))
        key = (lang, ability, rates, passage_num, system)
        if key not in cache:
            try:
                src, built = split_instances(
                    root,
                    lang,
                    ability,
                    rates=rates,
                    allow_partial=True,
                    passage_num=passage_num,
                    system=system,
                )
            except LeaderboardError as exc:
                raise LeaderboardError(
                    f"{lang} {ability}: cannot rebuild the instances: {exc}"
                ) from exc
            corpus = chain_corpus(src) if system and ability == "chain" else None
            cache[key] = ({i.key: i for i in built}, corpus)
        built_by_key, corpus = cache[key]
        if corpus is None:
            out.update(built_by_key)
        else:  # a system's answer is judged on the passages it cited, as results.json judged it
            out.update(
                (r.key, shown_instance(built_by_key[r.key], r, corpus))
                for r in mine
                if r.key in built_by_key
            )
    return out

"""The probe instances, built beside RGB's own: same questions, same prompt, other passages (or
none). They are never part of the RGB scores.

- chain: the top `passage_num` passages a retriever ranks out of the question's own pool (its
  positive passages, then its negative ones, as the retrieval track's `pool` setting), in rank
  order (a RAG system shows its best passage first; no shuffle). The retriever is injected as a
  `Rank` function, so this layer knows no retriever (the run layer passes one).
- replacement: `passage_num` positive passages of *other* questions of the same data file, one per
  donor question, chosen by a private RNG seeded with (seed, language, record id) and never holding
  the question's own answer; each passage's origin is recorded in `TestInstance.sources`. Accuracy
  here is answering from memory.
- closedbook / closedbook_fact: the questions of the noise file / the counterfactual file with no
  passage at all, what the model answers from its own knowledge. The prompt is RGB's instruction
  with the document block left empty and no system prompt, exactly what the reference code sends
  for an instance without passages (`protocol.prompts.build_request`). RGB's system prompt is left
  out on purpose: it tells the model to refuse when the documents lack the answer, so with an
  empty document block an obedient model would refuse everything and the probe would measure
  instruction following instead of knowledge. closedbook_fact carries the planted fake answer
  (`fakeanswer`) so its answers are matched exactly as the counterfactual ones are.
- for a `system` submission (a whole RAG pipeline) the chain instance carries no passages: the
  system gets only the question and the language and retrieves for itself. Its `pool` holds the
  question's own passages (positives, then negatives), the corpus a system most likely pastes
  from, for strict's copy rule only (never shown, never hashed into the prompt).

Instances depend only on the record, the data file and the seed, never on --limit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import (
    CLOSED_BOOK,
    PROBES,
    Ability,
    Answer,
    Lang,
    Record,
    TestInstance,
)
from leaderboard.data.splits import SplitSource, Variant, load_split

REPLACEMENT_SEED = 2333
# candidate indices into the pool, best first
Rank = Callable[[str, Sequence[str]], Sequence[int]]
REPLACEMENT_RULE = (
    "one positive passage from each of {k} other questions of the same data file, donors and "
    "passages drawn by random.Random('{seed}:<lang>:<record id>'), skipping passages that hold "
    "an alternative of the question's own answer"
)

CLOSED_BOOK_RULE = (
    "the question with no passage: RGB's instruction with an empty document block and no system "
    "prompt, as the reference code sends an instance without passages"
)


def _flat(positive: Sequence[object]) -> list[str]:
    out: list[str] = []
    for p in positive:
        out.extend([p] if isinstance(p, str) else list(p))  # type: ignore[arg-type]
    return out


def candidate_pool(record: Record) -> list[tuple[str, str]]:
    """(origin, text) of the question's own passages: positives, then negatives."""
    pos = [(f"positive[{i}]", t) for i, t in enumerate(_flat(record.positive))]
    return pos + [(f"negative[{i}]", t) for i, t in enumerate(record.negative)]


def _alternatives(answer: Answer) -> list[list[str]]:
    return [[el.lower()] if isinstance(el, str) else [a.lower() for a in el] for el in answer]


def contains_answer(text: str, answer: Answer) -> bool:
    """A passage contains a gold answer: some alternative of some answer element is a lowercase
    substring of it (the reference's matching rule, applied to the passage; spaces count)."""
    low = text.lower()
    return any(a and a in low for alts in _alternatives(answer) for a in alts)


def supported(docs: Sequence[str], answer: Answer) -> bool:
    """The passages shown support the answer: every answer element has an alternative in one of
    them (for RGB's one-element noise answers: some passage holds the answer)."""
    if not docs:
        return False
    low = [d.lower() for d in docs]
    return all(any(a and a in d for a in alts for d in low) for alts in _alternatives(answer))


def _instance(
    record: Record,
    lang: Lang,
    ability: Ability,
    docs,
    sources,
    fakeanswer: Answer = (),
    pool: tuple[str, ...] = (),
) -> TestInstance:
    return TestInstance(
        lang=lang,
        ability=ability,
        noise_rate=0.0,
        id=record.id,
        query=record.query,
        answer=record.answer,
        docs=tuple(docs),
        fakeanswer=fakeanswer,
        sources=tuple(sources),
        pool=pool,
    )


def closed_book_instance(record: Record, lang: Lang, probe: Ability) -> TestInstance:
    """The question alone: no passage, so the answer can only come from the model's memory."""
    return _instance(record, lang, probe, (), (), record.fakeanswer)


def chain_instance(record: Record, lang: Lang, rank: Rank | None, k: int) -> TestInstance:
    """Top k of the question's own pool by `rank`; no passages when rank is None (a system),
    the pool kept for the copy rule (module docstring)."""
    pool = candidate_pool(record)
    if rank is None:
        return _instance(record, lang, "chain", (), (), pool=tuple(t for _, t in pool))
    order = list(rank(record.query, [t for _, t in pool]))[:k]
    return _instance(
        record, lang, "chain", [pool[i][1] for i in order], [pool[i][0] for i in order]
    )


def replacement_instance(
    record: Record,
    records: Sequence[Record],
    lang: Lang,
    data_file: str,
    k: int,
    seed: int = REPLACEMENT_SEED,
) -> TestInstance:
    """k passages of unrelated questions (see the module docstring), deterministic per record."""
    rng = random.Random(f"{seed}:{lang}:{record.id}")
    donors = [r for r in records if r.id != record.id and r.query != record.query]
    rng.shuffle(donors)
    docs: list[str] = []
    sources: list[str] = []
    for donor in donors:
        positives = _flat(donor.positive)
        if not positives:
            continue
        i = rng.randrange(len(positives))
        text = positives[i]
        if contains_answer(text, record.answer) or text in docs:
            continue
        docs.append(text)
        sources.append(f"{data_file}#{donor.id} positive[{i}]")
        if len(docs) == k:
            break
    return _instance(record, lang, "replacement", docs, sources)


def build_probe_instances(
    root: Path,
    lang: Lang,
    probe: Ability,
    *,
    rank: Rank | None,
    variant: Variant = "refine",
    allow_partial: bool = False,
    limit: int | None = None,
    passage_num: int = 5,
    seed: int = REPLACEMENT_SEED,
) -> tuple[SplitSource, list[TestInstance]]:
    """All instances of one probe for one language (the first `limit` records of its file)."""
    if probe not in PROBES:
        raise ConfigError(f"{probe!r} is not a probe: use one of {', '.join(PROBES)}")
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit {limit} is invalid: use a positive number of records")
    source, records = load_split(root, lang, probe, variant, allow_partial)
    chosen = records if limit is None else records[:limit]
    if probe in CLOSED_BOOK:
        return source, [closed_book_instance(r, lang, probe) for r in chosen]
    if probe == "chain":
        return source, [chain_instance(r, lang, rank, passage_num) for r in chosen]
    name = source.name
    return source, [replacement_instance(r, records, lang, name, passage_num, seed) for r in chosen]

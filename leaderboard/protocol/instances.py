"""Test instances built exactly as the RGB reference code (evalue.py `processdata`) builds them.

Results are comparable with the paper only if every model sees the same passages in the same order,
so this follows the reference step by step, including its quirks: ceil() on the noise count, the
integration loop that keeps all first passages when there are more groups than positive slots, and
the random calls in the reference order (group shuffles, sample, final shuffle) after seeding
with 2333.
The reference calls `random.seed(2333)` and module-level functions; a private `random.Random(2333)`
yields the same sequence without touching global state (tests/protocol/test_instances.py checks
equality with a literal port of the reference on every record). Records are never mutated: lists
are copied first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import DEFAULT_NOISE_RATES, Ability, Lang, Record, TestInstance
from leaderboard.data.splits import SplitSource, Variant, load_split

REFERENCE_SEED = 2333


def _integration_docs(
    rng: random.Random, record: Record, pos_num: int, passage_num: int
) -> list[str]:
    groups = [
        list(g) for g in record.positive
    ]  # copies: the reference shuffles the record in place
    for g in groups:
        rng.shuffle(g)
    docs = [g[0] for g in groups]
    if len(docs) < pos_num:
        maxnum = max(len(g) for g in groups)
        for i in range(1, maxnum):
            for g in groups:
                if len(g) > i:
                    docs.append(g[i])
                    if len(docs) == pos_num:
                        break
            if len(docs) == pos_num:
                break
    neg_num = passage_num - len(docs)
    if neg_num > 0:
        docs += list(record.negative[:neg_num])
    return docs


def _counterfactual_docs(
    rng: random.Random, record: Record, neg_num: int, passage_num: int, correct_rate: float
) -> list[str]:
    correct_num = math.ceil(passage_num * correct_rate)
    pos_num = passage_num - neg_num - correct_num
    indexs = list(range(len(record.positive)))
    selected = rng.sample(indexs, min(len(indexs), pos_num))
    docs = [record.positive_wrong[i] for i in selected]
    remain = [i for i in indexs if i not in selected]
    if correct_num > 0 and len(remain) > 0:
        picked = rng.sample(remain, min(len(remain), correct_num))
        docs += [record.positive[i] for i in picked]  # type: ignore[misc]
    if neg_num > 0:
        docs += list(record.negative[:neg_num])
    return docs


def _noise_docs(
    record: Record, noise_rate: float, neg_num: int, pos_num: int, passage_num: int
) -> list[str]:
    if noise_rate == 1:
        neg_num, pos_num = passage_num, 0
    elif neg_num > len(record.negative):
        neg_num = len(record.negative)
        pos_num = passage_num - neg_num
    elif pos_num > len(record.positive):
        pos_num = len(record.positive)
        neg_num = passage_num - pos_num
    return list(record.positive[:pos_num]) + list(record.negative[:neg_num])  # type: ignore[arg-type]


def build_instance(
    record: Record,
    lang: Lang,
    ability: Ability,
    noise_rate: float,
    passage_num: int = 5,
    correct_rate: float = 0.0,
    seed: int = REFERENCE_SEED,
) -> TestInstance:
    """One test instance: the record's question with the passages in the order the model sees them.

    passage_num == 0 gives no passages, as the reference does (it skips processdata then).
    """
    rng = random.Random(seed)  # == random.seed(seed) right before processdata in the reference
    if passage_num == 0:
        docs: list[str] = []
    else:
        neg_num = math.ceil(passage_num * noise_rate)
        pos_num = passage_num - neg_num
        if ability == "integration":
            docs = _integration_docs(rng, record, pos_num, passage_num)
        elif ability == "counterfactual":
            docs = _counterfactual_docs(rng, record, neg_num, passage_num, correct_rate)
        else:
            docs = _noise_docs(record, noise_rate, neg_num, pos_num, passage_num)
        rng.shuffle(docs)
    return TestInstance(
        lang=lang,
        ability=ability,
        noise_rate=noise_rate,
        id=record.id,
        query=record.query,
        answer=record.answer,
        docs=tuple(docs),
        fakeanswer=record.fakeanswer,
    )


def _check_rates(rates: Sequence[float]) -> tuple[float, ...]:
    out = tuple(float(r) for r in rates)
    bad = [r for r in out if not 0.0 <= r <= 1.0]
    if bad or not out:
        raise ConfigError(
            f"noise rate {bad[0] if bad else '(none)'} is invalid: use values between 0 and 1 "
            "(e.g. 0, 0.2, 0.4, 0.6, 0.8 for noise, 1.0 for rejection)"
        )
    return out


def build_instances(
    root: Path,
    lang: Lang,
    ability: Ability,
    noise_rates: Sequence[float] | None = None,
    variant: Variant = "refine",
    allow_partial: bool = False,
    limit: int | None = None,
    passage_num: int = 5,
    correct_rate: float = 0.0,
) -> tuple[SplitSource, list[TestInstance]]:
    """All instances of one split: for each noise rate (in the given order), each record in order.

    noise_rates defaults to the RGB protocol (types.DEFAULT_NOISE_RATES); limit keeps the first N
    records.
    """
    rates = _check_rates(DEFAULT_NOISE_RATES[ability] if noise_rates is None else noise_rates)
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit {limit} is invalid: use a positive number of records")
    if passage_num < 0:
        raise ConfigError(f"passage_num {passage_num} is invalid: use 0 or more passages")
    source, records = load_split(root, lang, ability, variant, allow_partial)
    chosen = records if limit is None else records[:limit]
    instances = [
        build_instance(r, lang, ability, rate, passage_num, correct_rate)
        for rate in rates
        for r in chosen
    ]
    return source, instances

"""The knowledge-conflict track: RGB's fact questions asked with true and altered passages side by
side, one condition per passage mix, each a small file in resources/conflicts/<id>.yaml.

Why files: a condition is data a reader compares (the site prints its title and purpose in both
languages) and what builds its instances enters the fingerprint of the answers it produced
(`conditions_sha256`), as the instruction files do.

How an instance is built (the same rule for every condition, so that conditions pair):
- five passages (RGB's count); the condition's true/altered passages sit in slots drawn once per
  record and per number of such passages, so t1f1 and f1t1 (two) and t2f1 and t1f2 (three) put
  theirs in the same slots; the other slots hold the record's first noise passages in order;
- true passages come from `positive`, altered ones from `positive_wrong` (aligned), chosen through
  one shuffled order per record: every condition shows the same first true passage, and an
  altered passage from another source where the record has one (`sources: distinct`), or the
  altered copy of a true passage shown (`sources: same`);
- `rotate: odd` moves the minority role's passage to place (question index mod 3) among the three,
  so majority and order are never confounded; `rotate: alternate` reverses the pair on every other
  question.
Which passages a condition may use is decided outside (scoring.conflict_check: an altered passage
that still states the true answer is no false source) and handed in as `SourceUse`-like pairs of
index sets; a record that cannot fill a condition is left out of it, with the reason, never padded.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, Protocol

import yaml
from pydantic import BaseModel, ConfigDict

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import CONFLICT, Lang, Record, TestInstance
from leaderboard.core.yaml_lines import line_of, validate_yaml_text

PASSAGES = 5  # RGB's passage count: every context has five
SEED = 2333  # the reference seed; a record's draws use SEED + its id
_FOLDER = "conflicts"
RoleName = Literal["true", "fake"]
ROLES = ("true", "fake", "noise")


class Usable(Protocol):
    """The passages of a record a condition may show (scoring.conflict_check.SourceUse)."""

    true: frozenset[int]
    fake: frozenset[int]


class _Bilingual(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    en: str
    zh: str


class _ConditionFile(BaseModel):
    """resources/conflicts/<id>.yaml as written (the edge: unknown fields are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: _Bilingual
    purpose: _Bilingual
    passages: tuple[RoleName, ...]
    sources: Literal["distinct", "same"] = "distinct"
    rotate: Literal["none", "odd", "alternate"] = "none"


@dataclass(frozen=True)
class Condition:
    id: str
    title: dict[str, str]  # interface language -> text
    purpose: dict[str, str]
    passages: tuple[str, ...]  # the roles of the conflict passages in reading order
    sources: str
    rotate: str

    @property
    def n_true(self) -> int:
        return self.passages.count("true")

    @property
    def n_fake(self) -> int:
        return self.passages.count("fake")

    def build_inputs(self) -> dict[str, object]:
        """What builds the instances (not the title or purpose): what the fingerprint hashes."""
        return {"passages": list(self.passages), "sources": self.sources, "rotate": self.rotate}


def _resource(*parts: str):
    return resources.files("leaderboard.protocol").joinpath("resources", *parts)


@cache
def condition_ids() -> tuple[str, ...]:
    """Every condition, in the order the panel shows them."""
    names = {
        p.name[: -len(".yaml")] for p in _resource(_FOLDER).iterdir() if p.name.endswith(".yaml")
    }
    known = [c for c in ORDER if c in names]
    return (*known, *sorted(names - set(known)))


ORDER = ("true_only", "fake_only", "t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2")


def _roles_as_text(data: dict) -> dict:
    """YAML reads a bare `true` as a boolean: in the passages list it names the role "true"."""
    if isinstance(data.get("passages"), list):
        data = {**data, "passages": ["true" if p is True else p for p in data["passages"]]}
    return data


def _check(spec: _ConditionFile, name: str, root: yaml.Node) -> None:
    def fault(field: str, message: str) -> ConfigError:
        return ConfigError(f"{name}:{line_of(root, (field,))}: field '{field}': {message}")

    if not spec.passages:
        raise fault("passages", "a condition shows at least one passage")
    if len(spec.passages) > PASSAGES:
        raise fault("passages", f"at most {PASSAGES} (RGB's passage count)")
    if spec.sources == "same" and spec.passages.count("true") != spec.passages.count("fake"):
        raise fault(
            "sources",
            "'same' pairs each true passage with its own altered copy, so it needs as many true "
            "as fake passages",
        )
    if spec.rotate == "odd" and (len(spec.passages) < 3 or len(set(spec.passages)) < 2):
        raise fault("rotate", "'odd' needs a minority role among three or more passages")


def parse_condition(raw: bytes, name: str, expected_id: str | None = None) -> Condition:
    """One condition file's bytes, validated; ConfigError naming the file, line and field (the
    same reader as model.yaml's: core.yaml_lines)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{name}:1: not UTF-8 ({exc.reason}); save the file as UTF-8") from None
    spec, root = validate_yaml_text(
        text, name, _ConditionFile, ", ".join(_ConditionFile.model_fields), _roles_as_text
    )
    if expected_id is not None and spec.id != expected_id:
        raise ConfigError(
            f"{name}:{line_of(root, ('id',))}: field 'id': {spec.id!r} differs from the file name"
        )
    _check(spec, name, root)
    return Condition(
        id=spec.id,
        title=spec.title.model_dump(),
        purpose=spec.purpose.model_dump(),
        passages=tuple(spec.passages),
        sources=spec.sources,
        rotate=spec.rotate,
    )


@cache
def load_condition(condition_id: str) -> Condition:
    """One condition by id; ConfigError naming the file and field when it is malformed."""
    if condition_id not in condition_ids():
        raise ConfigError(
            f"unknown conflict condition {condition_id!r}: use one of {', '.join(condition_ids())}"
        )
    name = f"leaderboard/protocol/resources/{_FOLDER}/{condition_id}.yaml"
    return parse_condition(
        _resource(_FOLDER, f"{condition_id}.yaml").read_bytes(), name, condition_id
    )


def conditions_sha256() -> str:
    """The hash of what builds every condition's instances: it enters the fingerprint of a
    conflict run's answers (a reworded title does not; a changed passage mix does)."""
    canon = {c: load_condition(c).build_inputs() for c in condition_ids()}
    return hashlib.sha256(json.dumps(canon, sort_keys=True).encode()).hexdigest()


# The panel: the conditions each instruction is asked under. RGB's instruction on every
# condition; the track's own instruction on the two orders of one true and one altered passage,
# paired with RGB's there.
PANEL: Mapping[str, tuple[str, ...] | None] = {"rgb": None, "conflict_aware": ("t1f1", "f1t1")}


def panel_conditions(instruction: str | None) -> tuple[str, ...]:
    """The conditions an instruction is asked under in the panel (None or "rgb": RGB's)."""
    chosen = PANEL.get(instruction or "rgb", ())
    if chosen == ():
        raise ConfigError(
            f"instruction {instruction!r} is not asked in the conflict track: use one of "
            f"{', '.join(PANEL)}"
        )
    return condition_ids() if chosen is None else chosen


@dataclass(frozen=True)
class LeftOut:
    """A record that cannot fill a condition, and why (counted on the page, never padded)."""

    lang: Lang
    condition: str
    id: int
    reason: str


def _order(rng: random.Random, n: int, usable: frozenset[int]) -> list[int]:
    """The record's source indexes in a seeded order, then only the usable ones: the order does
    not depend on what the data check allows, so a changed verdict on one passage moves no other
    condition's passages."""
    out = list(range(n))
    rng.shuffle(out)
    return [i for i in out if i in usable]


def _choose(
    cond: Condition, true_order: list[int], fake_order: list[int]
) -> tuple[list[int], list[int]] | str:
    """The source indexes of the true and altered passages, or why the record cannot fill it."""
    if cond.sources == "same":
        both = [i for i in true_order if i in set(fake_order)]
        if len(both) < cond.n_true:
            return f"needs {cond.n_true} passage(s) usable both true and altered, has {len(both)}"
        return both[: cond.n_true], both[: cond.n_fake]
    if len(true_order) < cond.n_true:
        return f"needs {cond.n_true} usable true passage(s), has {len(true_order)}"
    if len(fake_order) < cond.n_fake:
        return f"needs {cond.n_fake} usable altered passage(s), has {len(fake_order)}"
    trues = true_order[: cond.n_true]
    # another source's altered passage first; the altered copy of a true one shown only when the
    # record has no other. The first true passage is set aside even where none is shown
    # (fake_only), so that fake_only shows t1f1's altered passage
    aside = true_order[: max(cond.n_true, 1)]
    fakes = [i for i in fake_order if i not in aside] + [i for i in fake_order if i in aside]
    return trues, fakes[: cond.n_fake]


def _arranged(cond: Condition, position: int) -> list[str]:
    """The roles of the conflict passages in reading order for the record at `position`."""
    roles = list(cond.passages)
    if cond.rotate == "alternate" and position % 2 == 1:
        roles.reverse()
    elif cond.rotate == "odd":
        odd = min(set(roles), key=roles.count)
        rest = [r for r in roles if r != odd]
        at = position % len(roles)
        roles = [*rest[:at], odd, *rest[at:]]
    return roles


def build_conflict_instance(
    record: Record, lang: Lang, cond: Condition, use: Usable, position: int
) -> TestInstance | str:
    """One instance of a condition for one record, or the reason it cannot be built."""
    seed = SEED + record.id
    rng = random.Random(seed)
    n = len(record.positive)
    true_order = _order(rng, n, use.true)
    fake_order = _order(rng, n, use.fake)
    chosen = _choose(cond, true_order, fake_order)
    if isinstance(chosen, str):
        return chosen
    trues, fakes = chosen
    k = len(cond.passages)
    if len(record.negative) < PASSAGES - k:
        return f"needs {PASSAGES - k} noise passage(s), has {len(record.negative)}"
    slots = sorted(random.Random(seed * 8 + k).sample(range(PASSAGES), k))
    roles = _arranged(cond, position)
    picks = {"true": iter(trues), "fake": iter(fakes)}
    docs: list[str | None] = [None] * PASSAGES
    shown_roles: list[str] = ["noise"] * PASSAGES
    sources: list[str] = [""] * PASSAGES
    for slot, role in zip(slots, roles, strict=True):
        i = next(picks[role])
        docs[slot] = record.positive[i] if role == "true" else record.positive_wrong[i]  # type: ignore[assignment]
        shown_roles[slot] = role
        sources[slot] = f"positive[{i}]" if role == "true" else f"positive_wrong[{i}]"
    noise = iter(range(PASSAGES - k))
    for slot in range(PASSAGES):
        if docs[slot] is None:
            j = next(noise)
            docs[slot] = record.negative[j]
            sources[slot] = f"negative[{j}]"
    return TestInstance(
        lang=lang,
        ability=CONFLICT,
        noise_rate=0.0,
        id=record.id,
        query=record.query,
        answer=record.answer,
        docs=tuple(d for d in docs if d is not None),
        fakeanswer=record.fakeanswer,
        sources=tuple(sources),
        condition=cond.id,
        roles=tuple(shown_roles),
        seed=seed,
    )


def build_conflict_instances(
    records: Sequence[Record],
    lang: Lang,
    conditions: Sequence[str],
    use: Mapping[int, Usable],
    limit: int | None = None,
) -> tuple[list[TestInstance], list[LeftOut]]:
    """Every condition's instances over the first `limit` records (in file order), condition by
    condition, and the records each condition leaves out with why."""
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit {limit} is invalid: use a positive number of records")
    chosen = list(records) if limit is None else list(records)[:limit]
    out: list[TestInstance] = []
    left: list[LeftOut] = []
    for cid in conditions:
        cond = load_condition(cid)
        for position, record in enumerate(chosen):
            if record.id not in use:
                left.append(LeftOut(lang, cid, record.id, "not checked for conflict use"))
                continue
            built = build_conflict_instance(record, lang, cond, use[record.id], position)
            if isinstance(built, str):
                left.append(LeftOut(lang, cid, record.id, built))
            else:
                out.append(built)
    return out, left

"""Which invocations' code is trusted, and the attestation that lets answers from the others count.

The rule: code outside any commit is not trusted. An entry's answers come from one or more
invocations of `run` (results.json, `extra.invocations`); each records its commit and, since this
module, whether the checkout had uncommitted changes (`git_dirty`). An invocation is trusted when it
ran from a clean checkout. For a record written before the field existed, the one invocation whose
state is still known is the one that wrote the provenance block (same `started`); the others' state
was not recorded and they count as untrusted too: nothing says their code was in a commit.

The answers of untrusted invocations are attested by `rgb-leaderboard attest`: from a clean checkout
it re-generates a seeded sample of exactly those answers with the declared model and compares the
text. Every sampled answer must come back identical (greedy decoding, same prompt): code outside a
commit that changed an answer shows up as a difference. The sample is stratified by commit (at least
one answer from the untrusted invocations of every commit, then the rest spread evenly), since two
dirty trees at different commits are different code. The result is `attestation.json` in the entry's
folder; `verify` checks it against the predictions (`check`), and the board ranks an entry only
when every untrusted invocation is covered by a passing attestation (`unattested`).

Which invocation wrote an answer: the last one that started at or before the answer's `created`
time (timestamps to the second; the records are in order).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from leaderboard.backends.base import Backend
from leaderboard.backends.registry import load_backend
from leaderboard.core.checkout import git_state, now_iso, repo_relative
from leaderboard.core.errors import ConfigError, LeaderboardError
from leaderboard.core.files import read_model_json, write_model_json
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.types import ABILITIES
from leaderboard.run.invocations import HISTORY_KEY
from leaderboard.trust.reproduce import (
    DEFAULT_SEED,
    draw_sample,
    environment,
    open_run,
    rebuild_items,
)

ATTEST_NAME = "attestation.json"
SCHEMA = "rgb-leaderboard/attestation/1"
DEFAULT_SAMPLE = 8
State = Literal["clean", "dirty", "unrecorded"]


@dataclass(frozen=True)
class Invocation:
    """One invocation that wrote answers, with the git state of its checkout."""

    started: str
    git_commit: str | None
    state: State
    answers: int


def invocations(results: Results) -> list[Invocation]:
    """The entry's invocations, oldest first, each with its git state (module docstring). A
    results.json without a history is one invocation: the provenance's own."""
    p = results.provenance
    recorded = p.extra.get(HISTORY_KEY)
    history = [h for h in recorded if isinstance(h, dict)] if isinstance(recorded, list) else []
    if not history:
        history = [
            {
                "started": p.started,
                "git_commit": p.git_commit,
                "git_dirty": p.git_dirty,
                "answers": p.extra.get("predictions_in_results"),
            }
        ]
    out = []
    for h in history:
        dirty = h.get("git_dirty") if "git_dirty" in h else None
        if "git_dirty" not in h and h.get("started") == p.started:
            dirty = p.git_dirty  # the invocation that wrote the provenance block
        state: State = "unrecorded" if dirty is None else ("dirty" if dirty else "clean")
        commit = h.get("git_commit")
        answers = h.get("answers")
        out.append(
            Invocation(
                str(h.get("started") or ""),
                str(commit) if commit else None,
                state,
                answers if isinstance(answers, int) else 0,
            )
        )
    return out


def untrusted(results: Results) -> list[Invocation]:
    return [i for i in invocations(results) if i.state != "clean"]


def owner(created: str, starts: Sequence[str]) -> int:
    """The index of the invocation that wrote an answer created at `created` (module docstring)."""
    return max(bisect_right(list(starts), created) - 1, 0)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Checkout(_Strict):
    git_commit: str
    git_dirty: bool


class Covered(_Strict):
    """An untrusted invocation the attestation covers."""

    started: str
    git_commit: str | None
    state: Literal["dirty", "unrecorded"]
    answers: int


class AttestedPair(_Strict):
    key: str
    invocation_started: str  # the invocation that wrote the recorded answer
    identical: bool
    recorded: str
    regenerated: str


class AttestationFile(_Strict):
    """attestation.json: the untrusted invocations, the sample re-generated from a clean checkout,
    and the verdict (every sampled answer identical)."""

    schema_: str = SCHEMA
    submission_id: str
    fingerprint: str
    checkout: Checkout  # where the re-generation ran: a commit, no uncommitted change
    invocations: list[Covered]
    seed: int
    sample: int
    of: int  # answers of the covered invocations, the sample's pool
    pairs: list[AttestedPair]
    passed: bool
    environment: dict[str, object]
    command: str
    created: str

    model_config = ConfigDict(extra="forbid", frozen=True)


def _by_invocation(
    results: Results, mine: Sequence[PredictionRecord]
) -> dict[str, list[PredictionRecord]]:
    """The answers of each untrusted invocation (by its `started`), one record per key."""
    every = invocations(results)
    starts = [i.started for i in every]
    wanted = {i.started for i in every if i.state != "clean"}
    by_key = {r.key: r for r in mine}
    out: dict[str, list[PredictionRecord]] = {s: [] for s in wanted}
    for r in by_key.values():
        s = starts[owner(r.created, starts)]
        if s in wanted:
            out[s].append(r)
    return out


def stratified(groups: dict[str, list[str]], n: int, seed: int) -> list[str]:
    """`n` keys (at least one per group) spread evenly over the groups, each drawn with
    `draw_sample`; sorted."""
    names = sorted(g for g, keys in groups.items() if keys)
    if not names:
        return []
    share = max(1, math.ceil(n / len(names)))
    chosen: list[str] = []
    for g in names:
        chosen += draw_sample(groups[g], share, random.Random(f"{seed}:{g}").randrange(2**31))
    return sorted(chosen)


def attest(
    folder: Path,
    data_root: Path,
    *,
    n: int = DEFAULT_SAMPLE,
    seed: int = DEFAULT_SEED,
    command: str = "",
    backend: Backend | None = None,
    checkout: tuple[str | None, bool | None] | None = None,
) -> AttestationFile:
    """Re-generate a stratified sample of the untrusted invocations' answers and compare the text.
    `checkout` is the (commit, dirty) state of the code doing it (default: this checkout's, with
    the entry's own folder left out); ConfigError unless it is a clean commit."""
    folder = Path(folder)
    commit, dirty = checkout or git_state(ignore=folder)
    if commit is None or dirty is not False:
        raise ConfigError(
            f"{folder}: attest runs from a clean checkout (the code that re-generates must be in "
            "a commit); commit or stash the changes first (`git status`)"
        )
    sub, results, mine = open_run(folder)
    bad = untrusted(results)
    if not bad:
        raise ConfigError(
            f"{folder}: every invocation ran from a clean checkout; nothing to attest"
        )
    by_inv = _by_invocation(results, mine)
    by_commit: dict[str, list[str]] = {}
    owner_of: dict[str, str] = {}
    for inv in bad:
        for r in by_inv.get(inv.started, []):
            by_commit.setdefault(inv.git_commit or "", []).append(r.key)
            owner_of[r.key] = inv.started
    records = {r.key: r for r in mine}
    chosen = [records[k] for k in stratified(by_commit, n, seed)]
    if not chosen:
        raise ConfigError(f"{folder}: the untrusted invocations left no answer to re-generate")
    items = rebuild_items(folder, data_root, sub, results, mine, chosen)
    backend = backend or load_backend(sub)
    completions = backend.generate([it.request for it in items], sub.generation.to_config())
    if len(completions) != len(items):
        raise LeaderboardError(
            f"backend {sub.backend} returned {len(completions)} completions for {len(items)} "
            "requests; this is a backend bug"
        )
    pairs = []
    for rec, c in zip(chosen, completions, strict=True):
        if c.error is not None:
            raise LeaderboardError(f"{rec.key}: the model failed to answer: {c.error}")
        pairs.append(
            AttestedPair(
                key=rec.key,
                invocation_started=owner_of[rec.key],
                identical=c.text == rec.prediction,
                recorded=rec.prediction,
                regenerated=c.text,
            )
        )
    return AttestationFile(
        submission_id=sub.id,
        fingerprint=results.provenance.fingerprint,
        checkout=Checkout(git_commit=commit, git_dirty=False),
        invocations=[
            Covered(
                started=i.started,
                git_commit=i.git_commit,
                state=i.state,  # type: ignore[arg-type]
                answers=len(by_inv.get(i.started, [])),
            )
            for i in bad
        ],
        seed=seed,
        sample=len(pairs),
        of=sum(len(v) for v in by_commit.values()),
        pairs=pairs,
        passed=all(p.identical for p in pairs),
        environment=environment(backend),
        command=repo_relative(command) if command else "",
        created=now_iso(),
    )


def write_attestation(path: Path, result: AttestationFile) -> None:
    write_model_json(path, result)


def read_attestation(path: Path) -> AttestationFile | None:
    """The folder's attestation.json, or None when there is none (a bad file is an error)."""
    fix = f"write it again with `rgb-leaderboard attest {Path(path).parent.as_posix()}`"
    return read_model_json(path, AttestationFile, "an attestation file", fix)


def unattested(
    results: Results,
    attestation: AttestationFile | None,
    records: Sequence[PredictionRecord] | None = None,
) -> list[Invocation]:
    """The untrusted invocations no attestation of this run covers (empty: trusted). A commit's
    invocations are covered when every sampled answer of that commit came back identical, so one
    commit whose answers differ does not discredit another's.

    With the run's `records`, only invocations that wrote answers of the four RGB abilities count:
    those are the answers the ranked score is computed from; a probe's answers (closed book,
    chain, replacement) never change a rank (the model page says what was not attested)."""
    left = untrusted(results)
    if attestation is not None and attestation.fingerprint == results.provenance.fingerprint:
        commit_of = {c.started: c.git_commit for c in attestation.invocations}
        bad = {commit_of.get(p.invocation_started) for p in attestation.pairs if not p.identical}
        sampled = {commit_of.get(p.invocation_started) for p in attestation.pairs}
        ok = {
            c.started
            for c in attestation.invocations
            if c.git_commit in sampled and c.git_commit not in bad
        }
        left = [i for i in left if i.started not in ok]
    if records is None or not left:
        return left
    starts = [i.started for i in invocations(results)]
    ranked = {starts[owner(r.created, starts)] for r in records if r.ability in ABILITIES}
    return [i for i in left if i.started in ranked]


def check(folder: Path) -> list[str]:
    """What `verify` finds wrong with a folder's attestation.json (empty: none, or it holds):
    each sampled answer must be the one recorded now, written by a covered invocation, and the
    verdict must follow from the pairs."""
    found = read_attestation(Path(folder) / ATTEST_NAME)
    if found is None:
        return []
    path = (Path(folder) / ATTEST_NAME).as_posix()
    _, results, mine = open_run(Path(folder))
    if found.fingerprint != results.provenance.fingerprint:
        return [
            f"{path}: fingerprint {found.fingerprint}, the run's is "
            f"{results.provenance.fingerprint}; attest the run again"
        ]
    problems = []
    if found.checkout.git_dirty:
        problems.append(f"{path}: checkout: re-generated from uncommitted code")
    if found.passed != all(p.identical for p in found.pairs) or not found.pairs:
        problems.append(f"{path}: passed: does not follow from the pairs")
    starts = [i.started for i in invocations(results)]
    covered = {c.started for c in found.invocations}
    records = {r.key: r for r in mine}
    for p in found.pairs:
        rec = records.get(p.key)
        if rec is None or rec.prediction != p.recorded:
            problems.append(f"{path}: pairs[{p.key}]: recorded text is not the answer on record")
        elif starts[owner(rec.created, starts)] != p.invocation_started:
            problems.append(
                f"{path}: pairs[{p.key}]: not written by invocation {p.invocation_started}"
            )
        if p.identical != (p.recorded == p.regenerated):
            problems.append(f"{path}: pairs[{p.key}]: identical does not match the texts")
        if p.invocation_started not in covered:
            problems.append(f"{path}: pairs[{p.key}]: invocation not among those covered")
    return problems


def verify_attestations(folders: Sequence[Path]) -> tuple[list[str], int]:
    """`verify`'s lines for every folder with an attestation.json, and how many failed."""
    lines: list[str] = []
    failed = 0
    for folder in folders:
        if not (Path(folder) / ATTEST_NAME).is_file():
            continue
        problems = check(Path(folder))
        failed += bool(problems)
        lines += problems or [f"ok: {(Path(folder) / ATTEST_NAME).as_posix()}"]
    return lines, failed

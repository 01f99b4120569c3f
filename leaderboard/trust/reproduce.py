"""Were the recorded answers made by the declared model? Regenerate a seeded sample and compare.

`verify` recomputes results.json from the predictions, so an edited predictions file, rescored,
passes it: nothing there ties an answer to the model. `reproduce` regenerates a sample of the
recorded prompts with the model.yaml's model and settings and compares each answer with the
recorded one: identical text, the same judgement in both scoring modes (labels, correct,
rejected, error detected), or different.

The sample is a pure function of the seed and the recorded keys (sorted, then
`random.Random(seed).sample`), so anyone reruns the same sample. The prompts are the recorded
ones: the instances are rebuilt from the data files the run recorded (as `verify` does) and each
prompt and passage hash must equal the record's, or the answer is not regenerated at all.

What agreement to expect (docs/reproduce.md): greedy decoding on the same backend,
library versions and device gives identical text. Another machine, another CPU instruction set or
GPU kernels reorder floating-point sums; a near-tie between two tokens then flips and the text
diverges from there, usually without changing the judgement. Two thresholds: MIN_AGREEMENT,
the share of sampled answers with the same judgement in both modes (0.75: drift that flips a
label now and then passes, an edit that changes scores fails), and MIN_IDENTICAL, the share with
identical text (0.5: an edit that keeps the labels, e.g. one refusal replaced by another, still
fails, while a machine whose kernels drift on some long answers passes). Both are options of the
command.
"""

from __future__ import annotations

import platform
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from leaderboard.backends.base import Backend
from leaderboard.backends.registry import load_backend
from leaderboard.core.checkout import now_iso, repo_relative
from leaderboard.core.errors import ConfigError, LeaderboardError, ResultsError
from leaderboard.core.files import read_model_json, write_model_json
from leaderboard.core.schema import PredictionRecord, Provenance, Results
from leaderboard.core.submission import Submission
from leaderboard.core.types import MODES, Score, TestInstance
from leaderboard.data.view import recorded_view
from leaderboard.run.fingerprint import fingerprint
from leaderboard.run.invocations import HISTORY_KEY, machines
from leaderboard.run.plan import WorkItem, build_plan, protocol_abilities
from leaderboard.run.provenance import recorded_instruction
from leaderboard.run.selection import Selection as RunSelection
from leaderboard.run.store import RunStore
from leaderboard.scoring.score import score_both
from leaderboard.trust.verify import run_submission_of

REPRODUCE_NAME = "reproduce.json"
SCHEMA = "rgb-leaderboard/reproduce/1"
DEFAULT_SAMPLE = 8
DEFAULT_SEED = 2333
MIN_AGREEMENT = 0.75  # least share with the same judgement in both modes (module docstring)
MIN_IDENTICAL = 0.5  # least share with identical text (module docstring)
Outcome = Literal["identical", "same_labels", "different"]
_SHOWN_CHARS = 300  # a differing pair is printed up to this many characters per side


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Selection(_Strict):
    """Which recorded answers the sample was drawn from (None: all)."""

    langs: list[str] | None = None
    abilities: list[str] | None = None
    noise_rates: list[float] | None = None


class Pair(_Strict):
    key: str
    outcome: Outcome
    recorded: str
    regenerated: str
    judgement_recorded: dict[str, list[int | bool]]
    judgement_regenerated: dict[str, list[int | bool]]


class Agreement(_Strict):
    identical: int
    same_labels: int
    different: int
    rate: float  # (identical + same_labels) / sample
    threshold: float
    identical_rate: float  # identical / sample
    min_identical: float
    passed: bool  # rate >= threshold and identical_rate >= min_identical


class ReproduceFile(_Strict):
    """reproduce.json: what was regenerated, how it compared, on what machine, by what command."""

    schema_: str = SCHEMA
    submission_id: str
    fingerprint: str
    seed: int
    sample: int
    of: int  # recorded answers the sample was drawn from
    selection: Selection
    keys: list[str]
    agreement: Agreement
    pairs: list[Pair]  # every sampled answer
    environment: dict[str, object]
    recorded_environment: dict[str, object]
    command: str
    created: str

    model_config = ConfigDict(extra="forbid", frozen=True)

    def summary(self) -> str:
        """The model page's sentence: 're-generated 16 of 2,800 answers: 16 identical'."""
        a = self.agreement
        parts = [f"{a.identical} identical"]
        if a.same_labels:
            parts.append(f"{a.same_labels} with the same labels")
        if a.different:
            parts.append(f"{a.different} different")
        return f"re-generated {self.sample} of {self.of:,} answers: " + ", ".join(parts)


@dataclass(frozen=True)
class Drawn:
    """The sampled records with their rebuilt work items (prompt hashes checked)."""

    submission: Submission
    fingerprint: str
    of: int
    records: list[PredictionRecord]
    items: list[WorkItem]


def draw_sample(keys: Sequence[str], n: int, seed: int) -> list[str]:
    """`n` keys chosen by `seed` from `keys` (sorted first, so the order on disk does not
    matter), returned sorted."""
    pool = sorted(set(keys))
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))))


def _selected(r: PredictionRecord, sel: Selection) -> bool:
    return (
        (sel.langs is None or r.lang in sel.langs)
        and (sel.abilities is None or r.ability in sel.abilities)
        and (sel.noise_rates is None or any(abs(r.noise_rate - x) < 1e-9 for x in sel.noise_rates))
    )


def open_run(folder: Path) -> tuple[Submission, Results, list[PredictionRecord]]:
    """The submission, its results.json and its answers under the recorded fingerprint (failed
    generations are not answers); an error when model.yaml's settings changed since the run. An
    instruction-track folder is read under its instruction (trust.verify.run_submission_of)."""
    store = RunStore(folder)
    old = store.read_results()
    sub, instruction = run_submission_of(folder, old)
    fp = old.provenance.fingerprint
    if fingerprint(sub, instruction) != fp:
        raise ResultsError(
            f"{folder}: model.yaml gives fingerprint {fingerprint(sub, instruction)}, the run "
            f"recorded {fp}: the settings changed since; rerun the submission first"
        )
    return sub, old, [r for r in store.read().records if r.fingerprint == fp and r.error is None]


def draw(folder: Path, data_root: Path, n: int, seed: int, selection: Selection) -> Drawn:
    """The seeded sample of the current run's answers (failed generations are not answers) and
    their requests rebuilt from the recorded data; ResultsError when a prompt differs."""
    folder = Path(folder)
    sub, old, mine = open_run(folder)
    fp = old.provenance.fingerprint
    pool = [r for r in mine if _selected(r, selection)]
    if not pool or n < 1:
        raise ConfigError(f"{folder}: no recorded answer matches the selection (or --sample < 1)")
    by_key = {r.key: r for r in pool}
    chosen = [by_key[k] for k in draw_sample(list(by_key), n, seed)]
    items = rebuild_items(folder, data_root, sub, old, mine, chosen)
    return Drawn(sub, fp, len(pool), chosen, items)


def rebuild_items(
    folder: Path,
    data_root: Path,
    sub: Submission,
    results: Results,
    mine: Sequence[PredictionRecord],
    chosen: Sequence[PredictionRecord],
) -> list[WorkItem]:
    """The work items of `chosen` rebuilt from the data files the run recorded (`mine`: the run's
    answers, which say which probes it ran); ResultsError when a prompt or passage hash differs
    from the record's, since then the regenerated answer would answer another question."""
    selection = RunSelection(
        abilities=tuple(protocol_abilities(sub, mine)),
        instruction=recorded_instruction(results),
    )
    with recorded_view(data_root, results.provenance.data_blob_ids) as view:
        plan = build_plan(sub, view, selection)
    items = {it.instance.key: it for it in plan.items}
    bad = [
        r.key
        for r in chosen
        if r.key not in items
        or items[r.key].prompt_sha256 != r.prompt_sha256
        or items[r.key].passage_sha256 != tuple(r.passage_sha256)
    ]
    if bad:
        raise ResultsError(
            f"{folder}: {len(bad)} sampled answer(s) were not made from the prompt rebuilt from "
            f"the recorded data (first: {bad[0]}); run `rgb-leaderboard verify {folder}`"
        )
    return [items[r.key] for r in chosen]


def _judgement(text: str, inst: TestInstance) -> dict[str, list[int | bool]]:
    scores: dict[str, Score] = score_both(text, inst)  # type: ignore[assignment]
    return {
        m: [*scores[m].labels, scores[m].correct, scores[m].rejected, scores[m].error_detected]
        for m in MODES
    }


def compare(record: PredictionRecord, inst: TestInstance, text: str) -> Pair:
    """One recorded answer against its regeneration."""
    old, new = _judgement(record.prediction, inst), _judgement(text, inst)
    outcome: Outcome = (
        "identical" if text == record.prediction else ("same_labels" if old == new else "different")
    )
    return Pair(
        key=record.key,
        outcome=outcome,
        recorded=record.prediction,
        regenerated=text,
        judgement_recorded=old,
        judgement_regenerated=new,
    )


def environment(backend: Backend) -> dict[str, object]:
    try:
        described = backend.describe().as_dict()
    except Exception as exc:
        described = {"describe_error": str(exc)}
    keep = ("backend", "model", "device", "dtype", "versions", "batch_size")
    env = {k: described[k] for k in keep if k in described}
    return {**env, "python": sys.version.split()[0], "platform": platform.platform()}


def _recorded_environment(old: Provenance) -> dict[str, object]:
    """Where the recorded answers came from: the last run's device and versions and, when the
    results record it, every machine that wrote answers (a run resumed elsewhere)."""
    history = old.extra.get(HISTORY_KEY)
    env: dict[str, object] = {"device": old.device, "versions": old.versions}
    if isinstance(history, list) and history:
        env["machines"] = [{"device": d, "build": b, "answers": n} for d, b, n in machines(history)]
    return env


def reproduce(
    folder: Path,
    data_root: Path,
    *,
    n: int = DEFAULT_SAMPLE,
    seed: int = DEFAULT_SEED,
    selection: Selection | None = None,
    threshold: float = MIN_AGREEMENT,
    min_identical: float = MIN_IDENTICAL,
    command: str = "",
    backend: Backend | None = None,
) -> ReproduceFile:
    """Regenerate the sample with the declared model (or `backend`, for tests) and compare."""
    selection = selection or Selection()
    drawn = draw(folder, data_root, n, seed, selection)
    backend = backend or load_backend(drawn.submission)
    config = drawn.submission.generation.to_config()
    completions = backend.generate([it.request for it in drawn.items], config)
    if len(completions) != len(drawn.items):
        raise LeaderboardError(
            f"backend {drawn.submission.backend} returned {len(completions)} completions for "
            f"{len(drawn.items)} requests; this is a backend bug"
        )
    pairs = []
    for rec, it, c in zip(drawn.records, drawn.items, completions, strict=True):
        if c.error is not None:
            raise LeaderboardError(f"{rec.key}: the model failed to answer: {c.error}")
        pairs.append(compare(rec, it.instance, c.text))
    counts = {o: sum(p.outcome == o for p in pairs) for o in ("identical", "same_labels")}
    rate = (counts["identical"] + counts["same_labels"]) / len(pairs)
    identical_rate = counts["identical"] / len(pairs)
    old = RunStore(folder).read_results().provenance
    return ReproduceFile(
        submission_id=drawn.submission.id,
        fingerprint=drawn.fingerprint,
        seed=seed,
        sample=len(pairs),
        of=drawn.of,
        selection=selection,
        keys=[r.key for r in drawn.records],
        agreement=Agreement(
            identical=counts["identical"],
            same_labels=counts["same_labels"],
            different=len(pairs) - sum(counts.values()),
            rate=rate,
            threshold=threshold,
            identical_rate=identical_rate,
            min_identical=min_identical,
            passed=rate >= threshold and identical_rate >= min_identical,
        ),
        pairs=pairs,
        environment=environment(backend),
        recorded_environment=_recorded_environment(old),
        command=repo_relative(command) if command else "",
        created=now_iso(),
    )


def write_reproduce(path: Path, result: ReproduceFile) -> None:
    write_model_json(path, result)


def read_reproduce(path: Path) -> ReproduceFile | None:
    """The folder's reproduce.json, or None when there is none (a bad file is an error)."""
    fix = f"regenerate it with `rgb-leaderboard reproduce {Path(path).parent.as_posix()}`"
    return read_model_json(path, ReproduceFile, "a reproduce file", fix)


def render(result: ReproduceFile) -> str:
    """What the command prints: the summary, the agreement against the threshold, and every pair
    that is not identical."""
    a = result.agreement
    verdict = "ok" if a.passed else "FAIL"
    lines = [
        f"{verdict}: {result.submission_id}: {result.summary()} (seed {result.seed}); same "
        f"judgement {a.rate:.0%} (at least {a.threshold:.0%}), identical text "
        f"{a.identical_rate:.0%} (at least {a.min_identical:.0%})"
    ]
    env = result.recorded_environment
    recorded = env.get("machines")
    if not isinstance(recorded, list):  # a results.json without a history: its last device
        recorded = [{"device": env.get("device")}]
    devices = list(dict.fromkeys(str(m.get("device")) for m in recorded if isinstance(m, dict)))
    now = str(result.environment.get("device"))
    if any(d != now for d in devices):  # a check across machines: say so
        lines.append(f"  recorded on {' and '.join(devices)}; regenerated on {now}")
    for p in result.pairs:
        if p.outcome == "identical":
            continue
        label = "same labels" if p.outcome == "same_labels" else "DIFFERENT"
        lines.append(f"  {p.key}: {label}")
        lines.append(f"    recorded:    {p.recorded[:_SHOWN_CHARS]!r}")
        lines.append(f"    regenerated: {p.regenerated[:_SHOWN_CHARS]!r}")
    return "\n".join(lines)

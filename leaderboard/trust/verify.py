"""The trust chain from predictions to the board: recompute a results.json from its predictions
with the current code and data, and say exactly what differs (`rgb-leaderboard verify`), or write
the recomputed file (`rgb-leaderboard rescore`).

Recomputed: the submission's own protocol (run plan plus the probes it ran), rebuilt from the data
files the run recorded (data/view.py), restricted to instances with a prediction of the recorded
fingerprint, whose prompt and passage hashes must match; scored and aggregated as the runner does
(run.assemble), with no backend; then compared with the file (trust/differences.py says what is
compared and what is not).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from leaderboard.backends.registry import backend_traits
from leaderboard.core.entry_folders import (
    CONFLICTS_DIR,
    INSTRUCTIONS_DIR,
    instruction_folder_entry,
    is_conflict_folder,
)
from leaderboard.core.errors import ConfigError, DataError, LeaderboardError
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.submission import SUBMISSION_FILE, Submission, load_submission
from leaderboard.core.text import REPLACEMENT
from leaderboard.core.types import LANGS
from leaderboard.data.view import recorded_view
from leaderboard.run import provenance as prov
from leaderboard.run.assemble import assemble_results, planned_answers, score_planned
from leaderboard.run.fingerprint import fingerprint
from leaderboard.run.generate import GenStats
from leaderboard.run.plan import Plan, build_plan, protocol_abilities
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from leaderboard.scoring.outcome import ScoredItem
from leaderboard.stats.version import scoring_version
from leaderboard.trust.differences import Mismatch, compare_results


@dataclass
class Recomputed:
    folder: Path
    old: Results
    new: Results | None  # None when the predictions could not be scored at all
    problems: list[str] = field(default_factory=list)  # fingerprint, prompt hash, data, text
    notes: list[str] = field(default_factory=list)
    checked: int = 0  # predictions checked against their instances
    # the answers checked, as (instance shown, prediction, error): the statement judge's check
    answers: list | None = None


@dataclass
class VerifyReport:
    recomputed: Recomputed
    mismatches: list[Mismatch]

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.recomputed.problems

    @property
    def version_mismatch(self) -> tuple[str | None, str] | None:
        old = self.recomputed.old.provenance.scoring_version
        now = scoring_version()
        return None if old == now else (old, now)

    def render(self) -> str:
        rc = self.recomputed
        name = rc.folder.as_posix()
        if self.ok:
            return (
                f"ok: {name}: {len(rc.old.cells)} cells and {len(rc.old.scores)} scores "
                f"recomputed from {rc.checked} predictions, identical; fingerprint "
                f"{rc.old.provenance.fingerprint}, scoring version {scoring_version()}"
            )
        lines = [f"FAIL: {name}"]
        vm = self.version_mismatch
        if vm is not None:
            lines.append(
                f"  scoring version: results.json was scored by {vm[0] or '(none recorded)'}, "
                f"the current scoring code is {vm[1]} (scoring code, statistics or phrase tables "
                "changed since)"
            )
        lines += [f"  {p}" for p in rc.problems]
        numbers = [m for m in self.mismatches if m.where != "provenance.scoring_version"]
        if numbers:
            lines.append(f"  {len(numbers)} recomputed value(s) differ:")
            lines += [f"    {m}" for m in numbers]
        elif vm is not None and rc.new is not None:
            lines.append("  (every recomputed number is unchanged; only the version differs)")
        lines.append(
            f"  regenerate it from the predictions (no model is loaded): "
            f"rgb-leaderboard rescore {name}"
        )
        return "\n".join(lines)


def _check_records(
    plan: Plan, records: list[PredictionRecord], rc: Recomputed, decoded: bool
) -> dict[str, PredictionRecord]:
    """The records whose instance is in the rebuilt plan with the same prompt and passages."""
    items = {it.instance.key: it for it in plan.items}
    kept: dict[str, PredictionRecord] = {}
    outside, bad = [], []
    for r in records:
        it = items.get(r.key)
        if it is None:
            outside.append(r.key)
            continue
        if r.prompt_sha256 != it.prompt_sha256 or tuple(r.passage_sha256) != it.passage_sha256:
            bad.append(r.key)
            continue
        kept[r.key] = r
    if bad:
        rc.problems.append(
            f"prompt hash: {len(bad)} prediction(s) were made from a prompt other than the "
            f"instance rebuilt from the data now (first: {bad[0]})"
        )
    if outside:
        rc.notes.append(
            f"{len(outside)} prediction(s) are not instances of the submission's protocol and "
            f"are left out (first: {outside[0]})"
        )
    # Only text decoded from model tokens can stop inside a character; a scripted policy copies
    # passages, some of which end in U+FFFD in the data itself.
    broken = [r.key for r in kept.values() if decoded and r.prediction.endswith(REPLACEMENT)]
    if broken:
        rc.problems.append(
            f"text: {len(broken)} prediction(s) end inside a character (U+FFFD, first: "
            f"{broken[0]}); run `rgb-leaderboard predictions repair {rc.folder.as_posix()}`"
        )
    rc.checked = len(kept)
    return kept


def _records(
    folder: Path,
) -> tuple[RunStore, Results, Submission, list[PredictionRecord], Recomputed]:
    """The folder's results.json, submission, the predictions of its fingerprint, and the
    record of what is wrong with them so far."""
    folder = Path(folder)
    store = RunStore(folder)
    old = store.read_results()
    sub, instruction = run_submission_of(folder, old)
    rc = Recomputed(folder, old, None)
    fp = old.provenance.fingerprint
    now = fingerprint(sub, instruction, prov.recorded_conflicts(old) is not None)
    if now != fp:
        rc.problems.append(
            f"fingerprint: results.json records {fp}, model.yaml gives {now} now (a setting "
            "that changes outputs was edited after the run)"
        )
    read = store.read()
    records = [r for r in read.records if r.fingerprint == fp]
    others = sorted({r.fingerprint for r in read.records} - {fp})
    if others:
        rc.problems.append(
            f"fingerprint: predictions of other settings are in the folder ({', '.join(others)})"
        )
    return store, old, sub, records, rc


def recompute(folder: Path, data_root: Path) -> Recomputed:
    """Rebuild the instances, check the predictions against them and rescore (module docstring);
    LeaderboardError when results.json, model.yaml or the recorded data is missing."""
    _, old, sub, records, rc = _records(folder)
    # rebuilt from the files the run recorded (data/view.py: a partial stand-in stays one)
    with recorded_view(data_root, old.provenance.data_blob_ids) as view:
        return _rescored(sub, view, records, rc)


def scored_answers(folder: Path, data_root: Path) -> list[ScoredItem]:
    """Every answer of a run folder scored against its instance rebuilt as `verify` rebuilds it
    (the predictions that match their instance only): what per-answer listings read."""
    _, old, sub, records, rc = _records(folder)
    with recorded_view(data_root, old.provenance.data_blob_ids) as view:
        kept = _kept(sub, view, records, rc)
        if kept is None:
            return []
        plan, by_key = kept
        return score_planned(sub, plan, by_key)


def run_submission_of(folder: Path, old: Results) -> tuple[Submission, str | None]:
    """The submission a run folder's answers came from and the instruction they were made under:
    the folder's own model.yaml with RGB's instruction, or, for an instruction-track folder
    (entry/instructions/<id>/), the entry's model.yaml with the instruction results.json records;
    ConfigError when the folder and the record disagree (answers of one instruction must never
    sit in another's folder)."""
    entry = instruction_folder_entry(folder) or folder
    if not (entry / SUBMISSION_FILE).is_file():
        raise ConfigError(f"{folder}: no {SUBMISSION_FILE}; cannot rebuild the instances")
    instruction = prov.recorded_instruction(old)
    conflicts = prov.recorded_conflicts(old) is not None
    if conflicts != is_conflict_folder(folder):
        raise ConfigError(
            f"{folder}: the conflict track's answers belong in <entry>/{CONFLICTS_DIR}/<id>/ "
            "and only there"
        )
    if conflicts:
        if folder.name != (instruction or "rgb"):
            raise ConfigError(
                f"{folder}: results.json records instruction {instruction or 'rgb'!r}, the "
                f"folder is named {folder.name!r}"
            )
        return load_submission(entry), instruction
    if entry != folder and instruction is None:
        raise ConfigError(
            f"{folder}: results.json records instruction {instruction or 'rgb'!r}; an "
            f"alternative instruction's answers belong in <entry>/{INSTRUCTIONS_DIR}/<id>/ and "
            "only there"
        )
    if instruction is not None and folder.name != instruction:
        raise ConfigError(
            f"{folder}: results.json records instruction {instruction!r}, the folder is named "
            f"{folder.name!r}"
        )
    return load_submission(entry), instruction


def _recorded_allow_partial(old: Results) -> bool | None:
    """The run's allow_partial_data as results.json records it (None: not recorded, the YAML's).
    The run's limit needs no such care: the whole protocol is rebuilt and only instances with a
    prediction are kept, and a limited run's instances are a prefix of each split."""
    choices = old.provenance.extra.get(prov.DATA_CHOICES)
    allow = choices.get("allow_partial_data") if isinstance(choices, dict) else None
    return allow if isinstance(allow, bool) else None


def _kept(
    sub: Submission, view: Path, records: list[PredictionRecord], rc: Recomputed
) -> tuple[Plan, dict[str, PredictionRecord]] | None:
    """The plan rebuilt from `view` narrowed to the instances whose prediction matches them, and
    those predictions by key (None, with the problem recorded, when none does)."""
    old = rc.old
    try:
        # only the languages and abilities the predictions hold: the view has just the files the
        # run recorded (a run narrowed by --languages/--abilities recorded fewer), and a recorded
        # file missing here still fails the rebuild with its name
        held_langs = {r.lang for r in records}
        held_abilities = {r.ability for r in records}
        langs = tuple(lang for lang in LANGS if lang in held_langs)
        abilities = tuple(a for a in protocol_abilities(sub, records) if a in held_abilities)
        allow = _recorded_allow_partial(old)
        conflicts = prov.recorded_conflicts(old)
        selection = Selection(
            languages=langs,
            abilities=None if conflicts is not None else abilities,
            allow_partial_data=allow,
            instruction=prov.recorded_instruction(old),
            conflicts=conflicts,
        )
        full = build_plan(sub, view, selection)
    except (ConfigError, DataError) as exc:
        raise LeaderboardError(f"{rc.folder}: cannot rebuild the instances: {exc}") from exc
    kept = _check_records(full, records, rc, decoded=backend_traits(sub.backend).decodes_tokens)
    if not kept:
        rc.problems.append("predictions: none matches an instance of the protocol")
        return None
    used = {(k.split("/")[0], k.split("/")[1]) for k in kept}
    plan = Plan(
        splits=[s for s in full.splits if (s.lang, s.ability) in used],
        skipped=full.skipped,
        partial_reasons=full.partial_reasons,
        items=[it for it in full.items if it.instance.key in kept],
        instruction=full.instruction,
        conflicts=full.conflicts,
        left_out=full.left_out,
        expected=full.expected,
    )
    return plan, kept


def _rescored(
    sub: Submission, view: Path, records: list[PredictionRecord], rc: Recomputed
) -> Recomputed:
    """The predictions checked against the instances rebuilt from `view`, then scored."""
    p = rc.old.provenance
    got = _kept(sub, view, records, rc)
    if got is None:
        return rc
    plan, kept = got
    rc.answers = planned_answers(sub, plan, kept)
    rc.new = assemble_results(
        sub,
        plan,
        kept,
        p.fingerprint,
        GenStats(),
        None,
        rc.old,
        started=p.started,
        wall_s=p.wall_time_s,
        command=p.command,
        resamples=rc.old.bootstrap.resamples,
    )
    return rc


def verify(folder: Path, data_root: Path) -> VerifyReport:
    rc = recompute(folder, data_root)
    mismatches = compare_results(rc.old, rc.new) if rc.new is not None else []
    return VerifyReport(rc, mismatches)

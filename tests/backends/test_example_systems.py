"""The systems others copy, run for real: the minimal example system (a subprocess on 127.0.0.1,
as docs/probes.md starts it) through `run` and `verify`, and the reference system through the
runner, checked never to see RGB's labels: the bodies hold only the question and the language,
and the corpus it searches holds only ids and texts."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml
from typer.testing import CliRunner

from leaderboard.backends.system_contract import check_answer
from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.data.splits import load_split
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import read_predictions

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _export(root: Path, out: Path, limit: int) -> Path:
    for lang in ("zh", "en"):
        args = ["corpus", "export", "--lang", lang, "--out", str(out / f"corpus-{lang}.jsonl")]
        res = CliRunner().invoke(app, [*args, "--data-dir", str(root), "--limit", str(limit)])
        assert res.exit_code == 0 and "CC BY-NC-SA 4.0" in res.output, res.output
    return out


def _submission(folder: Path, url: str) -> Path:
    folder.mkdir(parents=True)
    spec = {
        "id": folder.name,
        "display_name": folder.name,
        "model": folder.name,
        "backend": "system",
        "system": {"url": url, "concurrency": 2, "timeout_s": 60, "max_retries": 1},
        "run": {"abilities": ["chain"], "allow_partial_data": True},
    }
    (folder / "model.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    return folder / "model.yaml"


def test_the_minimal_system_runs_and_verifies(rgb_root: Path, tmp_path: Path) -> None:
    corpus = _export(rgb_root, tmp_path / "corpus", 3)
    script = REPO / "examples" / "systems" / "minimal_system.py"
    assert len(script.read_text(encoding="utf-8").splitlines()) <= 70  # "about 50 lines"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(script), "--corpus-dir", str(corpus), "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and "listening on" in proc.stdout.readline()
        got = httpx.post(f"http://127.0.0.1:{port}/", json={"question": "谁?", "lang": "zh"})
        assert not isinstance(check_answer(got.json(), "zh"), str)  # the copyable one keeps it
        sub = _submission(tmp_path / "minimal", f"http://127.0.0.1:{port}/")
        res = CliRunner().invoke(
            app,
            ["run", str(sub.parent), "--limit", "3", "--no-progress", "--data-dir", str(rgb_root)],
        )
        assert res.exit_code == 0, res.output
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    recs = read_predictions(sub.parent)
    assert len(recs) == 6 and not any(r.error for r in recs)
    assert all(len(r.passage_ids) == 5 and r.passage_ids[0][:3] == f"{r.lang}-" for r in recs)
    res = CliRunner().invoke(app, ["verify", str(sub.parent), "--data-dir", str(rgb_root)])
    assert res.exit_code == 0 and res.output.startswith("ok:"), res.output


def test_the_reference_system_never_sees_rgb_labels(rgb_root: Path, tmp_path: Path) -> None:
    from examples.systems.reference_system import RagSystem, read_corpus, refuse_generator, serve

    corpus = _export(rgb_root, tmp_path / "corpus", 3)
    rows = {lang: read_corpus(corpus / f"corpus-{lang}.jsonl") for lang in ("zh", "en")}
    for lang in ("zh", "en"):  # the export is ids and texts: no positive/negative mark, no answer
        lines = (corpus / f"corpus-{lang}.jsonl").read_text(encoding="utf-8").splitlines()
        assert all(set(json.loads(x)) == {"id", "text"} for x in lines)
    system = RagSystem(rows, "bm25", refuse_generator())
    httpd = serve(system)
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/"
        sub = load_submission(_submission(tmp_path / "reference", url))
        run_submission(sub, RunOptions(root=rgb_root, selection=Selection(limit=3), progress=False))
    finally:
        httpd.shutdown()
    assert len(system.bodies) == 6
    gold: set[str] = set()
    for lang in ("zh", "en"):
        _, records = load_split(rgb_root, lang, "chain", allow_partial=True)  # type: ignore[arg-type]
        questions = {r.query for r in records[:3]}
        assert {b["question"] for b in system.bodies if b["lang"] == lang} == questions
        for r in records[:3]:
            gold |= {p for p in r.positive if isinstance(p, str)} | set(r.negative)
    for body in system.bodies:
        assert set(body) == {"question", "lang"}  # never passages, a prompt or an answer
        assert not any(text in json.dumps(body, ensure_ascii=False) for text in gold)
    recs = read_predictions(tmp_path / "reference")
    assert all(r.passage_sha256 == [] and len(r.passage_ids) == 5 for r in recs)


def test_the_reference_script_waits_for_the_system(rgb_root: Path, tmp_path: Path) -> None:
    """scripts/reference_system.sh: export (limited), start the floor on the submission's port,
    run, stop."""
    port = _free_port()
    sub = _submission(tmp_path / "floor", f"http://127.0.0.1:{port}/")
    env = {
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "PYTHON": sys.executable,
        "RGB_CORPUS_DIR": str(tmp_path / "corpus"),
        "RGB_CORPUS_LIMIT": "2",
    }
    cmd = ["bash", "scripts/reference_system.sh", str(sub.parent), "none", "refuse"]
    res = subprocess.run(
        [*cmd, "--limit", "2", "--no-progress"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    recs = read_predictions(sub.parent)
    assert len(recs) == 4 and all(r.passage_ids == [] and not r.error for r in recs)
    time.sleep(0.2)
    with pytest.raises(httpx.TransportError):  # the system was stopped
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)


@pytest.mark.slow
def test_the_reference_llm_reader_answers_from_the_shown_passages(
    rgb_root: Path, tmp_path: Path, smollm2: tuple[Path, str]
) -> None:
    """The committed Qwen reference systems' reader (`--generator llamacpp:FILE.gguf`), here on
    the SmolLM2 GGUF: greedy, RGB's prompt with the retrieved passages, a real answer."""
    pytest.importorskip("llama_cpp", reason="pip install 'rgb-leaderboard[llamacpp]'")
    from examples.systems.reference_system import RagSystem, llamacpp_generator, read_corpus

    corpus = _export(rgb_root, tmp_path / "corpus", 3)
    rows = {lang: read_corpus(corpus / f"corpus-{lang}.jsonl") for lang in ("zh", "en")}
    generate = llamacpp_generator(smollm2[0] / smollm2[1], max_tokens=24)
    system = RagSystem(rows, "bm25", generate)
    _, records = load_split(rgb_root, "en", "chain", allow_partial=True)
    first = system.answer(records[0].query, "en")
    again = system.answer(records[0].query, "en")
    known = {row[0] for row in rows["en"]}
    checked = check_answer(first, "en", known)
    assert isinstance(checked, tuple), checked  # within the contract
    answer, ids = checked
    assert first == again and answer.strip()  # greedy: the same answer twice
    assert len(ids) == 5


def test_a_system_pasting_its_top_passage_is_judged_a_copy(rgb_root: Path, tmp_path: Path) -> None:
    """The trivial system strategy (BM25, then the top passage pasted whole) through the runner:
    `rgb` credits the substring, strict's copy rule reads the question's own passages (a system's
    instance shows none) and withholds credit as it does for the models' copy baselines."""
    from examples.systems.reference_system import RagSystem, paste_generator, read_corpus, serve
    from leaderboard.board.instances import entry_instances
    from leaderboard.scoring.strict import judge_strict

    corpus = _export(rgb_root, tmp_path / "corpus", 10)
    rows = {lang: read_corpus(corpus / f"corpus-{lang}.jsonl") for lang in ("zh", "en")}
    httpd = serve(RagSystem(rows, "bm25", paste_generator()))
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/"
        sub = load_submission(_submission(tmp_path / "paste", url))
        options = RunOptions(root=rgb_root, selection=Selection(limit=10), progress=False)
        run_submission(sub, options)
    finally:
        httpd.shutdown()
    recs = read_predictions(tmp_path / "paste")
    assert len(recs) == 20 and not any(r.error for r in recs)
    instances = entry_instances(rgb_root, recs, {}, system=True)
    judged = [judge_strict(r.prediction, instances[r.key]) for r in recs]
    assert sum(reason.withheld == "copy" for _, reason in judged) >= 5
    results = json.loads((tmp_path / "paste" / "results.json").read_text(encoding="utf-8"))
    strict = [c for c in results["cells"] if c["mode"] == "strict" and c["ability"] == "chain"]
    rgb = [c for c in results["cells"] if c["mode"] == "rgb" and c["ability"] == "chain"]
    assert sum(c["accuracy"] for c in strict) < sum(c["accuracy"] for c in rgb)


def test_the_hybrid_lead_retriever_fuses_bm25_and_e5_over_leads(
    rgb_root: Path, tmp_path: Path
) -> None:
    """`--retriever hybrid-lead` (system-hybridlead-extractive): reciprocal rank fusion of the
    bm25 and the e5-over-leads rankings of the real corpus, each passage scored from its ranks."""
    from examples.systems import reference_system as ref
    from leaderboard.retrieval.hybrid import RRF_K

    corpus = _export(rgb_root, tmp_path / "corpus", 3)
    rows = ref.read_corpus(corpus / "corpus-zh.jsonl")
    lead = ref.dense_search("zh", rows, tmp_path / "emb", lead=ref.LEAD_CHARS["zh"])
    bm25, fused = ref.bm25_search("zh", rows), ref.fused(ref.bm25_search("zh", rows), lead)
    _, records = load_split(rgb_root, "zh", "chain")
    for question in (r.query for r in records[:3]):
        a, b, got = bm25(question), lead(question), fused(question)
        assert len(got.order) == ref.TOP_K and set(got.order) <= set(a.order) | set(b.order)
        for idx, score in zip(got.order, got.scores, strict=True):
            ranks = [r.position(idx) for r in (a, b)]
            assert score == pytest.approx(sum(1 / (RRF_K + p) for p in ranks if p is not None))
    assert ref.RETRIEVERS["hybrid-lead"] is ref.hybrid_lead_search

"""The `system` submission end to end: `corpus export`, a real small RAG system (BM25 over the
exported corpus + the tiny random Llama through the transformers backend) on 127.0.0.1, the
runner's `system` backend, the chain attribution from the returned ids, and resume."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from leaderboard.backends.hf.backend import HFBackend
from leaderboard.backends.system import SystemBackend
from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.core.types import ChatRequest, GenerationConfig
from leaderboard.data.splits import load_split
from leaderboard.protocol.corpus import LICENSE_NOTICE, load_corpus, passage_id
from leaderboard.protocol.probe_instances import supported
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from tests.helpers import read_predictions, write_tiny_hf_submission
from tests.rag_system import BM25RagSystem, read_corpus, serve

GEN = GenerationConfig(max_new_tokens=8)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus_dir(rgb_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    for lang in ("zh", "en"):
        res = CliRunner().invoke(
            app,
            [
                "corpus",
                "export",
                "--lang",
                lang,
                "--out",
                str(out / f"corpus-{lang}.jsonl"),
                "--data-dir",
                str(rgb_root),
            ],
        )
        assert res.exit_code == 0, res.output
        assert "CC BY-NC-SA 4.0" in res.output
    return out


@pytest.fixture(scope="module")
def system(corpus_dir: Path, tiny_llama: Path):
    corpora = {lang: read_corpus(corpus_dir / f"corpus-{lang}.jsonl") for lang in ("zh", "en")}
    sys_ = BM25RagSystem(corpora, HFBackend(str(tiny_llama), batch_size=1), GEN)
    server = serve(sys_)
    yield sys_, f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


def test_corpus_export_has_stable_unique_ids_and_the_licence(
    corpus_dir: Path, rgb_root: Path
) -> None:
    rows = read_corpus(corpus_dir / "corpus-zh.jsonl")
    ids = [i for i, _ in rows]
    assert len(ids) == len(set(ids))
    assert all(i == passage_id("zh", t) for i, t in rows)
    _, again = load_corpus(rgb_root, "zh")
    assert [p.id for p in again] == ids  # a second export: the same ids in the same order
    notice = (corpus_dir / "corpus-zh.jsonl.LICENSE.txt").read_text(encoding="utf-8")
    assert LICENSE_NOTICE in notice and "zh_refine.json" in notice


def _system_submission(folder: Path, url: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "id": folder.name,
        "display_name": "BM25 + tiny Llama (test system)",
        "model": "bm25-tiny-rag",
        "backend": "system",
        "system": {"url": url, "concurrency": 2},
        "generation": {"max_new_tokens": 8},
        "run": {"abilities": ["chain"], "allow_partial_data": True},
    }
    path = folder / "model.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_system_run_attributes_from_returned_ids_and_resumes(
    system, rgb_root: Path, tmp_path: Path
) -> None:
    sys_, url = system
    sub = load_submission(_system_submission(tmp_path / "rag", url))
    res = run_submission(
        sub, RunOptions(root=rgb_root, selection=Selection(limit=3), progress=False)
    )
    # the system got the bare question and language, never passages or a prompt
    assert sys_.bodies and all(set(b) == {"question", "lang"} for b in sys_.bodies)
    recs = read_predictions(tmp_path / "rag")
    assert len(recs) == 6 and all(r.ability == "chain" for r in recs)
    assert all(r.passage_ids and len(r.passage_ids) == 5 for r in recs)
    assert all(r.passage_sha256 == [] for r in recs)  # the instance itself carries no passages
    # the chain attribution is computed from the returned ids, looked up in the corpus
    texts = {lang: dict(read_corpus_rows(rgb_root, lang)) for lang in ("zh", "en")}
    entries = {(e.lang, e.metric): e for e in res.probes if e.mode == "rgb" and e.probe == "chain"}
    for lang in ("zh", "en"):
        mine = [r for r in recs if r.lang == lang]
        data = {r.id: r for r in mine}
        from_ids = [
            supported([texts[lang][i] for i in data[k].passage_ids], _answer(rgb_root, lang, k))
            for k in sorted(data)
        ]
        assert entries[(lang, "recall_at_k")].value == pytest.approx(sum(from_ids) / 3)
        assert entries[(lang, "recall_at_k")].n_questions == 3
    n_calls = len(sys_.bodies)
    run_submission(
        sub, RunOptions(root=rgb_root, selection=Selection(limit=3), progress=False)
    )  # resume: nothing to ask again
    assert len(sys_.bodies) == n_calls
    run_submission(
        sub, RunOptions(root=rgb_root, selection=Selection(limit=4), progress=False)
    )  # one more question per language
    assert len(sys_.bodies) == n_calls + 2
    assert res.provenance.extra["probes"]["chain"]["retriever"].startswith("the submitted system")


def read_corpus_rows(root: Path, lang: str) -> list[tuple[str, str]]:
    return [(p.id, p.text) for p in load_corpus(root, lang)[1]]  # type: ignore[arg-type]


def _answer(root: Path, lang: str, rid: int):
    _, records = load_split(root, lang, "chain", allow_partial=True)  # type: ignore[arg-type]
    return next(r.answer for r in records if r.id == rid)


def test_malformed_system_answers_become_error_completions(system) -> None:
    _, url = system
    backend = SystemBackend(url, max_retries=0)
    bare = ChatRequest(messages=(), question="谁?", lang="zh")
    [out] = backend.generate([ChatRequest(messages=())], GEN)
    assert out.error and "bare question" in out.error
    [ok] = backend.generate([bare], GEN)
    assert ok.error is None and len(ok.extra["passage_ids"]) == 5
    assert json.dumps(backend.describe().as_dict())  # JSON-safe provenance
    [down] = SystemBackend("http://127.0.0.1:9/", max_retries=0).generate([bare], GEN)
    assert down.error and "127.0.0.1:9" in down.error


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_reference_script_runs_a_system_with_a_backend_generator(
    rgb_root: Path, tiny_llama: Path, tmp_path: Path
) -> None:
    """scripts/reference_system.sh with `yaml:model.yaml` (any leaderboard backend as generator,
    here the tiny Llama through hf): exports the corpus, starts the reference system at the
    submission's port, runs the runner, stops the system."""
    port = _free_port()
    gen = write_tiny_hf_submission(
        tmp_path / "gen",
        tiny_llama,
        generation={"max_new_tokens": 4},
        batch_size=1,
    )
    sub = _system_submission(tmp_path / "rag", f"http://127.0.0.1:{port}/")
    env = os.environ | {
        "PYTHON": sys.executable,
        "RGB_CORPUS_DIR": str(tmp_path / "corpus"),
        "OMP_NUM_THREADS": "1",
    }
    cmd = ["bash", "scripts/reference_system.sh", str(sub.parent), "bm25", f"yaml:{gen}"]
    res = subprocess.run(
        [*cmd, "--limit", "2", "--languages", "zh", "--no-progress"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"listening on http://127.0.0.1:{port}/" in res.stdout
    recs = read_predictions(tmp_path / "rag")
    assert [(r.lang, r.ability) for r in recs] == [("zh", "chain")] * 2
    assert all(len(r.passage_ids) == 5 for r in recs)
    assert (tmp_path / "rag" / "results.json").is_file()
    assert (tmp_path / "corpus" / "corpus-zh.jsonl.LICENSE.txt").is_file()
    with socket.socket() as sock, pytest.raises(OSError):  # the system was stopped
        sock.connect(("127.0.0.1", port))
    bad = subprocess.run(
        ["bash", "scripts/reference_system.sh", str(gen.parent), "bm25", f"yaml:{gen}"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "not 'system'" in bad.stderr

"""`judge` and `judge-agreement` through the real command line: the scripted judge, a real
OpenAI-compatible HTTP judge on 127.0.0.1, kill -9 in the middle and resume, the labelled set."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.errors import DataError
from leaderboard.core.judge_schema import JudgementRecord
from leaderboard.judge.summary import read_judge_results
from tests.helpers import write_scripted_submission

REPO = Path(__file__).resolve().parents[2]
SCRIPTED = REPO / "judges" / "scripted-keywords.yaml"
# 16 distinct answers (one per prediction, so every judge prompt differs): refusals, error claims,
# plain answers, and English error claims the HTTP judge below answers with something unparsable
ANSWERS = [
    (
        f"信息不足，无法回答该问题。（{i}）",
        f"文档中有事实性错误，正确答案是{2000 + i}年。",
        f"答案是北京{i}号。",
        f"The documents contain factual errors; the answer is Paris {i}.",
    )[i % 4]
    for i in range(16)
]
runner = CliRunner()


@pytest.fixture(scope="module")
def submission(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> Path:
    """A submission with real run output: 4 rejection and 4 counterfactual answers per language."""
    folder = tmp_path_factory.mktemp("sub") / "s"
    path = write_scripted_submission(folder, scripted={"policy": "cycle", "responses": ANSWERS})
    out = runner.invoke(
        app,
        [
            "run",
            str(path),
            "--limit",
            "4",
            "--abilities",
            "rejection,counterfactual",
            "--allow-partial-data",
            "--data-dir",
            str(data_root),
            "--no-progress",
            "--chunk-size",
            "16",
        ],
    )
    assert out.exit_code == 0, out.output
    return folder


def _lines(path: Path) -> list[JudgementRecord]:
    return [JudgementRecord.model_validate_json(x) for x in path.read_text("utf-8").splitlines()]


def _judge(submission: Path, judge: Path, out: Path, data_root: Path, *extra: str):
    return runner.invoke(
        app,
        [
            "judge",
            str(submission),
            "--judge",
            str(judge),
            "--out",
            str(out),
            "--data-dir",
            str(data_root),
            "--no-progress",
            "--resamples",
            "200",
            *extra,
        ],
    )


def test_scripted_judge_end_to_end_and_cache(submission: Path, data_root: Path, tmp_path: Path):
    out = _judge(submission, SCRIPTED, tmp_path, data_root)
    assert out.exit_code == 0, out.output
    assert "16 judged now, 0 cached" in out.output
    lines = _lines(tmp_path / "judgements.jsonl")
    assert len(lines) == 16
    answer = {hashlib.sha256(a.encode()).hexdigest(): a for a in ANSWERS}
    for rec in lines:  # the scripted rules read the judged answer, so verdicts follow it
        text = answer[rec.prediction_sha256]
        assert rec.verdict in ("yes", "no") and rec.judge_id == "scripted-keywords"
        if rec.task == "rejection":
            assert rec.decision is ("信息不足" in text)
        else:
            assert rec.decision is ("错误" in text or "factual errors" in text)
        assert rec.reference_decision is rec.decision
    results = read_judge_results(tmp_path / "judge_results.json")
    (summary,) = results.judges
    assert summary.display_name.startswith("Scripted keyword judge")
    assert summary.provenance["judge_settings"]["backend"] == "scripted"
    rates = {(r.lang, r.metric): r for r in summary.rates}
    assert set(rates) == {(lang, m) for lang in ("zh", "en") for m in ("rej_star", "ed_star")}
    zh_rej = [r for r in lines if r.task == "rejection" and r.lang == "zh"]
    assert rates["zh", "rej_star"].value == sum(r.decision for r in zh_rej) / 4
    assert rates["zh", "rej_star"].n == 4 and rates["zh", "rej_star"].complete
    assert {(k.against, k.lang, k.task) for k in summary.agreement} >= {
        ("strict", "zh", "rejection"),
        ("rgb", "en", "error_detection"),
    }
    again = _judge(submission, SCRIPTED, tmp_path, data_root)  # every verdict comes from the cache
    assert again.exit_code == 0 and "0 judged now, 16 cached" in again.output
    assert len(_lines(tmp_path / "judgements.jsonl")) == 16
    assert read_judge_results(tmp_path / "judge_results.json").judges[0].rates == summary.rates


def test_limit_judges_a_prefix_and_a_rerun_extends_it(
    submission: Path, data_root: Path, tmp_path: Path
) -> None:
    out = _judge(submission, SCRIPTED, tmp_path, data_root, "--limit", "1")
    assert out.exit_code == 0 and "4 judged now" in out.output
    rate = read_judge_results(tmp_path / "judge_results.json").judges[0].rates[0]
    assert rate.n == 1 and rate.n_unjudged == 3 and not rate.complete
    out = _judge(submission, SCRIPTED, tmp_path, data_root)
    assert "12 judged now, 4 cached" in out.output


def _slow_scripted(tmp_path: Path) -> Path:
    data = yaml.safe_load(SCRIPTED.read_text("utf-8"))
    data["scripted"]["latency_s"] = 0.4
    path = tmp_path / "slow.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def test_kill_in_the_middle_then_resume(submission: Path, data_root: Path, tmp_path: Path) -> None:
    judge = _slow_scripted(tmp_path)
    cmd = [
        sys.executable,
        "-m",
        "leaderboard",
        "judge",
        str(submission),
        "--judge",
        str(judge),
        "--out",
        str(tmp_path / "a"),
        "--data-dir",
        str(data_root),
        "--chunk-size",
        "1",
        "--resamples",
        "100",
    ]
    log = tmp_path / "a" / "judgements.jsonl"
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO)
    deadline = time.time() + 300
    try:
        while time.time() < deadline and proc.poll() is None:
            if log.exists() and log.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    before = [ln for ln in log.read_bytes().split(b"\n") if ln.endswith(b"}")]
    assert 3 <= len(before) < 16
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=REPO)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{16 - len(before)} judged now, {len(before)} cached" in rerun.stdout
    after_bytes = log.read_bytes()
    for line in before:  # nothing judged before the kill is lost or judged again
        assert after_bytes.count(line) == 1
    lines = _lines(log)
    keys = [(r.judge_fingerprint, r.prompt_sha256) for r in lines]
    assert len(keys) == len(set(keys)) == 16
    # the same verdicts as an uninterrupted run
    straight = _judge(submission, judge, tmp_path / "b", data_root)
    assert straight.exit_code == 0, straight.output
    other = {(r.key, r.task): r.decision for r in _lines(tmp_path / "b" / "judgements.jsonl")}
    assert {(r.key, r.task): r.decision for r in lines} == other


# ------------------------------------------------------------------ a real HTTP judge server


class JudgeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), JudgeHandler)
        self.lock = threading.Lock()
        self.bodies: list[dict] = []
        self.auth: list[str | None] = []
        self.fail_first_error_detection = True


class JudgeHandler(BaseHTTPRequestHandler):
    server: JudgeServer

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        judged = prompt.rsplit("Begin to generate:", 1)[1]
        with self.server.lock:
            self.server.bodies.append(body)
            self.server.auth.append(self.headers.get("Authorization"))
            fail = self.server.fail_first_error_detection and "Question:" not in judged
            if fail:
                self.server.fail_first_error_detection = False
        if fail:
            data = b'{"error": "overloaded"}'
            self.send_response(503)
        else:
            if "Question:" in judged:  # the rejection prompt
                text = (
                    "No, the question is not addressed by the documents."
                    if "信息不足" in judged
                    else "是的，文档解决了这个问题。"
                )
            elif "Paris" in judged:  # a reply no parser should read as a verdict
                text = "I am not sure what you mean."
            else:
                text = (
                    "Yes, the model has identified the factual errors."
                    if "错误" in judged
                    else ("否")
                )
            data = json.dumps(
                {
                    "choices": [{"message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 9},
                }
            ).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    srv = JudgeServer()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_openai_compatible_judge_server(
    submission: Path,
    data_root: Path,
    tmp_path: Path,
    judge_server: JudgeServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JUDGE_TEST_KEY", "sk-judge-SECRET")
    port = judge_server.server_address[1]
    judge = tmp_path / "http.yaml"
    judge.write_text(
        "id: http-judge\ndisplay_name: HTTP judge\nmodel: judge-model\nbackend: openai\n"
        f"openai:\n  base_url: http://127.0.0.1:{port}/v1\n  api_key_env: JUDGE_TEST_KEY\n"
        "  max_retries: 0\n  concurrency: 2\ngeneration: {max_new_tokens: 16}\n",
        "utf-8",
    )
    out = _judge(submission, judge, tmp_path / "o", data_root)
    assert out.exit_code == 0, out.output
    assert "1 judge errors" in out.output  # the 503, not stored: asked again next time
    body = judge_server.bodies[0]
    assert body["model"] == "judge-model" and len(body["messages"]) == 1
    assert body["messages"][0]["role"] == "user"
    assert body["messages"][0]["content"].startswith("I will give you a question") or body[
        "messages"
    ][0]["content"].startswith("Please determine whether the model")
    assert set(judge_server.auth) == {"Bearer sk-judge-SECRET"}
    lines = _lines(tmp_path / "o" / "judgements.jsonl")
    assert len(lines) == 15
    by_output = {r.output: r for r in lines}
    assert by_output["是的，文档解决了这个问题。"].verdict == "yes"
    assert by_output["是的，文档解决了这个问题。"].decision is False
    assert by_output["I am not sure what you mean."].verdict == "unparsable"
    assert by_output["I am not sure what you mean."].decision is None
    summary = read_judge_results(tmp_path / "o" / "judge_results.json").judges[0]
    en = next(r for r in summary.rates if r.lang == "en" and r.metric == "ed_star")
    assert en.n_unparsable >= 1 and en.n + en.n_unparsable + en.n_unjudged == 4
    for path in (tmp_path / "o").iterdir():  # the key is never written
        assert "SECRET" not in path.read_text("utf-8")
    again = _judge(submission, judge, tmp_path / "o", data_root)
    assert "1 judged now, 15 cached, 0 judge errors" in again.output
    assert len(_lines(tmp_path / "o" / "judgements.jsonl")) == 16


# ------------------------------------------------------------------ the labelled set


def _label(i: int, lang: str, ability: str, prediction: str, rejected: bool, detected: bool):
    return {
        "id": f"{lang}-{i}",
        "lang": lang,
        "ability": ability,
        "question": "谁赢了？" if lang == "zh" else "Who won?",
        "answer": ["A"],
        "fakeanswer": ["B"] if ability == "counterfactual" else None,
        "docs": [],
        "prediction": prediction,
        "labels": {
            "correct": False,
            "rejected": rejected,
            "error_detected": detected,
            "corrected": False,
        },
        "split": "dev" if i == 9 else "test",
        "source": "written",
        "note": None,
    }


def test_judge_agreement_against_labels(tmp_path: Path) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    rej, cf = "rejection", "counterfactual"
    zh = [  # the scripted judge reads 信息不足 / 无法 as refusals and 错误 / 有误 as detections
        _label(0, "zh", rej, "信息不足，无法回答。", True, False),
        _label(1, "zh", rej, "答案是A。", False, False),
        _label(2, "zh", rej, "我无法确定，但可能是A。", False, False),  # the judge disagrees
        _label(3, "zh", rej, "答案是B。", False, False),
        _label(4, "zh", cf, "文档有误，答案是A。", False, True),
        _label(5, "zh", cf, "答案是A。", False, False),
        _label(6, "zh", "noise", "信息不足", True, False),  # not a population the judge is used on
        _label(9, "zh", rej, "信息不足", True, False),  # the dev split, left out below
    ]
    en = [
        _label(0, "en", rej, "I can not answer: insufficient information.", True, False),
        _label(1, "en", rej, "The answer is A.", False, False),
        _label(2, "en", cf, "The documents are wrong: the answer is A.", False, True),
        _label(3, "en", cf, "It is A.", False, False),
    ]
    for lang, rows in (("zh", zh), ("en", en)):
        (labels / f"{lang}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8"
        )
    out = runner.invoke(
        app,
        [
            "judge-agreement",
            "--judge",
            str(SCRIPTED),
            "--labels",
            str(labels),
            "--split",
            "test",
            "--out",
            str(tmp_path / "o"),
            "--no-progress",
            "--resamples",
            "200",
        ],
    )
    assert out.exit_code == 0, out.output
    result = json.loads((tmp_path / "o" / "agreement.json").read_text("utf-8"))
    assert result["n_items"] == {"zh": 6, "en": 4} and result["splits"] == ["test"]
    kappa = {(e["rater"], e["against"], e["lang"], e["task"]): e for e in result["agreement"]}
    # zh rejection: judge yes on items 0 and 2, labels yes on item 0: po 3/4, pe 1/2 -> 0.5
    zh_rej = kappa["judge", "labels", "zh", "rejection"]
    assert zh_rej["kappa"] == pytest.approx(0.5) and zh_rej["n"] == 4
    assert zh_rej["table"] == {"both_yes": 1, "rater_only": 1, "other_only": 0, "both_no": 2}
    assert kappa["judge", "labels", "zh", "error_detection"]["kappa"] == pytest.approx(1.0)
    assert kappa["judge", "labels", "en", "rejection"]["kappa"] == pytest.approx(1.0)
    assert kappa["judge", "labels", "en", "error_detection"]["kappa"] == pytest.approx(1.0)
    assert kappa["strict", "labels", "zh", "rejection"]["n"] == 4
    assert ("rgb", "labels", "en", "error_detection") in kappa
    assert ("judge", "strict", "zh", "rejection") in kappa
    again = runner.invoke(  # a sample: one answer per language and task, judged from the cache
        app,
        [
            "judge-agreement",
            "--judge",
            str(SCRIPTED),
            "--labels",
            str(labels),
            "--split",
            "test",
            "--limit",
            "1",
            "--out",
            str(tmp_path / "o"),
            "--no-progress",
            "--resamples",
            "0",
        ],
    )
    assert again.exit_code == 0 and "0 judged now, 4 cached" in again.output


def test_bad_judge_file_is_one_line(tmp_path: Path, submission: Path, data_root: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: j\ndisplay_name: J\nmodel: m\nbackend: scripted\nbatchsize: 2\n", "utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leaderboard",
            "judge",
            str(submission),
            "--judge",
            str(bad),
            "--data-dir",
            str(data_root),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"error: {bad}:5: field 'batchsize': unknown field; allowed here: "
        + proc.stderr.split("allowed here: ", 1)[1].strip()
    )
    assert "Traceback" not in proc.stderr


def test_hostile_labels_file_is_one_line(tmp_path: Path) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "zh.jsonl").write_bytes(b"\xff\xfe{bad")
    (labels / "en.jsonl").write_text('{"id": 1}\n', "utf-8")
    out = runner.invoke(app, ["judge-agreement", "--judge", str(SCRIPTED), "--labels", str(labels)])
    assert isinstance(out.exception, DataError) and "zh.jsonl: saved as UTF-16" in str(
        out.exception
    )
    (labels / "zh.jsonl").write_text('{"id": 1}\n', "utf-8")
    out = runner.invoke(app, ["judge-agreement", "--judge", str(SCRIPTED), "--labels", str(labels)])
    assert isinstance(out.exception, DataError) and "zh.jsonl:1: field 'lang'" in str(out.exception)

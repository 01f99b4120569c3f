"""The data commands through the real CLI (typer's runner and the installed console script)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from leaderboard.cli import app
from leaderboard.core.submission import load_submission
from leaderboard.data.records import load_records
from leaderboard.data.splits import load_split
from leaderboard.protocol.instances import build_instance
from leaderboard.protocol.probe_instances import candidate_pool
from leaderboard.protocol.prompts import messages_as_dicts, system_prompt
from leaderboard.run.chain_retriever import chain_rank
from leaderboard.run.plan import build_plan
from leaderboard.run.selection import Selection
from tests.helpers import write_scripted_submission

runner = CliRunner()


def _lines(output: str) -> list[dict]:
    return [json.loads(x) for x in output.splitlines() if x.startswith("{")]


def test_help_on_every_data_command() -> None:
    for args in (
        ["data", "--help"],
        ["data", "fetch", "--help"],
        ["data", "status", "--help"],
        ["instances", "--help"],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        assert "Usage" in res.output


@pytest.mark.parametrize(
    ("lang", "ability", "rates"),
    [
        ("zh", "noise", [0.0, 0.2, 0.4, 0.6, 0.8]),
        ("zh", "rejection", [1.0]),
        ("zh", "integration", [0.0, 0.2, 0.4]),
        ("zh", "counterfactual", [0.0]),
        ("en", "counterfactual", [0.0]),
    ],
)
def test_instances_every_available_split(
    data_root: Path, lang: str, ability: str, rates: list[float]
) -> None:
    res = runner.invoke(
        app,
        [
            "instances",
            "--lang",
            lang,
            "--ability",
            ability,
            "--limit",
            "2",
            "--data-dir",
            str(data_root),
        ],
    )
    assert res.exit_code == 0, res.output
    objs = _lines(res.output)
    assert [(o["noise_rate"], o["id"]) for o in objs] == [(r, i) for r in rates for i in (0, 1)]
    name = {"integration": "int", "counterfactual": "fact"}.get(ability, "refine")
    rec = load_records(data_root / f"data_{lang}" / f"{lang}_{name}.json")[1]
    inst = build_instance(rec, lang, ability, rates[-1])
    last = objs[-1]
    assert last["docs"] == list(inst.docs) and last["query"] == rec.query
    assert set(last) >= {"id", "lang", "ability", "noise_rate", "query", "answer", "docs"}


def test_instances_show_prompt_and_noise_rate(data_root: Path) -> None:
    res = runner.invoke(
        app,
        [
            "instances",
            "--lang",
            "zh",
            "--ability",
            "noise",
            "--noise-rate",
            "0.4",
            "--limit",
            "1",
            "--show-prompt",
            "--data-dir",
            str(data_root),
        ],
    )
    assert res.exit_code == 0, res.output
    (obj,) = _lines(res.output)
    assert obj["noise_rate"] == 0.4
    assert [m["role"] for m in obj["messages"]] == ["system", "user"]
    assert obj["messages"][0]["content"] == system_prompt("zh")
    assert "问题：\n" + obj["query"] in obj["messages"][1]["content"]
    assert "\\u" not in res.output  # ensure_ascii=False


def test_instances_partial_and_missing(tmp_path: Path, official_dir: Path) -> None:
    root = tmp_path / "root"
    res = runner.invoke(
        app,
        [
            "data",
            "fetch",
            "--from",
            str(official_dir),
            "--data-dir",
            str(root),
            "--lang",
            "en",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "missing" in res.output and "en_refine.json" in res.output
    res = runner.invoke(
        app, ["instances", "--lang", "en", "--ability", "rejection", "--data-dir", str(root)]
    )
    assert res.exit_code != 0
    assert "rgb-leaderboard data fetch" in str(res.exception)
    res = runner.invoke(
        app,
        [
            "instances",
            "--lang",
            "en",
            "--ability",
            "rejection",
            "--allow-partial-data",
            "--data-dir",
            str(root),
        ],
    )
    assert res.exit_code == 0
    objs = _lines(res.stdout)
    assert len(objs) == 50 and {o["data_file"] for o in objs} == {"partial/en_head50.json"}


def test_status_command(tmp_path: Path, official_dir: Path) -> None:
    root = tmp_path / "root"
    res = runner.invoke(app, ["data", "status", "--data-dir", str(root)])
    assert res.exit_code == 0 and "missing" in res.output
    (root / "data_zh").mkdir(parents=True)
    shutil.copyfile(official_dir / "zh_int.json", root / "data_zh" / "zh_int.json")
    res = runner.invoke(app, ["data", "status", "--data-dir", str(root)])
    assert "zh integration    zh_int.json      ready" in res.output
    res = runner.invoke(app, ["data", "status", "--data-dir", str(root), "--json"])
    rows = _lines(res.output)
    assert {r["name"]: r["state"] for r in rows}["zh_int.json"] == "verified"


def test_console_script_refuses_corrupted_copy_without_traceback(
    tmp_path: Path, official_dir: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    data = (official_dir / "en_fact.json").read_bytes()
    (src / "en_fact.json").write_bytes(data[: len(data) // 2])
    root = tmp_path / "root"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leaderboard",
            "data",
            "fetch",
            "--from",
            str(src),
            "--data-dir",
            str(root),
            "--lang",
            "en",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "refused" in proc.stderr and "Traceback" not in proc.stderr
    assert not (root / "data_en" / "en_fact.json").exists()


@pytest.mark.parametrize(("lang", "probe"), [("zh", "chain"), ("en", "replacement")])
def test_instances_of_a_probe_are_the_runners(
    data_root: Path, tmp_path: Path, lang: str, probe: str
) -> None:
    """`instances --ability chain|replacement` prints exactly the instances (passages, their
    origins, the prompt) a run of that probe asks, built by the same code (run.plan)."""
    sub = load_submission(
        write_scripted_submission(
            tmp_path / "sub", run={"abilities": [probe], "allow_partial_data": True}
        )
    )
    plan = build_plan(sub, data_root, Selection(limit=3, languages=(lang,)))
    args = ["instances", "--lang", lang, "--ability", probe, "--limit", "3", "--show-prompt"]
    res = runner.invoke(app, [*args, "--allow-partial-data", "--data-dir", str(data_root)])
    assert res.exit_code == 0, res.output
    objs = _lines(res.stdout)
    assert len(objs) == len(plan.items) == 3
    for obj, item in zip(objs, plan.items, strict=True):
        inst = item.instance
        assert (obj["ability"], obj["noise_rate"], obj["id"]) == (probe, 0.0, inst.id)
        assert obj["docs"] == list(inst.docs) and len(obj["docs"]) == 5
        assert obj["sources"] == list(inst.sources)
        assert obj["messages"] == messages_as_dicts(item.request)
    if probe == "chain":  # the BM25 top 5 of the question's own pool, best first
        rec = load_split(data_root, lang, "chain")[1][0]
        pool = candidate_pool(rec)
        top = list(chain_rank(lang)(rec.query, [t for _, t in pool]))[:5]
        assert objs[0]["sources"] == [pool[i][0] for i in top]
    else:  # passages of other questions, never the question's own
        assert all(f"#{objs[0]['id']} " not in s for s in objs[0]["sources"])
        assert all(s.startswith("partial/en_head50.json#") for s in objs[0]["sources"])


def test_instances_of_a_probe_refuse_a_noise_rate(data_root: Path) -> None:
    args = ["instances", "--lang", "zh", "--ability", "chain", "--noise-rate", "0.2"]
    res = runner.invoke(app, [*args, "--data-dir", str(data_root)])
    assert res.exit_code != 0
    assert "chain probe has no noise rate" in str(res.exception)

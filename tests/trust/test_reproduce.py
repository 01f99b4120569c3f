"""`rgb-leaderboard reproduce` (leaderboard.trust.reproduce): a seeded sample of the recorded
prompts regenerated with the declared model and compared. An edited predictions file, rescored,
passes `verify` and is caught here. Runs on real RGB instances with the scripted backend; the
SmolLM2 entry with the real model (slow)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.core.submission import load_submission
from leaderboard.run.runner import RunOptions, run_submission
from leaderboard.run.selection import Selection
from leaderboard.trust.reproduce import REPRODUCE_NAME, draw_sample, read_reproduce
from tests.helpers import cli, error_line, write_scripted_submission

REPO = Path(__file__).resolve().parents[2]
SMALL = {"languages": ("zh", "en"), "abilities": ("counterfactual", "noise")}


@pytest.fixture
def sub(tmp_path: Path, data_root: Path) -> Path:
    path = write_scripted_submission(tmp_path / "sub", run={"allow_partial_data": True})
    run_submission(
        load_submission(path),
        RunOptions(root=data_root, selection=Selection(limit=3, **SMALL), progress=False),
    )
    return path.parent


def _edit_predictions(folder: Path, edit) -> None:
    plain = folder / "predictions.jsonl"
    rows = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()]
    plain.write_text(
        "".join(json.dumps(edit(r), ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def test_sample_is_a_function_of_the_seed_and_the_keys() -> None:
    keys = [f"zh/noise/0.0/{i}" for i in range(50)]
    assert draw_sample(keys, 5, 7) == draw_sample(list(reversed(keys)), 5, 7)
    assert draw_sample(keys, 5, 7) != draw_sample(keys, 5, 8)
    assert draw_sample(keys, 500, 7) == sorted(keys)


def test_untouched_run_reproduces(sub: Path, data_root: Path) -> None:
    out = cli("reproduce", sub, "--sample", "6", "--seed", "3", "--data-dir", data_root)
    assert out.code == 0, out.out + out.err
    assert out.out.startswith("ok: sub: re-generated 6 of ")
    assert ": 6 identical (seed 3)" in out.out
    saved = read_reproduce(sub / REPRODUCE_NAME)
    assert saved is not None and saved.agreement.passed and len(saved.keys) == 6
    assert saved.command.startswith("rgb-leaderboard reproduce ")
    assert saved.environment["backend"] == "scripted" and saved.summary().endswith("6 identical")


def test_selection_limits_the_sample(sub: Path, data_root: Path) -> None:
    out = cli("reproduce", sub, "--lang", "en", "--ability", "noise", "--noise-rate", "0.4")
    assert out.code == 0, out.err
    saved = read_reproduce(sub / REPRODUCE_NAME)
    assert saved is not None and saved.of == 3
    assert all(k.startswith("en/noise/0.4/") for k in saved.keys)


def test_edited_predictions_pass_verify_and_fail_reproduce(sub: Path, data_root: Path) -> None:
    # the answers are replaced by the gold answer (what a cheat would write), then rescored
    from leaderboard.data.splits import load_split

    gold = {}
    for lang in ("zh", "en"):
        for ability in SMALL["abilities"]:
            _, records = load_split(data_root, lang, ability, allow_partial=True)
            for r in records:
                first = r.answer[0]
                gold[(lang, ability, r.id)] = first[0] if isinstance(first, list) else first

    def cheat(row: dict) -> dict:
        return {**row, "prediction": str(gold[(row["lang"], row["ability"], row["id"])])}

    _edit_predictions(sub, cheat)
    assert cli("rescore", sub, "--data-dir", data_root).code == 0
    verified = cli("verify", sub, "--data-dir", data_root)
    assert verified.code == 0 and verified.out.startswith("ok: "), verified.out
    caught = cli("reproduce", sub, "--sample", "4", "--data-dir", data_root)
    assert caught.code == 1, caught.out
    assert caught.out.startswith("FAIL: sub: re-generated 4 of ")
    assert "0 identical" in caught.out and ": DIFFERENT" in caught.out
    assert "    recorded:    " in caught.out and "    regenerated: " in caught.out
    saved = read_reproduce(sub / REPRODUCE_NAME)
    assert saved is not None and not saved.agreement.passed and saved.agreement.different > 0


def test_an_edit_that_keeps_the_labels_fails_on_identical_text(sub: Path) -> None:
    _edit_predictions(sub, lambda r: {**r, "prediction": r["prediction"] + " "})
    assert cli("rescore", sub).code == 0
    caught = cli("reproduce", sub, "--sample", "4")
    assert caught.code == 1 and "identical text 0% (at least 50%)" in caught.out


def test_prompt_that_differs_is_not_regenerated(sub: Path) -> None:
    _edit_predictions(sub, lambda r: {**r, "prompt_sha256": "0" * 64})
    line = error_line(cli("reproduce", sub, "--sample", "2"))
    assert "were not made from the prompt rebuilt from the recorded data" in line
    assert "rgb-leaderboard verify" in line


@pytest.mark.slow
def test_smollm2_entry_reproduces(
    tmp_path: Path, data_root: Path, smollm2: tuple[Path, str]
) -> None:
    """The committed SmolLM2 entry, the real model (~10 s per answer on 2 busy cores). The
    `smollm2` fixture finds the GGUF without importing the package (which needs `llm`)."""
    out_file = tmp_path / "reproduce.json"
    entry = REPO / "submissions" / "smollm2-135m-instruct"
    out = cli("reproduce", entry, "--sample", "1", "--lang", "en", "--out", out_file)
    assert out.code == 0, out.out
    saved = read_reproduce(out_file)
    assert saved is not None and saved.agreement.identical == 1


def test_model_page_says_what_was_regenerated(sub: Path, data_root: Path) -> None:
    from leaderboard.board.load import load_reproduced
    from leaderboard.site.pages.model.page import _reproduced

    assert cli("reproduce", sub, "--sample", "2", "--data-dir", data_root).code == 0
    fp = read_reproduce(sub / REPRODUCE_NAME).fingerprint  # type: ignore[union-attr]
    assert load_reproduced(sub, "another-run") is None  # a file about another run is not shown
    shown = load_reproduced(sub, fp)
    assert shown is not None
    en = _reproduced(shown, "en")
    assert en.startswith("Re-generated 2 of 36 answers with the declared model and settings: 2 ")
    assert "<code>rgb-leaderboard reproduce " in en
    assert "2 个完全相同" in _reproduced(shown, "zh")


def test_a_check_across_machines_says_where_each_side_ran(sub: Path, data_root: Path) -> None:
    """Answers written on one machine, regenerated on another: the output and reproduce.json
    name both (the recorded side from the results' invocation history)."""
    results = sub / "results.json"
    same = cli("reproduce", sub, "--sample", "2", "--data-dir", data_root)
    assert same.code == 0 and "recorded on" not in same.out  # the same machine: nothing to say
    doc = json.loads(results.read_text(encoding="utf-8"))
    (invocation,) = doc["provenance"]["extra"]["invocations"]
    invocation["device"] = "cpu: Elsewhere"
    results.write_text(json.dumps(doc), encoding="utf-8")
    out = cli("reproduce", sub, "--sample", "2", "--data-dir", data_root)
    assert out.code == 0, out.out + out.err
    saved = read_reproduce(sub / REPRODUCE_NAME)
    assert saved is not None
    now = saved.environment["device"]
    assert f"  recorded on cpu: Elsewhere; regenerated on {now}" in out.out.splitlines()
    assert saved.recorded_environment["machines"] == [
        {"device": "cpu: Elsewhere", "build": None, "answers": invocation["answers"]}
    ]


def test_an_instruction_folder_reproduces_under_its_own_instruction(
    sub: Path, data_root: Path
) -> None:
    """`reproduce` samples the instruction track's answers as the ranked ones: the entry's
    model.yaml, the instruction its results.json records, the prompts rebuilt under it."""
    selection = Selection(instruction="abstain_user", limit=3, **SMALL)
    run_submission(
        load_submission(sub), RunOptions(root=data_root, selection=selection, progress=False)
    )
    folder = sub / "instructions" / "abstain_user"
    out = cli("reproduce", folder, "--sample", "4", "--seed", "5", "--data-dir", data_root)
    assert out.code == 0, out.out + out.err
    assert ": 4 identical (seed 5)" in out.out
    saved = read_reproduce(folder / REPRODUCE_NAME)
    assert saved is not None and saved.agreement.passed
    verify = cli("verify", folder, "--data-dir", data_root)
    assert verify.code == 0 and verify.out.startswith("ok: "), verify.out + verify.err

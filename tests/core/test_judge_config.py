"""The judge YAML: the submission's backend settings, errors naming file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.judge_config import load_judge_config

REPO = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judge.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "judges").glob("*.yaml")))
def test_shipped_judges_load(name: str) -> None:
    judge = load_judge_config(REPO / "judges" / name)
    assert judge.display_name and judge.prompts == "rgb-reference"
    assert judge.source_path == (REPO / "judges" / name).resolve()


def test_scripted_judge_rules_are_loaded(tmp_path: Path) -> None:
    judge = load_judge_config(REPO / "judges" / "scripted-keywords.yaml")
    assert judge.backend == "scripted" and judge.scripted is not None
    assert len(judge.scripted.rules) == 4


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "id: j\ndisplay_name: J\nmodel: m\nbackend: scripted\ntemperature: 0\n",
            r"judge.yaml:5: field 'temperature': unknown field; allowed here: id, display_name",
        ),
        (
            "id: j\ndisplay_name: J\nmodel: m\nbackend: hf\nrun:\n  languages: [zh]\n",
            r"judge.yaml:5: field 'run': a judge has no run plan",
        ),
        (
            "id: j\ndisplay_name: J\nmodel: m\nbackend: scripted\nscripted:\n  rules:\n"
            "    - {match: '(unclosed', response: 'Yes'}\n",
            r"judge.yaml:7: field 'scripted.rules.0.match': not a valid regular expression",
        ),
        (
            "id: j\ndisplay_name: J\nmodel: m\nbackend: openai\n",
            r"judge.yaml:1: field 'openai': backend 'openai' needs an 'openai:' block",
        ),
        (
            "id: j\ndisplay_name: J\nmodel: m\nbackend: openai\nopenai:\n  base_url: x\n"
            "  api_key_env: sk-123\n",
            r"judge.yaml:6: field 'openai.base_url': must start with http",
        ),
        ("id: j\nmodel: m\n", r"judge.yaml:1: field 'display_name': required field is missing"),
        ("id: j\nid: k\n", r"judge.yaml:2: field 'id' is given twice"),
        ("id: [j\n", r"judge.yaml:2: not valid YAML"),
        ("- a\n- b\n", r"judge.yaml:1: expected a mapping of fields"),
        (
            "id: j\ndisplay_name: J\nmodel: m\nprompts: mine\n",
            r"judge.yaml:4: field 'prompts': Input should be 'rgb-reference'",
        ),
    ],
)
def test_errors_name_file_line_and_field(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        load_judge_config(_write(tmp_path, text))


def test_missing_file_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such judge file"):
        load_judge_config(tmp_path / "nope.yaml")

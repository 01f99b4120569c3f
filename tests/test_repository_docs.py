"""What the repository's documents say about the code, checked against it: README, CONTRIBUTING and
CI name the same two test commands (the quick one and the full one, which CI runs)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUICK = "python -m pytest -q"
FULL = "python -m pytest -q --runslow"


def _text(rel: str) -> str:
    return (REPO / rel).read_text(encoding="utf-8")


def test_readme_contributing_and_ci_name_the_same_test_commands() -> None:
    for doc in ("README.md", "CONTRIBUTING.md"):
        text = _text(doc)
        assert FULL in text, f"{doc}: the full test command `{FULL}`"
        assert f"{QUICK} " in text.replace(FULL, ""), f"{doc}: the quick test command `{QUICK}`"
        assert '-m "not slow"' not in text, f"{doc}: slow tests are opt-in by --runslow"
    for ci in (".ci/run", ".github/workflows/leaderboard.yml"):
        lines = [line.strip() for line in _text(ci).splitlines() if "pytest" in line]
        runs = [line for line in lines if not line.startswith("#")]
        assert runs and all(line.endswith(FULL) for line in runs), f"{ci}: runs {runs}"


def test_slow_tests_are_opt_in_and_the_slowest_are_printed() -> None:
    pyproject = _text("pyproject.toml")
    assert "--durations=15" in pyproject
    assert "--runslow" in _text("tests/conftest.py")

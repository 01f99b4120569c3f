"""What the repository's documents say about the code, checked against it: README, CONTRIBUTING and
CI name the same two test commands (the quick one and the full one, which CI runs)."""

from __future__ import annotations

import ast
import re
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


PKG = REPO / "leaderboard"
PATH_LIKE = re.compile(r"(?<![\w./-])((?:[\w-]+/)+[\w-]+\.py)\b")


def _exists(path: str, here: Path) -> bool:
    """A path as a reader would look for it: from the repository, the package, or the folders
    between the mentioning file and the package (site/render/page.py, render/page.py)."""
    bases = [REPO, PKG, *[p for p in here.parents if PKG in (p, *p.parents)]]
    return any((base / path).exists() for base in bases) or "<" in path


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)]]
    return "\n".join(ast.get_docstring(n) or "" for n in nodes)


def test_every_path_architecture_md_and_the_docstrings_name_exists() -> None:
    """A pointer to a file that moved misleads the reader it was written for."""
    texts = [(REPO / "ARCHITECTURE.md", _text("ARCHITECTURE.md"))]
    texts += [(p, _docstrings(p)) for p in sorted(PKG.rglob("*.py"))]
    missing = [
        f"{where.relative_to(REPO)}: {path}"
        for where, text in texts
        for path in PATH_LIKE.findall(text)
        if not _exists(path, where)
    ]
    assert not missing, "\n".join(missing)

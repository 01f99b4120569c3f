"""What the repository's documents say about the code, checked against it: README, its Chinese twin
README_zh.md, CONTRIBUTING and CI name the same two test commands (the quick one and the full one,
which CI runs), and README_zh.md keeps README.md's quick start: the same commands, the same timed
figures, the same sections."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.markdown_twins import chinese_style_problems, outline

REPO = Path(__file__).resolve().parents[1]
QUICK = "python -m pytest -q"
FULL = "python -m pytest -q --runslow"


def _text(rel: str) -> str:
    return (REPO / rel).read_text(encoding="utf-8")


def test_readme_contributing_and_ci_name_the_same_test_commands() -> None:
    for doc in ("README.md", "README_zh.md", "CONTRIBUTING.md"):
        text = _text(doc)
        assert FULL in text, f"{doc}: the full test command `{FULL}`"
        assert f"{QUICK} " in text.replace(FULL, ""), f"{doc}: the quick test command `{QUICK}`"
        assert '-m "not slow"' not in text, f"{doc}: slow tests are opt-in by --runslow"
    for ci in (".ci/run", ".github/workflows/leaderboard.yml"):
        lines = [line.strip() for line in _text(ci).splitlines() if "pytest" in line]
        runs = [line for line in lines if not line.startswith("#")]
        assert runs and all(line.endswith(FULL) for line in runs), f"{ci}: runs {runs}"


def test_the_readme_and_its_chinese_twin_link_each_other_at_the_top() -> None:
    """A Chinese reader finds README_zh.md before the first paragraph, as OpenCompass, Qwen and
    C-Eval place theirs; and the way back."""
    head = lambda doc: "\n".join(_text(doc).splitlines()[:5])  # noqa: E731
    assert "](README_zh.md)" in head("README.md"), "README.md: link README_zh.md at the top"
    assert "](README.md)" in head("README_zh.md"), "README_zh.md: link README.md at the top"


def _section(text: str, start: str) -> str:
    """The text from the heading `start` to the next heading of its level."""
    body = text[text.index(start) + len(start) :]
    return body.split("\n## ", 1)[0]


_MINUTES = {
    "en": re.compile(r"\*\*(\d+) min (\d+) s\*\*"),
    "zh": re.compile(r"\*\*(\d+) 分 (\d+) 秒\*\*"),
}
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def test_the_chinese_readme_runs_the_same_quick_start_with_the_same_figures() -> None:
    """README_zh.md cannot drift from README.md: the same shell blocks (comments translated), the
    same commands anywhere in the text, the same sections, and in the quick start the same timed
    figures and the same numbers (a count may drop its thousands separator: 2,220 = 2220)."""
    en, zh = _text("README.md"), _text("README_zh.md")
    twin_en, twin_zh = outline(en), outline(zh)
    shell = lambda o: [b for b in o.code_blocks if b.info in ("bash", "sh")]  # noqa: E731
    assert shell(twin_zh) == shell(twin_en) and shell(twin_en), "the quick-start commands"
    assert twin_zh.commands == twin_en.commands, (
        f"only in en: {sorted(twin_en.commands - twin_zh.commands)}; "
        f"only in zh: {sorted(twin_zh.commands - twin_en.commands)}"
    )
    assert twin_zh.headings == twin_en.headings, "the same sections"
    quick_en, quick_zh = _section(en, "## Quick start"), _section(zh, "## 快速上手")
    timings = _MINUTES["en"].findall(quick_en)
    assert len(timings) == 3 and _MINUTES["zh"].findall(quick_zh) == timings
    numbers = lambda text: {n.replace(",", "") for n in _NUMBER.findall(text)}  # noqa: E731
    assert numbers(quick_zh) == numbers(quick_en)
    assert not chinese_style_problems(zh), chinese_style_problems(zh)


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

"""The layout ARCHITECTURE.md describes, checked: stage subpackages, imports flowing one way, no
module that only re-exports, small modules, and nothing at the top level but the subpackages."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "leaderboard"
# Lower layers never import higher ones (same layer: no imports between them either way).
LAYER = {
    "core": 0,
    "data": 1,
    "backends": 1,
    "protocol": 2,
    "scoring": 2,
    "stats": 3,
    "retrieval": 4,
    "run": 5,
    "trust": 6,
    "judge": 6,
    "board": 7,
    "site": 8,
    "cli": 9,
}
MAX_LINES = 320  # "about 300": a module past this is doing more than one job


def _modules() -> list[Path]:
    return sorted(PKG.rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported leaderboard module, line, inside a function) for every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            nested.update(id(n) for n in ast.walk(node) if n is not node)
    out = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        out += [(n, node.lineno, id(node) in nested) for n in names if n.startswith("leaderboard")]
    return out


def test_top_level_holds_only_the_subpackages() -> None:
    files = {p.name for p in PKG.iterdir() if p.is_file() and p.suffix == ".py"}
    assert files == {"__init__.py", "__main__.py"}
    dirs = {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert dirs <= set(LAYER), dirs - set(LAYER)


def test_every_subpackage_says_what_flows_in_and_out() -> None:
    for name in LAYER:
        init = PKG / name / "__init__.py"
        if init.exists():
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            assert doc and len(doc) > 60, f"{init}: a docstring saying what flows in and out"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PKG)))
def test_imports_flow_one_way(path: Path) -> None:
    parts = path.relative_to(PKG).parts
    if len(parts) == 1:
        return
    src = parts[0]
    for module, line, _ in _imports(path):
        seg = module.split(".")
        if len(seg) < 2 or seg[1] == src:
            continue
        dst = seg[1]
        assert LAYER[dst] < LAYER[src], f"{path}:{line}: {src} (layer {LAYER[src]}) imports {dst}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PKG)))
def test_small_modules(path: Path) -> None:
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{path}: {n} lines; split it by responsibility"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PKG)))
def test_no_reexports(path: Path) -> None:
    """A name is imported from the module that defines it: `__all__` lists only local names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        (a.asname or a.name).split(".")[0]
        for n in tree.body
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    for n in tree.body:
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in n.targets):
            names = {e.value for e in getattr(n.value, "elts", []) if isinstance(e, ast.Constant)}
            assert not names & imported, f"{path}: re-exports {sorted(names & imported)}"


def test_no_function_level_imports_of_the_package_without_a_reason() -> None:
    """Imports inside functions only where a comment says why (a heavy optional dependency
    deferred, or the CLI keeping start-up fast); everything else is imported at the top."""
    bad = []
    for path in _modules():
        lines = path.read_text(encoding="utf-8").splitlines()
        for module, line, nested in _imports(path):
            if nested and "TYPE_CHECKING" not in "".join(lines[max(0, line - 3) : line]):
                context = " ".join(lines[max(0, line - 3) : line + 1])
                if "#" not in context:
                    bad.append(f"{path.relative_to(PKG)}:{line}: {module}")
    assert not bad, bad


def test_test_modules_have_unique_basenames() -> None:
    """pytest imports test files by basename (no packages under tests/): two test_x.py in
    different folders break collection of the whole suite."""
    names = [p.name for p in (PKG.parent / "tests").rglob("test_*.py")]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)

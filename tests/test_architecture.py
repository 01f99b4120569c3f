"""The layout ARCHITECTURE.md describes, checked: stage subpackages, imports flowing one way, no
module that only re-exports, tests mirroring the stages, and nothing at the top level but the
subpackages, no import cycles, and no issue numbers in the code. Long modules are a question for
the review (`python scripts/review_signals.py` lists them), not a test."""

from __future__ import annotations

import ast
import re
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


# Folders under tests/ that are not a stage: generated-input tests across stages.
TEST_FOLDERS_BESIDES_STAGES = {"fuzz"}
# Test modules that check the whole package rather than one stage sit at the top of tests/.
TOP_LEVEL_TESTS = {"test_architecture.py", "test_repository_docs.py"}


def test_tests_mirror_the_stages() -> None:
    """tests/<stage>/test_<module>.py: a test sits in the folder of the stage it tests, so the
    tests of a change are found where the change is. The rule is tolerant: the folder must be a
    stage (or fuzz), and a test outside tests/cli/ must import something of its folder's stage
    (a cli test may go through `tests.helpers.cli` alone)."""
    tests = PKG.parent / "tests"
    bad = []
    for path in sorted(tests.rglob("test_*.py")):
        rel = path.relative_to(tests)
        if len(rel.parts) == 1:
            if rel.name not in TOP_LEVEL_TESTS:
                bad.append(f"{rel}: move it to tests/<stage>/ (stages: {', '.join(LAYER)})")
            continue
        folder = rel.parts[0]
        if folder in TEST_FOLDERS_BESIDES_STAGES:
            continue
        if folder not in LAYER or len(rel.parts) != 2:
            bad.append(f"{rel}: tests/<stage>/test_<module>.py, stage one of {', '.join(LAYER)}")
            continue
        stages = {m.split(".")[1] for m, _, _ in _imports(path) if "." in m}
        if folder != "cli" and folder not in stages:
            bad.append(f"{rel}: imports nothing from leaderboard.{folder} ({sorted(stages)})")
    assert not bad, bad


def test_test_folders_are_packages() -> None:
    """Every folder of test modules has an __init__.py, so pytest imports tests/cli/test_run.py
    and tests/judge/test_run.py under different names (`tests.cli.test_run`), and
    `from tests.helpers import ...` works from any depth."""
    tests = PKG.parent / "tests"
    missing = sorted(
        str(d.relative_to(tests.parent))
        for d in {p.parent for p in tests.rglob("test_*.py")}
        if not (d / "__init__.py").exists()
    )
    assert not missing, missing


def _is_backend(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "backend") or (
        isinstance(node, ast.Name) and node.id == "backend"
    )


def test_no_backend_name_branches_outside_backends() -> None:
    """What differs between backends is declared on their registration (`BackendTraits` in
    backends/registry.py) and asked for with `backend_traits(name)`: no module outside
    backends/ compares a backend's name (`sub.backend == "system"`, `in (...)`) or probes a
    backend for an attribute (`hasattr(backend, ...)`). core/ is left out: the model.yaml schema
    names the backends and their settings blocks, and core sits below backends/."""
    bad = []
    for path in _modules():
        rel = path.relative_to(PKG)
        if rel.parts[0] in ("backends", "core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Compare)
                and any(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops)
                and any(_is_backend(n) for n in (node.left, *node.comparators))
            ):
                bad.append(f"{rel}:{node.lineno}: compares a backend's name")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "hasattr"
                and node.args
                and _is_backend(node.args[0])
            ):
                bad.append(f"{rel}:{node.lineno}: probes a backend with hasattr")
    assert not bad, bad


ISSUE_NUMBER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def test_no_issue_numbers_in_the_package() -> None:
    """Code states its rule and why, not the issue it came from: an issue number means nothing to
    a reader without the tracker. A citation of the upstream RGB repository (chen700564/RGB) is a
    source, not a history, and may stay."""
    bad = [
        f"{path.relative_to(PKG.parent)}:{n}: {line.strip()}"
        for path in _modules()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ISSUE_NUMBER.search(line) and "chen700564/RGB" not in line
    ]
    assert not bad, "\n".join(bad)


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the leaderboard modules it imports: every import statement, those under
    `if TYPE_CHECKING:` and inside functions included (`from leaderboard.a import b` names the
    module leaderboard.a.b where b is one, else leaderboard.a)."""
    names = {_module_name(p) for p in _modules()}
    graph: dict[str, set[str]] = {}
    for path in _modules():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in names else node.module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        me = _module_name(path)
        graph[me] = {t for t in targets if t in names and t != me}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    """No two modules import each other, directly or around a loop, type-only imports included:
    a cycle means two modules share a type or helper that belongs in a third both can import."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    cycles = _cycles(_import_graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)

"""Print the review signals of the package: modules longer than about 300 lines and functions
with many parameters.

Neither is a rule. Where code goes is decided by what it does (ARCHITECTURE.md), not by its
length: a long module or a long parameter list is a question a reviewer asks ("is this doing
more than one job? would an options object help?"), which is why this is a report and not a
failing test. Run it before asking for review:
    python scripts/review_signals.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODULE_LINES = 320  # "about 300"
PARAMETERS = 10


def long_modules(pkg: Path, limit: int = MODULE_LINES) -> list[tuple[Path, int]]:
    """(module, lines) for every module over `limit` lines, longest first."""
    sizes = [(p, len(p.read_text(encoding="utf-8").splitlines())) for p in pkg.rglob("*.py")]
    return sorted(((p, n) for p, n in sizes if n > limit), key=lambda x: -x[1])


def wide_functions(pkg: Path, limit: int = PARAMETERS) -> list[tuple[Path, int, str, int]]:
    """(module, line, function, parameters) for every function taking `limit` or more."""
    out = []
    for path in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                n -= bool(a.args) and a.args[0].arg in ("self", "cls")
                if n >= limit:
                    out.append((path, node.lineno, node.name, n))
    return out


def main() -> int:
    pkg = REPO / "leaderboard"
    for path, n in long_modules(pkg):
        print(f"long module  {path.relative_to(REPO)}: {n} lines (about 300: one job?)")
    for path, line, name, n in wide_functions(pkg):
        print(f"wide function  {path.relative_to(REPO)}:{line} {name}: {n} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())

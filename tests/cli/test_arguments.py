"""Every option the package's texts suggest exists: an error that says "pass --allow-partial"
when the option is `--allow-partial-data` sends a new user to a dead end. The texts are every
string constant of the package (error messages, notes, help), read with `ast`; the options are
those of every command of the typer app."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from typer.main import get_command

from leaderboard.cli import app

PKG = Path(__file__).resolve().parents[2] / "leaderboard"
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
# options of other programs the package runs or tells the user to run
OTHER_TOOLS = {
    "--array": "sbatch",
    "--clean": "mkdocs build",
    "--diff-filter": "git log",
    "--format": "git log",
    "--no-deps": "pip install",
    "--porcelain": "git status",
    "--show-toplevel": "git rev-parse",
    "--untracked-files": "git status",
}


def _suggested() -> dict[str, set[str]]:
    """option -> the modules whose strings name it."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for option in OPTION.findall(node.value):
                    found[option].add(path.relative_to(PKG).as_posix())
    return found


def _cli_options(command: object, acc: set[str]) -> set[str]:
    for param in getattr(command, "params", []):
        if param.param_type_name == "option":
            acc.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
    for sub in getattr(command, "commands", {}).values():
        _cli_options(sub, acc)
    return acc


def test_every_suggested_option_exists() -> None:
    known = _cli_options(get_command(app), {"--help"})
    suggested = _suggested()
    unknown = {
        o: sorted(m) for o, m in suggested.items() if o not in known and o not in OTHER_TOOLS
    }
    assert not unknown, f"options named in messages but absent from the CLI: {unknown}"
    stale = sorted(set(OTHER_TOOLS) - set(suggested))
    assert not stale, f"OTHER_TOOLS lists options no text names any more: {stale}"


def test_the_missing_data_error_names_the_run_option() -> None:
    assert "--allow-partial-data" in _suggested()
    assert "--allow-partial" not in _suggested(), "the option is --allow-partial-data"


def test_track_entries_finds_each_entry_once_and_says_how_to_make_one(tmp_path, monkeypatch):
    import pytest

    from leaderboard.cli.arguments import track_entries
    from leaderboard.core.errors import ResultsError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        ResultsError, match=r"no submissions/\*/conflicts/\*/results.json here: run"
    ):
        track_entries(None, "conflicts", "rgb-leaderboard run SUB --conflicts")
    for folder in (
        "b/conflicts/rgb",
        "b/conflicts/conflict_aware",
        "a/conflicts/rgb",
        "c/instructions/x",
    ):
        (tmp_path / "submissions" / folder).mkdir(parents=True)
        (tmp_path / "submissions" / folder / "results.json").write_text("{}")
    found = track_entries(None, "conflicts", "…")
    assert found == [Path("submissions/a"), Path("submissions/b")]
    assert track_entries([Path("x"), Path("x")], "conflicts", "…") == [Path("x")]

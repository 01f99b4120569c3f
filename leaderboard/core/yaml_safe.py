"""The one YAML reader for files from outside (model.yaml, reported.yaml, later judge and retrieval
configs): bounded, so a hostile file ends as one error line instead of a hang or a traceback.

PyYAML's SafeLoader refuses Python tags but still expands anchors and aliases (ten aliases per
level, eight levels deep, is 10^8 nodes from a few hundred bytes) and composes nodes recursively
(a mapping nested a few thousand levels deep overflows the stack). Our files need neither, so
anchors and aliases are refused where the parser meets them and nesting is capped; the composed
node tree is returned with the data so callers can point errors at lines (yaml_lines.py).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from leaderboard.core.errors import ConfigError
from leaderboard.core.safe_io import ErrorType, read_text

MAX_DEPTH = 64  # our deepest file (reported.yaml) nests 5 levels
MAX_YAML_BYTES = 4 << 20


class _Refused(Exception):
    def __init__(self, mark: yaml.Mark | None, message: str) -> None:
        super().__init__(message)
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader without anchors, aliases or deep nesting (checked before anything expands)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _Refused(
                event.start_mark,
                "YAML anchors and aliases (&name, *name) are not allowed here; write the "
                "values out",
            )
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Refused(event.start_mark, f"nested more than {MAX_DEPTH} levels deep; refused")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def parse_yaml(
    text: str, file: Path | str, error: ErrorType = ConfigError
) -> tuple[yaml.Node | None, object]:
    """(composed node tree, constructed data) of one YAML document; errors name FILE:LINE."""
    loader = None
    try:
        loader = _BoundedLoader(text)  # the reader refuses NUL and other control characters here
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except _Refused as exc:
        line = exc.mark.line + 1 if exc.mark is not None else 1
        raise error(f"{file}:{line}: {exc}") from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise error(
            f"{file}:{line}: not valid YAML (character #x{exc.character:04x} is not allowed in "
            "YAML); remove it"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{file}:{line}: not valid YAML ({problem}); fix the syntax") from None
    except RecursionError:  # defence in depth: the composer's cap makes this unreachable
        raise error(f"{file}:1: YAML nested too deeply; refused") from None
    finally:
        if loader is not None:
            loader.dispose()
    return root, data


def load_yaml(path: Path, error: ErrorType = ConfigError) -> tuple[yaml.Node | None, object]:
    """Read (size-capped, strict UTF-8) and parse one YAML file."""
    return parse_yaml(read_text(path, error, MAX_YAML_BYTES), path, error)

"""Map pydantic validation errors on YAML input back to file lines.

PyYAML's composed node tree keeps the line of every key, so an error's field path can be walked
down to the line a person must edit. Duplicate keys, which PyYAML silently accepts (last wins),
are reported too: a pasted block that shadows an earlier one is a real mistake in a submission.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from leaderboard.core.errors import ConfigError
from leaderboard.core.safe_io import one_line
from leaderboard.core.yaml_safe import load_yaml, parse_yaml

# pydantic adds the tried union member to an error's loc ("int", "literal['auto']"): not a field
_UNION_TAG = re.compile(r"^(int|str|float|bool|none|literal\[|dict\[|list\[|function-)")


def check_duplicate_keys(node: yaml.Node, file: Path) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise ConfigError(
                    f"{file}:{key.start_mark.line + 1}: a key must be a plain name, not a "
                    "list or mapping"
                )
            if key.value in seen:
                raise ConfigError(
                    f"{file}:{key.start_mark.line + 1}: field {key.value!r} is given twice; "
                    "keep one"
                )
            seen.add(key.value)
            check_duplicate_keys(value, file)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            check_duplicate_keys(item, file)


def line_of(root: yaml.Node, loc: tuple[int | str, ...]) -> int:
    """1-based line of the deepest YAML node on path `loc` (the parent if a field is absent)."""
    node, line = root, root.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                break
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def format_validation_errors(
    exc: ValidationError, root: yaml.Node, file: Path, model: type[BaseModel]
) -> str:
    """One line per failing field: FILE:LINE: field 'a.b': message (union alternatives joined)."""
    by_loc: dict[tuple[int | str, ...], list[str]] = {}
    for err in exc.errors():
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and _UNION_TAG.match(p)))
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = f"unknown field; allowed here: {allowed_fields(model, loc[:-1])}"
        elif err["type"] == "missing":
            msg = "required field is missing; add it"
        by_loc.setdefault(loc, [])
        if msg not in by_loc[loc]:
            by_loc[loc].append(msg)
    lines = []
    for loc, msgs in by_loc.items():
        field = one_line(".".join(str(p) for p in loc) or "<top>")
        msg = one_line("; or ".join(msgs))
        lines.append(f"{file}:{line_of(root, loc)}: field '{field}': {msg}")
    return "\n".join(lines)


def allowed_fields(model: type[BaseModel], parent: tuple[int | str, ...]) -> str:
    """Field names of the (nested) model at `parent`, for "unknown field" messages."""
    for part in parent:
        annotation = model.model_fields.get(str(part))
        if annotation is None:
            break
        inner = [
            t
            for t in getattr(annotation.annotation, "__args__", (annotation.annotation,))
            if isinstance(t, type) and issubclass(t, BaseModel)
        ]
        if not inner:
            break
        model = inner[0]
    return ", ".join(model.model_fields)


M = TypeVar("M", bound=BaseModel)


def validate_yaml_file(file: Path, model: type[M], fields_hint: str) -> tuple[M, yaml.Node]:
    """Read a YAML file from outside (bounded, no aliases: core.yaml_safe) and validate it as
    `model`; every error is one line naming the file, the line and the field. Used by model.yaml
    and the judge YAML, so both refuse the same inputs the same way. Returns the model and the
    YAML node tree (for line numbers of later cross-file checks)."""
    root, data = load_yaml(file)
    return _validated(root, data, file, model, fields_hint, None)


def validate_yaml_text(
    text: str,
    file: Path | str,
    model: type[M],
    fields_hint: str,
    prepare: Callable[[dict], dict] | None = None,
) -> tuple[M, yaml.Node]:
    """validate_yaml_file for text already read (a packaged resource: a condition or an
    instruction file), with the same one line per fault naming file, line and field. `prepare`
    may rewrite the data before validation (a condition's bare `true` is a role, not a bool)."""
    root, data = parse_yaml(text, file)
    return _validated(root, data, file, model, fields_hint, prepare)


def _validated(
    root: yaml.Node | None,
    data: object,
    file: Path | str,
    model: type[M],
    fields_hint: str,
    prepare: Callable[[dict], dict] | None,
) -> tuple[M, yaml.Node]:
    if not isinstance(data, dict) or root is None:
        raise ConfigError(f"{file}:1: expected a mapping of fields ({fields_hint})")
    check_duplicate_keys(root, Path(file))
    try:
        return model.model_validate(prepare(data) if prepare else data), root
    except ValidationError as exc:
        raise ConfigError(format_validation_errors(exc, root, Path(file), model)) from None

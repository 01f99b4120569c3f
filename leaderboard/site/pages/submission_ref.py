"""The submission reference: every field of model.yaml, generated from the pydantic model.

The page and the JSON Schema download (`model.schema.json`, also committed as
submissions/model.schema.json for editors) both come from `Submission.model_json_schema()`, so
neither can drift from the code that validates a submission; tests/site/test_submission_ref.py
regenerates them and compares. Field descriptions and examples live on the fields
(core/submission.py, core/settings.py); the Chinese page takes its descriptions from
site/messages/submission_fields/zh.yaml, keyed by field path (`Block.field`), which
`description_drift` checks against the model (tests/site/test_submission_ref.py).
"""

from __future__ import annotations

import copy
import json
import re
import typing
from functools import cache
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel

from leaderboard.core.submission import Submission
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Context, front_matter

PAGE = "submission-reference.md"
SCHEMA_FILE = "model.schema.json"
SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"
EDITOR_LINE = f"# yaml-language-server: $schema=../{SCHEMA_FILE}"
_CODE = re.compile(r"`([^`]+)`")
# Cross-field rules are validators (core/submission.py), not schema keywords: stated on the page
# from the message tables (subref.rule_1 ... subref.rule_<RULES>).
RULES = 4
COLUMNS = ("field", "type", "default", "allowed", "description", "example")  # subref.col_<name>
# The field descriptions in languages other than English, keyed by field path ("Block.field",
# and "Block" for a block's own description); English is the pydantic model itself.
FIELDS_DIR = "submission_fields"


def _models(cls: type[BaseModel], seen: dict[str, type[BaseModel]]) -> dict[str, type[BaseModel]]:
    """`cls` and every pydantic model its fields use, by class name (the schema's $defs keys)."""
    seen.setdefault(cls.__name__, cls)
    for info in cls.model_fields.values():
        stack = [info.annotation]
        while stack:
            tp = stack.pop()
            if isinstance(tp, type) and issubclass(tp, BaseModel) and tp.__name__ not in seen:
                _models(tp, seen)
            stack.extend(typing.get_args(tp))
    return seen


def model_schema() -> dict[str, Any]:
    """The JSON Schema of model.yaml, with the defaults pydantic leaves out (default_factory
    fields: an editor and the reader should still see what an omitted block means)."""
    schema = copy.deepcopy(Submission.model_json_schema())
    for name, cls in _models(Submission, {}).items():
        node = schema if name == Submission.__name__ else schema["$defs"][name]
        for field, info in cls.model_fields.items():
            prop = node["properties"][field]
            if "default" not in prop and info.default_factory is not None:
                value = info.default_factory()
                prop["default"] = (
                    value.model_dump(mode="json") if isinstance(value, BaseModel) else value
                )
    return {"$schema": SCHEMA_DRAFT, **schema}


def schema_text() -> str:
    """The committed and published bytes of model.schema.json (stable: keys in schema order)."""
    return json.dumps(model_schema(), indent=2, ensure_ascii=False) + "\n"


def _yaml(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000)
    return text.removesuffix("\n...\n").strip()


def _ref(node: dict[str, Any]) -> str | None:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[1] if isinstance(ref, str) else None


@cache
def field_descriptions(lg: str) -> dict[str, str]:
    """Field path -> description in language `lg` (empty for English: the schema's own)."""
    if lg == DEFAULT:
        return {}
    node = resources.files("leaderboard.site") / "messages" / FIELDS_DIR / f"{lg}.yaml"
    if not node.is_file():
        return {}
    data = yaml.safe_load(node.read_text("utf-8")) or {}
    return {str(k): " ".join(str(v).split()) for k, v in data.items()}


def field_paths(root: type[BaseModel] = Submission) -> set[str]:
    """Every path a description table must cover: each block, and each field of each block."""
    paths = set()
    for name, cls in _models(root, {}).items():
        paths.add(name)
        paths.update(f"{name}.{field}" for field in cls.model_fields)
    return paths


def description_drift(lg: str, root: type[BaseModel] = Submission) -> tuple[list[str], list[str]]:
    """(fields without a description in `lg`, descriptions of fields that no longer exist):
    both empty when the language's table matches the model (tests fail otherwise)."""
    paths, described = field_paths(root), set(field_descriptions(lg))
    return sorted(paths - described), sorted(described - paths)


def _type(node: dict[str, Any], lg: str) -> str:
    """A schema node as a short HTML type name; a nested block links to its section. JSON type
    names (string, integer...) stay as the schema spells them."""
    name = _ref(node)
    if name is not None:
        block = ui(lg, "subref.block", name=f"<code>{esc(name)}</code>")  # a schema name: code
        return f'<a href="#{esc(name.lower())}">{block}</a>'
    if "anyOf" in node:
        return esc(ui(lg, "subref.or")).join(_type(n, lg) for n in node["anyOf"])
    kind = node.get("type", "any")
    if kind == "array":
        return ui(lg, "subref.list_of", type=_type(node.get("items", {}), lg))
    if kind == "object" and isinstance(node.get("additionalProperties"), dict):
        return ui(lg, "subref.map_to", type=_type(node["additionalProperties"], lg))
    return esc(ui(lg, "subref.any")) if kind == "any" else f"<code>{esc(kind)}</code>"


def _allowed(node: dict[str, Any], lg: str) -> str:
    """Enumerated values and numeric or length bounds, from the node and its variants."""
    parts: list[str] = []
    sep = esc(ui(lg, "subref.list_sep"))
    for sub in [node, *node.get("anyOf", []), node.get("items") or {}]:
        if "enum" in sub:
            values = sep.join(f"<code>{esc(_yaml(v))}</code>" for v in sub["enum"])
            parts.append(ui(lg, "subref.one_of", values=values))
        keys = (sub.get("propertyNames") or {}).get("enum")
        if keys:
            names = sep.join(f"<code>{esc(k)}</code>" for k in keys)
            parts.append(ui(lg, "subref.keys", names=names))
        for key, sign in (
            ("minimum", "≥"),
            ("exclusiveMinimum", ">"),
            ("maximum", "≤"),
            ("minLength", ui(lg, "subref.length") + " ≥"),
            ("maxLength", ui(lg, "subref.length") + " ≤"),
        ):
            if key in sub:
                parts.append(f"{sign} {esc(_yaml(sub[key]))}")
    return esc(ui(lg, "subref.part_sep")).join(parts) or esc(ui(lg, "subref.any"))


def _example(node: dict[str, Any]) -> Any:
    if node.get("examples"):
        return node["examples"][0]
    if node.get("default") is not None:
        return node["default"]
    for sub in [node, *node.get("anyOf", [])]:
        if sub.get("enum"):
            return sub["enum"][0]
    return None


def _prose(text: str) -> str:
    return _CODE.sub(r"<code>\1</code>", esc(text))


def _table(node: dict[str, Any], block: str, lg: str) -> str:
    required = set(node.get("required", []))
    described = field_descriptions(lg)
    rows = []
    for field, prop in node["properties"].items():
        description = described.get(f"{block}.{field}", prop.get("description", ""))
        if field in required:
            default = f"<em>{esc(ui(lg, 'subref.required'))}</em>"
        elif "default" in prop:
            default = f"<code>{esc(_yaml(prop['default']))}</code>"
        else:
            default = "—"
        example = _example(prop)
        example_html = "—" if example is None else f"<code>{esc(_yaml(example))}</code>"
        rows.append(
            f'<tr><th id="{esc(field)}-field"><code>{esc(field)}</code></th>'
            f"<td>{_type(prop, lg)}</td><td>{default}</td><td>{_allowed(prop, lg)}</td>"
            f"<td>{_prose(description)}</td><td>{example_html}</td></tr>"
        )
    head = "".join(f"<th>{esc(ui(lg, f'subref.col_{c}'))}</th>" for c in COLUMNS)
    return (
        '\n<div class="lb-scroll"><table class="lb-table lb-ref"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>\n"
    )


def example_yaml(schema: dict[str, Any]) -> str:
    """A minimal model.yaml from the required fields' examples, validated here so the example
    on the page is one the loader accepts."""
    doc = {f: schema["properties"][f]["examples"][0] for f in schema["required"]}
    doc["params"] = schema["properties"]["params"]["examples"][0]
    Submission.model_validate(doc)
    return EDITOR_LINE + "\n" + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def _block_text(name: str, node: dict[str, Any], lg: str) -> str:
    text = field_descriptions(lg).get(name, node.get("description", ""))
    return _prose(" ".join(text.split())) + "\n"


def reference_page(ctx: Context) -> str:
    """The page (Markdown with HTML tables) in language `ctx.lg` and the schema download it
    links to (the schema, its field names and examples stay as the code defines them)."""
    out, lg = ctx.out, ctx.lg
    text = schema_text()
    out.files[SCHEMA_FILE] = text.encode("utf-8")
    schema = json.loads(text)
    title = ui(lg, "subref.title")
    download = f'<a href="{SCHEMA_FILE}" download>{SCHEMA_FILE}</a>'
    parts = [
        front_matter(search_exclude=False, title=title),
        f"# {esc(title)}\n",
        ui(lg, "subref.intro") + "\n",
        ui(lg, "subref.download", link=download) + "\n",
        "```yaml\n" + example_yaml(schema) + "```\n",
        f"## {esc(ui(lg, 'subref.rules_heading'))}\n",
        "\n".join(f"- {_prose(ui(lg, f'subref.rule_{i}'))}" for i in range(1, RULES + 1)) + "\n",
        f"## {esc(Submission.__name__)}\n",
        _block_text(Submission.__name__, schema, lg),
        _table(schema, Submission.__name__, lg),
    ]
    for name, node in schema["$defs"].items():
        parts.append(f"\n## {esc(name)} {{#{esc(name.lower())}}}\n")
        parts.append(_block_text(name, node, lg))
        parts.append(_table(node, name, lg))
    return "\n".join(parts)

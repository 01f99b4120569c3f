"""The submission reference: every field of model.yaml, generated from the pydantic model.

The page and the JSON Schema download (`model.schema.json`, also committed as
submissions/model.schema.json for editors) both come from `Submission.model_json_schema()`, so
neither can drift from the code that validates a submission; tests/test_site_pages.py regenerates
them and compares. Field descriptions and examples live on the fields (core/submission.py,
core/settings.py).
"""

from __future__ import annotations

import copy
import json
import re
import typing
from typing import Any

import yaml
from pydantic import BaseModel

from leaderboard.core.submission import Submission
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.page import Output, front_matter

SCHEMA_FILE = "model.schema.json"
SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"
EDITOR_LINE = f"# yaml-language-server: $schema=../{SCHEMA_FILE}"
_CODE = re.compile(r"`([^`]+)`")
# Cross-field rules are validators (core/submission.py), not schema keywords: stated here.
RULES = (
    "`id` must equal the submission's folder name.",
    "`quantization` other than `none` needs `backend: hf` (quantize on the server otherwise).",
    "`trust_remote_code: true` with a hub model needs `revision` pinned to a 40-hex commit.",
    "`openai`, `vllm` and `scripted` blocks are allowed only with the backend of that name; "
    "`backend: openai` needs an `openai` block with `base_url`.",
)


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


def _type(node: dict[str, Any]) -> str:
    """A schema node as a short HTML type name; a nested block links to its section."""
    name = _ref(node)
    if name is not None:
        return f'<a href="#{esc(name.lower())}">{esc(name)} block</a>'
    if "anyOf" in node:
        return " or ".join(_type(n) for n in node["anyOf"])
    kind = node.get("type", "any")
    if kind == "array":
        return f"list of {_type(node.get('items', {}))}"
    if kind == "object" and isinstance(node.get("additionalProperties"), dict):
        return f"map to {_type(node['additionalProperties'])}"
    return esc({"number": "number", "integer": "integer", "null": "null"}.get(kind, kind))


def _allowed(node: dict[str, Any]) -> str:
    """Enumerated values and numeric or length bounds, from the node and its variants."""
    parts: list[str] = []
    for sub in [node, *node.get("anyOf", []), node.get("items") or {}]:
        if "enum" in sub:
            parts.append(
                "one of " + ", ".join(f"<code>{esc(_yaml(v))}</code>" for v in sub["enum"])
            )
        keys = (sub.get("propertyNames") or {}).get("enum")
        if keys:
            parts.append("keys: " + ", ".join(f"<code>{esc(k)}</code>" for k in keys))
        for key, sign in (
            ("minimum", "≥"),
            ("exclusiveMinimum", ">"),
            ("maximum", "≤"),
            ("minLength", "length ≥"),
            ("maxLength", "length ≤"),
        ):
            if key in sub:
                parts.append(f"{sign} {esc(_yaml(sub[key]))}")
    return "; ".join(parts) or "any"


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


def _table(node: dict[str, Any]) -> str:
    required = set(node.get("required", []))
    rows = []
    for field, prop in node["properties"].items():
        if field in required:
            default = "<em>required</em>"
        elif "default" in prop:
            default = f"<code>{esc(_yaml(prop['default']))}</code>"
        else:
            default = "—"
        example = _example(prop)
        example_html = "—" if example is None else f"<code>{esc(_yaml(example))}</code>"
        rows.append(
            f'<tr><th id="{esc(field)}-field"><code>{esc(field)}</code></th><td>{_type(prop)}</td>'
            f"<td>{default}</td><td>{_allowed(prop)}</td>"
            f"<td>{_prose(prop.get('description', ''))}</td><td>{example_html}</td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("field", "type", "default", "allowed values", "description", "example")
    )
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


def reference_page(out: Output) -> str:
    """The page (Markdown with HTML tables) and the schema download it links to."""
    text = schema_text()
    out.files[SCHEMA_FILE] = text.encode("utf-8")
    schema = json.loads(text)
    parts = [
        front_matter(search_exclude=False, title="Submission reference"),
        "# Submission reference\n",
        "A submission is a folder `submissions/<id>/` holding a `model.yaml`. This page lists "
        "every field that file accepts, generated from the schema the runner validates it "
        "with; a key not listed here is an error naming its file and line.\n",
        f'Download the JSON Schema: <a href="{SCHEMA_FILE}" download>{SCHEMA_FILE}</a>. '
        "Editors with the YAML language server (VS Code's YAML extension and others) validate "
        "and complete a `model.yaml` as it is typed when its first line names the schema; the "
        "shipped submissions do:\n",
        "```yaml\n" + example_yaml(schema) + "```\n",
        "## Rules across fields\n",
        "\n".join(f"- {_prose(rule)}" for rule in RULES) + "\n",
        f"## {esc(Submission.__name__)}\n",
        _prose(schema.get("description", "")) + "\n",
        _table(schema),
    ]
    for name, node in schema["$defs"].items():
        parts.append(f"\n## {esc(name)} {{#{esc(name.lower())}}}\n")
        parts.append(_prose(" ".join(node.get("description", "").split())) + "\n")
        parts.append(_table(node))
    return "\n".join(parts)

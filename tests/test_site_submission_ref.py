"""The submission reference and model.schema.json are regenerated from the pydantic model and
compared with what is committed, so neither can drift from the code that validates model.yaml."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import yaml
from pydantic import BaseModel

from leaderboard.core.submission import Submission, load_submission
from leaderboard.site.pages.submission_ref import (
    EDITOR_LINE,
    SCHEMA_FILE,
    _models,
    _yaml,
    reference_page,
    schema_text,
)
from leaderboard.site.render.page import Output

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
SHIPPED = sorted((REPO / "submissions").glob("*/model.yaml"))


def test_committed_schema_is_the_generated_one():
    committed = (REPO / "submissions" / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), "run `python scripts/write_model_schema.py`"


def test_page_is_the_generated_one_and_publishes_the_schema():
    """Golden page; UPDATE_GOLDEN=1 rewrites it (review the diff: it is the reference)."""
    out = Output()
    page = reference_page(out)
    assert out.files[SCHEMA_FILE] == schema_text().encode("utf-8")
    golden = FIXTURES / "submission_reference.md"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(page, encoding="utf-8")
    assert page == golden.read_text(encoding="utf-8")


def test_every_field_of_every_block_is_described_with_default_and_example():
    """Walks the pydantic classes themselves (not the schema the page is built from)."""
    page = reference_page(Output())
    classes: dict[str, type[BaseModel]] = _models(Submission, {})
    assert set(classes) >= {"Submission", "Quantization", "Generation", "RunPlan"}
    for cls in classes.values():
        for name, info in cls.model_fields.items():
            assert f'<th id="{name}-field"><code>{name}</code></th>' in page, (cls, name)
            assert info.description, f"{cls.__name__}.{name} has no description"
            if not info.is_required() and info.default_factory is None:
                assert f"<code>{_yaml(info.default)}</code>" in page, (cls, name)
    row = page.split('<th id="backend-field">')[1].split("</tr>")[0]
    for value in ("hf", "openai", "vllm", "scripted"):
        assert f"<code>{value}</code>" in row


def test_shipped_submissions_name_the_schema_and_pass_it():
    """First line for the YAML language server; the schema (what an editor checks) and the loader
    both accept every shipped model.yaml."""
    schema = json.loads(schema_text())
    assert SHIPPED
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        assert text.splitlines()[0] == EDITOR_LINE, path
        jsonschema.validate(yaml.safe_load(text), schema)
        assert load_submission(path).id == path.parent.name


def test_schema_rejects_what_the_loader_rejects():
    schema = json.loads(schema_text())
    base = {"id": "x", "display_name": "X", "model": "m"}
    jsonschema.validate(base, schema)
    for bad in ({"tempreature": 0}, {"backend": "tgi"}, {"generation": {"top_p": 0}}):
        try:
            jsonschema.validate({**base, **bad}, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"schema accepted {bad}")

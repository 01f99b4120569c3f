"""The submission reference and model.schema.json are regenerated from the pydantic model and
compared with what is committed, so neither can drift from the code that validates model.yaml."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from pydantic import BaseModel, Field

from leaderboard.board.load import SiteData
from leaderboard.core.settings import Generation
from leaderboard.core.submission import Submission, load_submission
from leaderboard.site.pages.submission_ref import (
    EDITOR_LINE,
    SCHEMA_FILE,
    _models,
    _prose,
    _yaml,
    description_drift,
    field_descriptions,
    reference_page,
    schema_text,
)
from leaderboard.site.render.page import Context, Output

NO_DATA = SiteData(())  # the page shows the schema, not the board

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parents[1] / "fixtures"
SHIPPED = sorted((REPO / "submissions").glob("*/model.yaml"))


def test_committed_schema_is_the_generated_one():
    committed = (REPO / "submissions" / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), "run `python scripts/write_model_schema.py`"


def test_page_is_the_generated_one_and_publishes_the_schema():
    """Golden page; UPDATE_GOLDEN=1 rewrites it (review the diff: it is the reference)."""
    out = Output()
    page = reference_page(Context(NO_DATA, out))
    assert out.files[SCHEMA_FILE] == schema_text().encode("utf-8")
    golden = FIXTURES / "submission_reference.md"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(page, encoding="utf-8")
    assert page == golden.read_text(encoding="utf-8")


def test_every_field_of_every_block_is_described_with_default_and_example():
    """Walks the pydantic classes themselves (not the schema the page is built from)."""
    page = reference_page(Context(NO_DATA, Output()))
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


class _Grown(Submission):
    """A model.yaml that gained a field (same class name, as the page's blocks are named)."""

    new_option: int = Field(0, description="A field added later.")


_Grown.__name__ = "Submission"


@pytest.mark.parametrize(
    ("root", "missing", "stale"),
    [
        (Submission, [], []),
        (_Grown, ["Submission.new_option"], []),
        (Generation, [], None),  # a sub-model: every other block's descriptions are stale
    ],
)
def test_zh_descriptions_match_the_fields(root, missing, stale):
    """Drift test: each block and field has a zh description, and each zh description names an
    existing field (site/messages/submission_fields/zh.yaml, keyed Block.field)."""
    got_missing, got_stale = description_drift("zh", root)
    assert got_missing == missing
    if stale is None:
        assert "Submission.id" in got_stale
    else:
        assert got_stale == stale


def test_zh_page_describes_every_field_in_chinese_and_keeps_the_schema():
    out = Output()
    page = reference_page(Context(NO_DATA, out, "zh"))
    english = reference_page(Context(NO_DATA, Output()))
    assert out.files[SCHEMA_FILE] == schema_text().encode("utf-8")  # the schema stays English
    assert re.findall(r'id="([^"]+)"', page) == re.findall(r'id="([^"]+)"', english)
    for path, text in field_descriptions("zh").items():
        assert _prose(text) in page, path
    assert "# 提交文件参考" in page and "<th>允许的取值</th>" in page and "<em>必填</em>" in page
    examples = re.compile(r"<td><code>[^<]*</code></td></tr>")
    assert examples.findall(page) == examples.findall(english)

"""Prompts are the RGB reference prompts, byte for byte, formatted as evalue.py `predict` does."""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import yaml

from leaderboard.core.types import ChatMessage, ChatRequest
from leaderboard.core.types import (
    TestInstance as Instance,  # alias: pytest would try to collect Test*
)
from leaderboard.data.manifest import git_blob_sha1
from leaderboard.data.records import load_records
from leaderboard.protocol.instances import build_instance
from leaderboard.protocol.prompts import (
    INSTRUCTION_BLOB_ID,
    build_request,
    messages_as_dicts,
    passage_sha256,
    prompt_sha256,
    system_prompt,
    user_prompt,
)

PACKAGED = resources.files("leaderboard.protocol") / "resources" / "instruction.yaml"


def _inst(lang: str = "en", docs: tuple[str, ...] = ("d1", "d2"), query: str = "Who?") -> Instance:
    return Instance(
        lang=lang, ability="noise", noise_rate=0.2, id=3, query=query, answer=("a",), docs=docs
    )


def test_packaged_instruction_is_the_official_file() -> None:
    """The git blob id is the upstream file's identity (config/instruction.yaml in
    chen700564/RGB): equal ids mean equal bytes."""
    packaged = PACKAGED.read_bytes()
    assert git_blob_sha1(packaged) == INSTRUCTION_BLOB_ID
    source = (resources.files("leaderboard.protocol") / "resources" / "SOURCE.md").read_text(
        "utf-8"
    )
    assert INSTRUCTION_BLOB_ID in source and "chen700564/RGB" in source


def test_user_prompt_matches_reference_formatting() -> None:
    ref = yaml.safe_load(PACKAGED.read_text("utf-8"))
    inst = _inst(docs=("first {x} passage", "second"), query="What is {QUERY}?")
    # reference: docs = '\n'.join(docs); instruction.format(QUERY=query, DOCS=docs)
    assert user_prompt(inst) == ref["en"]["instruction"].format(
        QUERY="What is {QUERY}?", DOCS="first {x} passage\nsecond"
    )
    assert (
        user_prompt(inst) == "Document:\nfirst {x} passage\nsecond \n\nQuestion:\nWhat is {QUERY}?"
    )
    zh = _inst(lang="zh", docs=("文档一",), query="谁？")
    assert user_prompt(zh) == "文档：\n文档一 \n\n问题：\n谁？"
    assert system_prompt("zh") == ref["zh"]["system"] and "信息不足" in system_prompt("zh")
    assert "insufficient information" in system_prompt("en")


def test_build_request_with_and_without_docs() -> None:
    req = build_request(_inst())
    assert [m.role for m in req.messages] == ["system", "user"]
    assert req.messages[0].content == system_prompt("en")
    # no passages: the reference fills DOCS with '' and does not pass the RGB system prompt
    bare = build_request(_inst(docs=()))
    assert [m.role for m in bare.messages] == ["user"]
    assert bare.messages[0].content == "Document:\n \n\nQuestion:\nWho?"
    assert messages_as_dicts(req)[1] == {"role": "user", "content": user_prompt(_inst())}


def test_hashes_are_stable_and_sensitive() -> None:
    req = build_request(_inst())
    assert prompt_sha256(req) == prompt_sha256(build_request(_inst()))
    assert prompt_sha256(req) != prompt_sha256(build_request(_inst(query="Who else?")))
    swapped = ChatRequest(
        messages=(
            ChatMessage("user", req.messages[0].content),
            ChatMessage("system", req.messages[1].content),
        )
    )
    assert prompt_sha256(req) != prompt_sha256(swapped)
    assert passage_sha256("文档") == hashlib.sha256("文档".encode()).hexdigest()
    assert len(prompt_sha256(req)) == 64


def test_real_instance_prompt(data_root: Path) -> None:
    rec = load_records(data_root / "data_zh" / "zh_refine.json")[0]
    inst = build_instance(rec, "zh", "noise", 0.4)
    text = user_prompt(inst)
    assert text.startswith("文档：\n" + inst.docs[0])
    assert text.endswith("\n\n问题：\n" + rec.query)
    assert "\n".join(inst.docs) in text

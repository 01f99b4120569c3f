"""Chat requests built from the RGB reference prompts (resources/instruction.yaml).

Source and blob id of the prompt file: resources/SOURCE.md.

The reference (evalue.py `predict`) joins the passages with '\\n', fills `instruction` with QUERY
and DOCS, and passes `system` as the system prompt. With no passages it fills DOCS with '' and
calls the model *without* the RGB system prompt (the model's own default applies);
build_request mirrors that by sending only the user message.
"""

from __future__ import annotations

import hashlib
import json

from leaderboard.core.errors import DataError
from leaderboard.core.types import LANGS, ChatMessage, ChatRequest, Lang, TestInstance
from leaderboard.protocol.instructions import is_official, load_instruction, official_texts

INSTRUCTION_BLOB_ID = "80dbb0e07e68ac3c2a571151da071d4c53463683"


def _lang(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        raise DataError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    return official_texts()[lang]


def system_prompt(lang: Lang) -> str:
    """The reference system prompt (tells the model to reject or flag factual errors)."""
    return _lang(lang)["system"]


def instruction_template(lang: Lang) -> str:
    """The reference user template with {DOCS} and {QUERY} placeholders."""
    return _lang(lang)["instruction"]


def user_prompt(instance: TestInstance) -> str:
    """The user message exactly as the reference formats it."""
    docs = "\n".join(instance.docs) if instance.docs else ""
    return instruction_template(instance.lang).format(QUERY=instance.query, DOCS=docs)


def build_request(instance: TestInstance, instruction: str | None = None) -> ChatRequest:
    """System + user messages; user only when there are no passages (as the reference does).
    The passages and language ride along as data for the scripted baselines.

    `instruction` names an alternative of the instruction-sensitivity track
    (protocol/instructions.py; None or "rgb": RGB's own): its system message (or none) replaces
    RGB's and its preamble goes before RGB's user message; a closed-book question has no
    instruction to vary and is built as the reference builds it."""
    # `question` is what a `system` backend (a whole RAG pipeline) gets
    context = {"passages": instance.docs, "lang": instance.lang, "question": instance.query}
    if not instance.docs:
        user = ChatMessage(role="user", content=user_prompt(instance))
        return ChatRequest(messages=(user,), **context)
    if is_official(instruction):
        system: str | None = system_prompt(instance.lang)
        preamble = ""
    else:
        chosen = load_instruction(instruction)  # type: ignore[arg-type]
        system, preamble = chosen.system(instance.lang), chosen.user_preamble(instance.lang)
    user = ChatMessage(role="user", content=preamble + user_prompt(instance))
    if system is None:
        return ChatRequest(messages=(user,), **context)
    return ChatRequest(messages=(ChatMessage(role="system", content=system), user), **context)


def messages_as_dicts(request: ChatRequest) -> list[dict[str, str]]:
    """OpenAI-style message dicts (for chat templates, HTTP APIs and `instances --show-prompt`)."""
    return [{"role": m.role, "content": m.content} for m in request.messages]


def prompt_sha256(request: ChatRequest) -> str:
    """Hash of the messages (roles, contents; canonical JSON), independent of any chat template."""
    canon = json.dumps(messages_as_dicts(request), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def passage_sha256(doc: str) -> str:
    """Hash of one passage's UTF-8 text, so predictions record which passages were shown."""
    return hashlib.sha256(doc.encode("utf-8")).hexdigest()

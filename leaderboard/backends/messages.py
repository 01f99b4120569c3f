"""Chat messages as chat APIs take them ({"role", "content"} dicts), with the submission's
system-prompt policy applied.

Shared by the OpenAI-compatible backend and vLLM's `llm.chat`; it lives apart from both so that
vLLM does not import the HTTP client to build a message list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from leaderboard.core.types import ChatMessage

SystemPolicy = Literal["system", "merge", "none"]


def apply_system_policy(
    messages: Sequence[ChatMessage], policy: SystemPolicy
) -> list[dict[str, str]]:
    """Messages as chat dicts, with the system prompt kept, merged into the first user turn
    (for models whose template has no system role) or dropped."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    turns = [{"role": m.role, "content": m.content} for m in messages if m.role != "system"]
    if not system or policy == "none":
        return turns
    if policy == "merge" and turns:
        turns[0] = {**turns[0], "content": f"{system}\n\n{turns[0]['content']}"}
        return turns
    return [{"role": "system", "content": system}, *turns]

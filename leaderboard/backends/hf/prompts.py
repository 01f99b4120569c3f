"""Chat requests to token ids for the hf backend: chat template choice, system-prompt handling
and the max_input_tokens policy.

How a prompt was rendered is part of what a score means, so the template's hash and source and
the way the system prompt was passed are recorded (HFBackend.describe reads them from here).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from leaderboard.core.types import ChatMessage, ChatRequest

if TYPE_CHECKING:
    from leaderboard.core.submission import Submission

FALLBACK_FORMAT = "{system}\n\n{user}"  # used when a tokenizer has no chat template


@dataclass(frozen=True)
class PromptOptions:
    """How a chat request becomes a prompt, as model.yaml sets it: the chat template (a file's
    text replaces the tokenizer's), the system-prompt policy and the input limit. The same for
    both engines that render prompts themselves (hf, llamacpp), so both answer the same prompt."""

    chat_template: str = "auto"
    chat_template_text: str | None = None
    system_prompt: Literal["system", "merge", "none"] = "system"
    max_input_tokens: int | None = None
    truncation: Literal["error", "left_docs"] = "error"

    @classmethod
    def from_submission(cls, sub: Submission) -> PromptOptions:
        return cls(
            chat_template=sub.chat_template,
            chat_template_text=sub.resolve_chat_template(),
            system_prompt=sub.system_prompt,
            max_input_tokens=sub.max_input_tokens,
            truncation=sub.truncation,
        )


class PromptTooLong(ValueError):
    """A prompt exceeds max_input_tokens under the 'error' truncation policy."""


@dataclass
class Template:
    source: Literal["tokenizer", "path", "fallback", "none"]
    text: str | None
    system_used: str = field(default="")

    @property
    def sha256(self) -> str:
        return hashlib.sha256((self.text or FALLBACK_FORMAT).encode()).hexdigest()


def pick_template(tokenizer: Any, setting: str, text: str | None) -> Template:
    """The template the prompts are rendered with; a file's text replaces the tokenizer's own."""
    if setting == "none":
        return Template("none", None)
    if text is not None:
        tokenizer.chat_template = text
        return Template("path", text)
    existing = getattr(tokenizer, "chat_template", None)
    if isinstance(existing, dict):  # several named templates: the default one is used
        existing = existing.get("default")
    if existing:
        return Template("tokenizer", existing)
    return Template("fallback", None)


@dataclass
class PromptEncoder:
    """Renders and tokenizes requests with one tokenizer, template and truncation policy."""

    tokenizer: Any
    template: Template
    system_prompt: Literal["system", "merge", "none"] = "system"
    max_input_tokens: int | None = None
    truncation: Literal["error", "left_docs"] = "error"

    def render(self, request: ChatRequest) -> tuple[str, bool]:
        """The prompt text and whether the tokenizer must add its special tokens (fallback only).

        How the system prompt was passed is recorded in template.system_used: "system", "merge"
        (prepended to the first user turn), "merge (template has no system role)" when a template
        rejected a system turn, "none" (dropped) or "absent" (the request had none).
        """
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        turns = [m for m in request.messages if m.role != "system"]
        mode = self.system_prompt if system else "absent"
        if self.template.text is None:  # "none" or "fallback": plain concatenation
            keep = [system] if mode in ("system", "merge") else []
            self.template.system_used = mode
            return "\n\n".join([*keep, *(m.content for m in turns)]), True
        text = None
        if mode == "system":
            try:
                text = self._apply([ChatMessage("system", system), *turns])
            except Exception as exc:  # templates without a system role raise: merge instead
                if "system" not in str(exc).lower():
                    raise
                mode = "merge (template has no system role)"
        if text is None:
            if mode.startswith("merge") and turns:
                first = turns[0]
                turns = [ChatMessage(first.role, f"{system}\n\n{first.content}"), *turns[1:]]
            text = self._apply(turns)
        self.template.system_used = mode
        return text, False

    def _apply(self, messages: list[ChatMessage]) -> str:
        return self.tokenizer.apply_chat_template(
            [{"role": m.role, "content": m.content} for m in messages],
            tokenize=False,
            add_generation_prompt=True,
        )

    def encode(self, request: ChatRequest) -> tuple[list[int], int]:
        """Token ids of the rendered prompt and how many tokens truncation removed."""
        text, special = self.render(request)
        ids = self.tokenizer(text, add_special_tokens=special)["input_ids"]
        limit = self.max_input_tokens
        if limit is None or len(ids) <= limit:
            return ids, 0
        if self.truncation == "error":
            raise PromptTooLong(
                f"prompt has {len(ids)} tokens, more than max_input_tokens={limit}; raise "
                "max_input_tokens or set truncation: left_docs"
            )
        return self._truncate_docs(request, len(ids), limit)

    def _truncate_docs(self, request: ChatRequest, n: int, limit: int) -> tuple[list[int], int]:
        """Keep the start of the documents and all of the question: the last user message is
        "<documents>\\n\\n<question>", so tokens are cut from the end of the documents part."""
        msgs = list(request.messages)
        last = max(i for i, m in enumerate(msgs) if m.role == "user")
        head, sep, question = msgs[last].content.rpartition("\n\n")
        if not sep:
            raise PromptTooLong(
                f"prompt has {n} tokens > max_input_tokens={limit} and no documents"
            )
        head_ids = self.tokenizer(head, add_special_tokens=False)["input_ids"]
        excess = n - limit
        for _ in range(4):  # re-tokenizing at the cut can differ by a few tokens: retry tighter
            keep = len(head_ids) - excess
            if keep <= 0:
                break
            cut = self.tokenizer.decode(head_ids[:keep], skip_special_tokens=True)
            msgs[last] = ChatMessage("user", f"{cut}{sep}{question}")
            text, special = self.render(ChatRequest(tuple(msgs)))
            ids = self.tokenizer(text, add_special_tokens=special)["input_ids"]
            if len(ids) <= limit:
                return ids, n - len(ids)
            excess += len(ids) - limit + 2
        raise PromptTooLong(
            f"prompt has {n} tokens and stays over max_input_tokens={limit} even without documents"
        )

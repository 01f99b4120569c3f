"""The chat side of the llama.cpp backend: the GGUF's chat template rendered as transformers
renders it, and the slice of a tokenizer that `hf/prompts.PromptEncoder` needs, over a llama.cpp
model. Kept apart from the engine so that both backends demonstrably build the same prompt text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any


class JinjaChatTemplate:
    """A chat template rendered as transformers renders it (`apply_chat_template`), without
    transformers: the same sandbox, options, globals and filters, so the same text comes out."""

    def __init__(self, text: str, bos_token: str, eos_token: str) -> None:
        import jinja2
        from jinja2.ext import loopcontrols
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        def raise_exception(message: str) -> None:
            raise jinja2.exceptions.TemplateError(message)

        def tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, **kw: Any) -> str:
            import json

            return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, **kw)

        env = ImmutableSandboxedEnvironment(
            trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
        )
        env.filters["tojson"] = tojson
        env.globals["raise_exception"] = raise_exception
        env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
        self.text = text
        self._template = env.from_string(text)
        self.bos_token, self.eos_token = bos_token, eos_token

    def render(self, messages: list[dict[str, str]], add_generation_prompt: bool) -> str:
        return self._template.render(
            messages=messages,
            add_generation_prompt=add_generation_prompt,
            bos_token=self.bos_token,
            eos_token=self.eos_token,
        )


class LlamaTokenizer:
    """The slice of a transformers tokenizer that `PromptEncoder` uses, over a llama.cpp model:
    chat templates, tokenization with special tokens parsed, decoding."""

    def __init__(self, llama: Any, template: JinjaChatTemplate | None) -> None:
        self.llama = llama
        self.template = template
        self.chat_template = template.text if template is not None else None

    def apply_chat_template(
        self, messages: list[dict[str, str]], tokenize: bool, add_generation_prompt: bool
    ) -> str:
        assert self.template is not None and not tokenize
        return self.template.render(messages, add_generation_prompt)

    def __call__(self, text: str, add_special_tokens: bool) -> dict[str, list[int]]:
        ids = self.llama.tokenize(text.encode("utf-8"), add_bos=add_special_tokens, special=True)
        return {"input_ids": list(ids)}

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        raw = self.llama.detokenize(list(ids), special=not skip_special_tokens)
        return raw.decode("utf-8", errors="replace")


def special_token(llama: Any, token_id: int) -> str:
    """The text of a special token (an end-of-turn marker), or "" for a missing id (-1)."""
    if token_id < 0:
        return ""
    return llama.detokenize([token_id], special=True).decode("utf-8", errors="replace")

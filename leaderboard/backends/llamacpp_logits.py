"""What llama.cpp's last logits say: the log-probability of the token just picked (an answer's
confidence) and whether a batched prompt evaluation answers as a one-token-at-a-time one does
(the load-time check of `llamacpp.LlamaCppBackend`).

Both read the same thing, the logits llama.cpp keeps for the last evaluated position of each
batch: with `logits_all` off that is the only row there is, and it is the distribution the next
token is picked from.

The check exists because of a measured fault: llama-cpp-python 0.3.36 built for AVX2 without
AVX-512, llamafile's matrix kernels on, SmolLM2's Q4_1 GGUF answers "La femme de France, le Grand
Croix, ..." to "What is the capital of France?" after a batched prefill and "The capital of France
is Paris." after a one-token prefill; with flash attention both paths agree exactly, and the
Qwen2.5 GGUFs agree either way (benchmarks/llamacpp_prefill_fault.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from leaderboard.core.types import ChatMessage, ChatRequest

CHECK_REQUEST = ChatRequest(
    (
        ChatMessage("system", "You are a helpful assistant."),
        ChatMessage("user", "What is the capital of France?"),
    )
)
CHECK_TOKENS = 8


def last_logits(llama: Any) -> np.ndarray:
    """The logits of the last evaluated position (a view into llama.cpp's buffer)."""
    import llama_cpp  # the optional extra; only a loaded llama.cpp model reaches here

    ptr = llama_cpp.llama_get_logits_ith(llama._ctx.ctx, -1)
    return np.ctypeslib.as_array(ptr, shape=(llama.n_vocab(),))


def token_logprob(llama: Any, token: int) -> float:
    """log p(token) under the last position's distribution (log-softmax in float64)."""
    logits = last_logits(llama).astype(np.float64)
    top = logits.max()
    return float(logits[token] - top - np.log(np.exp(logits - top).sum()))


def greedy_after(llama: Any, ids: list[int], one_by_one: bool) -> list[int]:
    """CHECK_TOKENS greedy tokens after evaluating `ids` in one batch or one token at a time,
    from an empty KV cache (left empty again)."""
    import llama_cpp

    llama.reset()
    for chunk in ([t] for t in ids) if one_by_one else [ids]:
        llama.eval(chunk)
    out: list[int] = []
    for _ in range(CHECK_TOKENS):
        token = int(np.argmax(last_logits(llama)))
        out.append(token)
        if llama_cpp.llama_vocab_is_eog(llama._model.vocab, token):
            break
        llama.eval([token])
    llama.reset()
    return out


def prefill_disagreement(llama: Any, ids: list[int]) -> str | None:
    """None when both prefills lead to the same greedy tokens, else what each produced."""
    batched = greedy_after(llama, ids, one_by_one=False)
    single = greedy_after(llama, ids, one_by_one=True)
    if batched == single:
        return None

    def text(tokens: list[int]) -> str:
        return llama.detokenize(tokens).decode("utf-8", errors="replace")

    return f"batched {text(batched)!r}, one token at a time {text(single)!r}"

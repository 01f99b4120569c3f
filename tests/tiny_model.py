"""Build a tiny random-weight Llama with a real BPE tokenizer and chat template, saved to a folder.

Used by backend and runner tests (and scripts/gpu_smoke.sh) to exercise real transformers generation
in seconds: batching, left padding, order restoration, quantized loading. The tokenizer is trained
with `tokenizers` on a small zh+en corpus (byte-level, so any text encodes without unknown tokens).
"""

from __future__ import annotations

from pathlib import Path

CHATML_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Like Mistral/Gemma templates: a system turn is an error; backends merge it into the user turn.
NO_SYSTEM_TEMPLATE = (
    "{% for m in messages %}{% if m['role'] == 'system' %}"
    "{{ raise_exception('System role not supported') }}{% endif %}"
    "<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL_TOKENS = ["<|pad|>", "<|bos|>", "<|eos|>", "<|im_start|>", "<|im_end|>"]

_CORPUS_EN = [
    "Document: The 2022 Nobel Prize in Literature was awarded to Annie Ernaux.",
    "Question: Who won the 2022 Nobel Prize in Literature?",
    "I can not answer the question because of the insufficient information in documents.",
    "There are factual errors in the provided documents.",
    "The quick brown fox jumps over the lazy dog while the model answers questions.",
    "You are an accurate and reliable AI assistant that can answer questions with the help of "
    "external documents.",
    "Retrieval augmented generation combines a language model with passages from a search engine.",
    "The final of the World Cup was played on December 18, 2022 in Lusail, Qatar.",
]
_CORPUS_ZH = [
    "文档：2022年诺贝尔文学奖授予了法国作家安妮·埃尔诺。",
    "问题：谁获得了2022年诺贝尔文学奖？",
    "文档信息不足，因此我无法基于提供的文档回答该问题。",
    "提供文档的文档存在事实性错误。",
    "你是一个准确和可靠的人工智能助手，能够借助外部文档回答问题。",
    "检索增强生成把语言模型和搜索引擎返回的文档结合起来。",
    "世界杯决赛于2022年12月18日在卡塔尔卢赛尔举行。",
]


def build_tokenizer(padding_side: str = "left", chat_template: str | None = CHATML_TEMPLATE):
    """A byte-level BPE tokenizer trained here; padding_side is given to the constructor."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator((_CORPUS_EN + _CORPUS_ZH) * 3, trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|bos|>",
        eos_token="<|eos|>",
        pad_token="<|pad|>",
        additional_special_tokens=["<|im_start|>", "<|im_end|>"],
        padding_side=padding_side,
    )
    if chat_template is not None:
        fast.chat_template = chat_template
    return fast


def build_tiny_model(
    path: Path | str,
    *,
    padding_side: str = "left",
    chat_template: str | None = CHATML_TEMPLATE,
    seed: int = 0,
    hidden_size: int = 64,
    num_layers: int = 2,
) -> Path:
    """Save a random-weight LlamaForCausalLM + tokenizer to `path` and return it.

    The end-of-turn token <|im_end|> is also an EOS id so generation can stop early, as real chat
    models do; weights are seeded, so the same call builds byte-identical models.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(padding_side=padding_side, chat_template=chat_template)
    eos_ids = [tokenizer.convert_tokens_to_ids(t) for t in ("<|eos|>", "<|im_end|>")]
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=num_layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=eos_ids,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    with torch.no_grad():  # a larger init spread makes greedy outputs vary with the prompt
        for p in model.parameters():
            if p.dim() > 1:
                p.normal_(0.0, 0.2)
    model.generation_config.eos_token_id = eos_ids
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


if __name__ == "__main__":  # used by scripts/gpu_smoke.sh
    import sys

    print(build_tiny_model(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tiny-llama"))

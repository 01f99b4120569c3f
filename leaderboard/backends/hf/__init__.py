"""The transformers backend: loading (bitsandbytes, GGUF, accelerate), chat prompts, batches."""

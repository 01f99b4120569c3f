"""The fingerprint that guards resume: a hash of everything that changes a submission's answers.

It is computed from the submission alone (no model load), so a dry run, a resume check and a
refusal to mix settings all happen before minutes of loading. It covers the weights' identity (a
local file's sha256, or hub id + revision), dtype, quantization, chat template, system-prompt
handling, generation config, input budget and truncation, the prompt texts and the
instance-building parameters. It leaves out what only changes speed (batch size, threads, device
map, concurrency); the batch size is recorded per prediction instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path, PurePosixPath

from leaderboard.backends.registry import backend_traits
from leaderboard.core.schema import Results
from leaderboard.core.submission import Submission
from leaderboard.core.weights import file_sha256
from leaderboard.protocol.conflicts import conditions_sha256
from leaderboard.protocol.instructions import is_official, load_instruction

FINGERPRINT_VERSION = 1
INSTRUCTION_FILE = (
    Path(__file__).resolve().parents[1] / "protocol" / "resources" / "instruction.yaml"
)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _local_dir_identity(folder: Path) -> dict[str, object]:
    """A checkpoint folder: config/tokenizer files by content, weight shards by name and size
    (hashing tens of GB of shards on every run would cost minutes)."""
    small, shards = {}, {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        if p.suffix in {".json", ".jinja", ".model", ".txt", ".py", ".tiktoken"}:
            small[rel] = file_sha256(p)
        elif p.suffix in {".safetensors", ".bin", ".gguf", ".pt"}:
            shards[rel] = p.stat().st_size
    return {"folder_files_sha256": small, "weight_files_bytes": shards}


def model_identity(sub: Submission, read_weights: bool = True) -> dict[str, object]:
    """Identity of the weights without loading them. A local .gguf that declares no sha256 is
    hashed whole (minutes for GBs), unless `read_weights` is False (a dry run): its sha256 is
    then None."""
    if backend_traits(sub.backend).named_by_server:
        served = sub.openai.model if sub.openai and sub.openai.model else sub.model
        return {"served_model": served, "revision": sub.revision}
    if sub.weights is not None:  # joined from parts: the declared hash, no weights needed
        return {"gguf_file": sub.weights.file, "sha256": sub.weights.sha256}
    if sub.sha256 is not None:  # one declared file (checked when it loads): no weights needed
        return {"gguf_file": PurePosixPath(sub.model).name, "sha256": sub.sha256}
    resolved = sub.resolve_model()
    if resolved.source == "hub":
        return {
            "hub_id": resolved.path_or_id,
            "gguf_file": resolved.gguf_file,
            "revision": sub.revision or "main",
        }
    folder = Path(resolved.path_or_id)
    if resolved.gguf_file:
        digest = file_sha256(folder / resolved.gguf_file) if read_weights else None
        return {"gguf_file": resolved.gguf_file, "sha256": digest}
    return _local_dir_identity(folder)


def resolved_revision(sub: Submission) -> str | None:
    """What `model_revision` in the provenance says: a commit, or the local file's sha256."""
    ident = model_identity(sub)
    if "sha256" in ident:
        return f"sha256:{ident['sha256']}"
    return sub.revision


def prompts_sha256() -> str:
    """Hash of the packaged prompt texts (instruction.yaml).

    Code that assembles prompts is not hashed: a refactor must not invalidate a long resumable run.
    Any change that does alter a prompt is caught per instance instead, by comparing the stored
    prompt_sha256 with the one rebuilt now (see runner).
    """
    p = INSTRUCTION_FILE
    return hashlib.sha256(p.read_bytes() if p.exists() else b"<absent>").hexdigest()


def fingerprint_inputs(
    sub: Submission,
    read_weights: bool = True,
    instruction: str | None = None,
    conflicts: bool = False,
) -> dict[str, object]:
    """What changes answers. An alternative instruction (protocol/instructions.py) replaces the
    prompt file's hash by its own file's and adds its id; RGB's own adds nothing, so every
    fingerprint recorded before the instruction track stays valid. A conflict run adds the hash
    of what builds the conditions' instances (protocol/conflicts.conditions_sha256)."""
    template = sub.resolve_chat_template()
    variant = None if is_official(instruction) else load_instruction(instruction)  # type: ignore[arg-type]
    return {
        "fingerprint_version": FINGERPRINT_VERSION,
        "backend": sub.backend,
        "model": model_identity(sub, read_weights),
        "dtype": sub.dtype,
        "quantization": sub.quantization.describe(),
        "chat_template": sub.chat_template if template is None else sha256_text(template),
        "system_prompt": sub.system_prompt,
        "generation": dataclasses.asdict(sub.generation.to_config()),
        "max_input_tokens": sub.max_input_tokens,
        "truncation": sub.truncation,
        "prompts_sha256": prompts_sha256() if variant is None else variant.sha256,
        **({} if variant is None else {"instruction": variant.id}),
        **({"conflicts": conditions_sha256()} if conflicts else {}),
        "passage_num": sub.run.passage_num,
        "variant": sub.run.variant,
        # the key keeps the scripted backend's former name, and empty `rules` are left out (they
        # came later), so existing fingerprints stay valid
        "fake": _scripted_inputs(sub),
        # server-side sampling fields sent with every request change the answers; absent when
        # empty, so every fingerprint recorded before the setting stays valid
        **({"openai_extra_body": dict(sub.openai.extra_body)} if _extra_body(sub) else {}),
        **backend_traits(sub.backend).fingerprint,
    }


def _extra_body(sub: Submission) -> bool:
    return bool(sub.openai is not None and sub.openai.extra_body)


def _scripted_inputs(sub: Submission) -> dict[str, object] | None:
    if sub.scripted is None:
        return None
    return sub.scripted.model_dump(exclude=None if sub.scripted.rules else {"rules"})


def fingerprint(sub: Submission, instruction: str | None = None, conflicts: bool = False) -> str:
    """sha256 (first 16 hex) of the canonical JSON of `fingerprint_inputs`."""
    canon = json.dumps(
        fingerprint_inputs(sub, instruction=instruction, conflicts=conflicts),
        sort_keys=True,
        ensure_ascii=True,
    )
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def dry_run_fingerprint(
    sub: Submission,
    recorded: Results | None,
    instruction: str | None = None,
    conflicts: bool = False,
) -> str:
    """The fingerprint a dry run shows, reading no weights: the real one when the identity
    needs no hash; else the one results.json records when its inputs equal this model.yaml's
    in everything but the weights' hash (the weights are taken to be the same file); else a
    note saying why it is not known (a run hashes the weights first)."""
    light = jsonable(
        fingerprint_inputs(sub, read_weights=False, instruction=instruction, conflicts=conflicts)
    )
    model = light.get("model") if isinstance(light, dict) else None
    if not (isinstance(model, dict) and "sha256" in model and model["sha256"] is None):
        return fingerprint(sub, instruction, conflicts)
    if recorded is not None:
        inputs = recorded.provenance.extra.get("fingerprint_inputs")
        if isinstance(inputs, dict) and _without_weights_hash(inputs) == _without_weights_hash(
            light  # type: ignore[arg-type]
        ):
            return recorded.provenance.fingerprint
    return (
        f"(not computed: {model.get('gguf_file')} declares no sha256 and a dry run reads no "
        "weights; set `sha256:` in model.yaml)"
    )


def _without_weights_hash(inputs: dict[str, object]) -> dict[str, object]:
    model = inputs.get("model")
    if isinstance(model, dict):
        return {**inputs, "model": {k: v for k, v in model.items() if k != "sha256"}}
    return inputs


def jsonable(obj: object) -> object:
    """Round-trip through JSON so backend descriptions with odd types fit the schema."""
    return json.loads(json.dumps(obj, default=str))

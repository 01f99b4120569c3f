"""The instructions a model can be asked under: RGB's official one (ranked) and the alternatives of
the instruction-sensitivity track, each a small file in resources/instructions/<id>.yaml.

Why files and not code: an instruction is data a reader compares (the site prints every text in
both languages) and its hash enters the fingerprint of the answers it produced, so a wording change
can never mix with answers of the old wording. The official texts are RGB's own file
(resources/instruction.yaml, blob id checked by tests/protocol/test_prompts.py); its rgb.yaml holds
only what the site says about it.

A variant may change two things, and declares which (`differs_in`): the system message (`system`:
a text, or null for none) and a preamble put before RGB's user message (`user_preamble`). RGB's
user template itself ({DOCS}, {QUERY}) is never changed, so a variant differs from the official
prompt only where its file says (tests/protocol/test_instructions.py renders both and compares).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import LANGS, Ability, Lang
from leaderboard.core.yaml_lines import line_of, validate_yaml_text

OFFICIAL = "rgb"  # the id of RGB's instruction, the one the board ranks
Part = Literal["system", "user"]
# the track an alternative was written for: the instruction-sensitivity panel, or the
# knowledge-conflict track (protocol/conflicts.py), whose instruction is asked only there
Track = Literal["instructions", "conflicts"]
_FOLDER = "instructions"


class _Texts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    system: str | None
    user_preamble: str = ""


class _Bilingual(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    en: str
    zh: str


class _InstructionFile(BaseModel):
    """resources/instructions/<id>.yaml as written (the edge: unknown fields are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    official: bool = False
    track: Track = "instructions"
    title: _Bilingual
    purpose: _Bilingual
    changes: _Bilingual
    differs_in: tuple[Part, ...] = ()
    en: _Texts | None = None
    zh: _Texts | None = None


@dataclass(frozen=True)
class LangTexts:
    """What one language's prompt is made of: the system message (None: no system message) and
    the text put before RGB's user message."""

    system: str | None
    user_preamble: str


@dataclass(frozen=True)
class Instruction:
    id: str
    official: bool
    title: dict[str, str]  # interface language -> text
    purpose: dict[str, str]
    changes: dict[str, str]
    differs_in: tuple[Part, ...]
    texts: dict[str, LangTexts]  # RGB language -> texts
    # enters the fingerprint: RGB's file's sha256 for the official one (as before the track), the
    # canonical JSON of the prompt texts for a variant
    sha256: str
    track: Track = "instructions"

    def system(self, lang: Lang) -> str | None:
        return self.texts[lang].system

    def user_preamble(self, lang: Lang) -> str:
        return self.texts[lang].user_preamble


def _resource(*parts: str):
    return resources.files("leaderboard.protocol").joinpath("resources", *parts)


@cache
def official_texts() -> dict[str, dict[str, str]]:
    """RGB's system prompt and user template per language, from its file as published."""
    data = yaml.safe_load(_resource("instruction.yaml").read_text("utf-8"))
    return {
        lang: {"system": data[lang]["system"], "instruction": data[lang]["instruction"]}
        for lang in LANGS
    }


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@cache
def instruction_ids() -> tuple[str, ...]:
    """Every instruction, the official first, then the alternatives by id."""
    names = sorted(
        p.name[: -len(".yaml")] for p in _resource(_FOLDER).iterdir() if p.name.endswith(".yaml")
    )
    return (OFFICIAL, *[n for n in names if n != OFFICIAL])


def alternative_ids(track: Track = "instructions") -> tuple[str, ...]:
    """The alternatives written for one track (by default the sensitivity panel's), official
    excluded."""
    return tuple(
        i for i in instruction_ids() if i != OFFICIAL and load_instruction(i).track == track
    )


@cache
def load_instruction(instruction_id: str) -> Instruction:
    """One instruction by id; ConfigError naming the file and field when it is malformed."""
    if instruction_id not in instruction_ids():
        raise ConfigError(
            f"unknown instruction {instruction_id!r}: use one of {', '.join(instruction_ids())}"
        )
    name = f"leaderboard/protocol/resources/{_FOLDER}/{instruction_id}.yaml"
    text = _resource(_FOLDER, f"{instruction_id}.yaml").read_text("utf-8")
    spec, root = validate_yaml_text(
        text, name, _InstructionFile, ", ".join(_InstructionFile.model_fields)
    )

    def fault(field: str, message: str) -> ConfigError:
        return ConfigError(f"{name}:{line_of(root, (field,))}: field '{field}': {message}")

    if spec.id != instruction_id:
        raise fault("id", f"{spec.id!r} differs from the file name")
    if spec.official:
        if spec.en or spec.zh or spec.differs_in:
            raise fault("official", "the official texts are RGB's own file")
        official = official_texts()
        texts = {lang: LangTexts(official[lang]["system"], "") for lang in LANGS}
        digest = _sha256(_resource("instruction.yaml").read_bytes())
    else:
        texts = {}
        for lang in LANGS:
            given = getattr(spec, lang)
            if given is None:
                raise fault(lang, "missing (every language needs texts)")
            texts[lang] = LangTexts(given.system, given.user_preamble)
        # the texts that reach the model, not the file: a reworded title or purpose must not
        # orphan answers made under the same prompt
        canon = {lang: [t.system, t.user_preamble] for lang, t in sorted(texts.items())}
        digest = _sha256(json.dumps(canon, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return Instruction(
        id=spec.id,
        official=spec.official,
        title=spec.title.model_dump(),
        purpose=spec.purpose.model_dump(),
        changes=spec.changes.model_dump(),
        differs_in=tuple(spec.differs_in),
        texts=texts,
        sha256=digest,
        track=spec.track,
    )


def is_official(instruction_id: str | None) -> bool:
    """None (no instruction named) is the official one."""
    return instruction_id in (None, OFFICIAL)


# The instruction panel: the same fixed questions asked under every instruction, per
# (language, ability): the noise rate and how many records from the start of the split. en
# rejection and noise come from the 50-record partial file offline, so 100 gives 50 there.
PANEL: tuple[tuple[Lang, Ability, float, int], ...] = (
    ("zh", "rejection", 1.0, 100),
    ("zh", "noise", 0.0, 100),
    ("zh", "counterfactual", 0.0, 50),
    ("en", "rejection", 1.0, 100),
    ("en", "noise", 0.0, 100),
    ("en", "counterfactual", 0.0, 50),
)


def panel_limits() -> dict[Ability, int]:
    """The panel's records per ability (the same in both languages)."""
    return {ability: n for _, ability, _, n in PANEL}

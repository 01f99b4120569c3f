"""The board's one vocabulary (site/glossary.yaml): each concept's Chinese and English word, its
definition in both languages, and the Chinese words not used for it.

One file, so the labels, the docs and the methodology page name a concept the same way and a
reader can look every word up on the Glossary page (pages/glossary.py). `avoided_uses` finds a
Chinese text that names a concept by one of its avoided words: the tests run it over the message
tables, docs/zh/ and the built zh pages. The file is checked when read: unknown or missing fields
are one line naming the file, the line and the field; ids are unique; no avoided word is part of a
word the glossary itself uses (it would flag the glossary's own vocabulary).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from leaderboard.core.errors import ConfigError
from leaderboard.core.yaml_lines import line_of, validate_yaml_file

GLOSSARY_FILE = Path(__file__).resolve().parents[1] / "glossary.yaml"
_ID = r"^[a-z][a-z0-9_]*$"


class _Text(BaseModel):
    model_config = ConfigDict(extra="forbid")
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)


class _TermModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=_ID)
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)
    definition: _Text
    avoid_zh: list[str] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)


class _SectionModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=_ID)
    title: _Text
    terms: list[_TermModel] = Field(min_length=1)


class _GlossaryModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sections: list[_SectionModel] = Field(min_length=1)


@dataclass(frozen=True)
class Term:
    id: str
    en: str
    zh: str
    definition_en: str
    definition_zh: str
    avoid_zh: tuple[str, ...]  # Chinese words not used for this concept
    labels: tuple[str, ...]  # message keys whose text names the concept

    def word(self, lg: str) -> str:
        return self.zh if lg == "zh" else self.en

    def definition(self, lg: str) -> str:
        return self.definition_zh if lg == "zh" else self.definition_en


@dataclass(frozen=True)
class Section:
    id: str
    title_en: str
    title_zh: str
    terms: tuple[Term, ...]

    def title(self, lg: str) -> str:
        return self.title_zh if lg == "zh" else self.title_en


@dataclass(frozen=True)
class AvoidedUse:
    """A Chinese text naming `term` by `word`, one of its avoided words."""

    term: str
    word: str
    preferred: str
    context: str


def read_glossary(path: Path = GLOSSARY_FILE) -> tuple[Section, ...]:
    """The glossary's sections, checked (see the module docstring)."""
    model, root = validate_yaml_file(path, _GlossaryModel, "sections: [{id, title, terms}]")
    seen: set[str] = set()
    used_zh: list[str] = []
    for i, section in enumerate(model.sections):
        for j, t in enumerate(section.terms):
            if t.id in seen:
                line = line_of(root, ("sections", i, "terms", j, "id"))
                raise ConfigError(f"{path}:{line}: field 'id': term {t.id!r} is defined twice")
            seen.add(t.id)
            used_zh += [t.zh, t.definition.zh]
    used_zh += [section.title.zh for section in model.sections]
    for i, section in enumerate(model.sections):
        for j, t in enumerate(section.terms):
            for k, word in enumerate(t.avoid_zh):
                clash = next((u for u in used_zh if word in u), None)
                if not word.strip() or clash is not None:
                    line = line_of(root, ("sections", i, "terms", j, "avoid_zh", k))
                    raise ConfigError(
                        f"{path}:{line}: field 'avoid_zh': {word!r} is part of the glossary's "
                        f"own words ({clash!r}); avoid a longer word"
                    )
    return tuple(
        Section(
            s.id,
            s.title.en,
            s.title.zh,
            tuple(
                Term(
                    t.id,
                    t.en,
                    t.zh,
                    t.definition.en,
                    t.definition.zh,
                    tuple(t.avoid_zh),
                    tuple(t.labels),
                )
                for t in s.terms
            ),
        )
        for s in model.sections
    )


@cache
def glossary() -> tuple[Section, ...]:
    """The package's glossary (site/glossary.yaml), read once."""
    return read_glossary()


def terms(sections: tuple[Section, ...] | None = None) -> tuple[Term, ...]:
    """Every term, in the file's order."""
    return tuple(t for s in (glossary() if sections is None else sections) for t in s.terms)


def anchor(term_id: str) -> str:
    """The id of a term's entry on the Glossary page (glossary.html#term-noise-rate)."""
    return "term-" + term_id.replace("_", "-")


def avoided_uses(text: str, vocabulary: tuple[Term, ...] | None = None) -> list[AvoidedUse]:
    """Every place in `text` (Chinese) where a concept is named by one of its avoided words."""
    found = []
    for t in terms() if vocabulary is None else vocabulary:
        for word in t.avoid_zh:
            for m in re.finditer(re.escape(word), text):
                start, end = max(0, m.start() - 20), min(len(text), m.end() + 20)
                context = " ".join(text[start:end].split())
                found.append(AvoidedUse(t.id, word, t.zh, context))
    return found

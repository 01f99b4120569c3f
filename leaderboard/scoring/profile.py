"""A language's profile: everything the strict scorer does differently per language, as data.

The `profile:` block of `scoring/phrases/<lang>.yaml` (next to that language's phrase tables) is
loaded into a frozen `LangProfile`, so the normaliser, answer matching, claim detection and token F1
read one record instead of per-language dicts and `lang == "en"` branches (as lighteval's
`TranslationLiterals`). Adding a language is then a YAML file, not code: the file is looked up in
the package's `phrases/` folder first, then in the folders named by $RGB_LEADERBOARD_PHRASES
(os.pathsep-separated), which is how a new language is tried before it is packaged (tests do so
with tests/fixtures/phrases/de.yaml).

This module sits below `normalize` (which needs `word_boundaries` and `english_dates`), so word
lists here are written in strict normal form already (tests/scoring/test_profile.py checks that).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from leaderboard.core.errors import DataError

ENV_DIRS = "RGB_LEADERBOARD_PHRASES"


class _Negation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    words: list[str] = Field(min_length=1)
    cancel: list[str] = []
    last_words: int = Field(default=0, ge=0)
    reach: int = Field(ge=1)


class _Copy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    chunk: int = Field(ge=1)
    min: int = Field(ge=1)


class _ProfileBlock(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    word_boundaries: bool
    english_dates: bool = False
    tokens: Literal["jieba", "words"]
    articles: list[str] = []
    copy_: _Copy = Field(alias="copy")
    short_item: int = Field(ge=1)
    list_close: list[str] = []
    denial_reach: int = Field(ge=0)
    residue: int = Field(ge=0)
    sentence_split: str
    abbreviations: list[str] = []
    answer_negation: _Negation
    negated_claim: _Negation


@dataclass(frozen=True)
class Negation:
    """Negation words and how far they reach.

    answer_negation: with word boundaries, one of `words` among the `last_words` words within
    `reach` characters before the answer, unless a `cancel` word ("but", "instead") comes nearer;
    without, the text right before the answer ends with one of `words` (`reach` characters at
    most).
    negated_claim: one of `words`, then at most `reach` words (or characters) before an error word
    ("no factual errors", "没有事实性错误").
    """

    words: tuple[str, ...]
    cancel: tuple[str, ...]
    last_words: int
    reach: int


@dataclass(frozen=True)
class LangProfile:
    """The per-language settings of the strict scorer (see the `profile:` block of a phrase file).

    - word_boundaries: answers and phrases match on word boundaries (en) or anywhere (zh); the
      normal form keeps single spaces (en) or drops them except between two digits (zh); residues
      and reaches count words (en) or characters (zh);
    - english_dates: ISO dates and month abbreviations are written out in English words;
    - tokens: token F1 over jieba words (HMM off) or `\\w+` words without `articles`;
    - chunk, copy_min: copy detection (answer.is_copy), in characters of the normal form;
    - short_item: longest item of a candidate list that counts as short
      (candidates.is_candidate_list);
    - list_close: words that close an enumeration inside an item ("马丽、常远等主演的喜剧电影": the
      list ends at 等; what follows in that item is the sentence going on, not a candidate);
    - denial_reach: characters after a refusal hit where an error word denies an error instead;
    - residue: what may be left of a sentence for it to still be filler (claims._is_filler);
    - sentences: the sentence splitter of claim detection, on the raw text;
    - abbreviations: words that end with a full stop inside a sentence ("Dr.", "Jr.", "Feb."),
      besides single capital letters (initials: "Carolyn R. Bertozzi"), so a split after one is
      undone (scoring/sentences.py).
    """

    lang: str
    word_boundaries: bool
    english_dates: bool
    tokens: Literal["jieba", "words"]
    articles: frozenset[str]
    chunk: int
    copy_min: int
    short_item: int
    list_close: tuple[str, ...]
    denial_reach: int
    residue: int
    sentences: re.Pattern[str]
    abbreviations: frozenset[str]
    answer_negation: Negation
    negated_claim: Negation


def _dirs() -> list[Path]:
    return [Path(d) for d in os.environ.get(ENV_DIRS, "").split(os.pathsep) if d]


@cache
def language_file(lang: str) -> tuple[str, dict[str, Any]]:
    """Where phrases/<lang>.yaml is and its parsed content: the package's, else the first one in
    $RGB_LEADERBOARD_PHRASES."""
    packaged = resources.files("leaderboard.scoring").joinpath(f"phrases/{lang}.yaml")
    if packaged.is_file():
        text, where = packaged.read_text("utf-8"), f"leaderboard/scoring/phrases/{lang}.yaml"
    else:
        found = [d / f"{lang}.yaml" for d in _dirs() if (d / f"{lang}.yaml").is_file()]
        if not found:
            raise DataError(
                f"no phrase file for language {lang!r}: add leaderboard/scoring/phrases/{lang}.yaml"
            )
        text, where = found[0].read_text("utf-8"), str(found[0])
    raw = yaml.safe_load(text)
    if not isinstance(raw, dict) or "profile" not in raw:
        raise DataError(f"{where}: field profile: missing")
    return where, raw


def invalid(where: str, exc: ValidationError, prefix: str = "") -> DataError:
    """A one-line error naming the file and the field."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "(file)"
    return DataError(f"{where}: field {prefix}{field}: {err['msg']}")


def _negation(block: _Negation) -> Negation:
    return Negation(tuple(block.words), tuple(block.cancel), block.last_words, block.reach)


@cache
def profile(lang: str) -> LangProfile:
    """The language's profile (once per process)."""
    where, raw = language_file(lang)
    try:
        block = _ProfileBlock.model_validate(raw["profile"])
    except ValidationError as exc:
        raise invalid(where, exc, "profile.") from None
    return LangProfile(
        lang=lang,
        word_boundaries=block.word_boundaries,
        english_dates=block.english_dates,
        tokens=block.tokens,
        articles=frozenset(block.articles),
        chunk=block.copy_.chunk,
        copy_min=block.copy_.min,
        short_item=block.short_item,
        list_close=tuple(block.list_close),
        denial_reach=block.denial_reach,
        residue=block.residue,
        sentences=re.compile(block.sentence_split),
        abbreviations=frozenset(a.casefold() for a in block.abbreviations),
        answer_negation=_negation(block.answer_negation),
        negated_claim=_negation(block.negated_claim),
    )

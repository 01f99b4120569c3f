"""The split-wide passage corpus a `system` submission (a whole RAG pipeline) searches.

Every passage of the chain probe's data file (positives and negatives of all questions),
deduplicated by text, with an id that depends only on the language and the text
("zh-" + the first 16 hex of its sha256), so ids are stable across exports, file order and
--limit. A system returns the ids of the passages it used; the chain attribution looks them up
here. RGB's data is CC BY-NC-SA 4.0: the export carries that notice.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from leaderboard.core.types import Lang, Record
from leaderboard.data.splits import SplitSource, Variant, load_split

LICENSE_NOTICE = (
    "Passages from RGB (Chen et al., AAAI 2024, https://github.com/chen700564/RGB), licensed "
    "CC BY-NC-SA 4.0 (https://creativecommons.org/licenses/by-nc-sa/4.0/): attribution, "
    "non-commercial use only, share derivatives under the same licence."
)


@dataclass(frozen=True)
class Passage:
    id: str
    text: str


def passage_id(lang: Lang, text: str) -> str:
    """Stable id of a passage: language + the first 16 hex of sha256(UTF-8 text)."""
    return f"{lang}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"


def corpus_from_records(records: tuple[Record, ...] | list[Record], lang: Lang) -> list[Passage]:
    """All passages of the records, first occurrence order, each text once."""
    seen: dict[str, Passage] = {}
    for r in records:
        texts: list[str] = []
        for p in r.positive:
            texts.extend([p] if isinstance(p, str) else list(p))
        for text in [*texts, *r.negative]:
            if text not in seen:
                seen[text] = Passage(passage_id(lang, text), text)
    return list(seen.values())


def load_corpus(
    root: Path,
    lang: Lang,
    variant: Variant = "refine",
    allow_partial: bool = True,
    limit: int | None = None,
) -> tuple[SplitSource, list[Passage]]:
    """The corpus of the chain probe's data file for one language (the noise split); with
    `limit`, of its first `limit` records only (the records a `run --limit` asks about: a corpus
    a slow retriever can embed, a prefix of the full export with the same ids)."""
    source, records = load_split(root, lang, "chain", variant, allow_partial)
    return source, corpus_from_records(records[:limit] if limit else records, lang)

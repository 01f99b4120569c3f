"""Interface strings per site language: the message tables in site/messages/<lang>.yaml and
site/messages/<lang>/<group>.yaml (one group file per page family, so pages are translated apart).

Page builders ask for a string by key (`ui(lang, "col.rank")`); numbers are formatted by the same
code in every language, so the Chinese and English pages show identical figures. The English table
is complete and is the fallback: a key missing from another language's table shows in English
(tests/site/test_i18n.py lists which pages are translated and checks the tables match).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

SITE_LANGS = ("en", "zh")  # interface languages; "en" is the default and lives at the site root
DEFAULT = "en"


@cache
def table(lang: str) -> dict[str, str]:
    """One language's message table (a flat mapping key -> text)."""
    if lang not in SITE_LANGS:
        raise KeyError(f"no message table for site language {lang!r}; one of {SITE_LANGS}")
    root = resources.files("leaderboard.site") / "messages"
    files = [root / f"{lang}.yaml"]
    group_dir = root / lang
    if group_dir.is_dir():
        files += sorted((f for f in group_dir.iterdir() if f.name.endswith(".yaml")), key=str)
    merged: dict[str, str] = {}
    for f in files:
        data = yaml.safe_load(f.read_text("utf-8")) or {}
        for k, v in data.items():
            if str(k) in merged:  # one home per string: a key defined twice is a mistake
                raise KeyError(f"message key {k!r} defined twice in the {lang} tables ({f.name})")
            merged[str(k)] = str(v)
    return merged


def ui(lang: str, key: str, /, **values: object) -> str:
    """The text of `key` in `lang` (English when that table lacks it), with {name} filled in."""
    text = table(lang).get(key)
    if text is None:
        text = table(DEFAULT)[key]
    return text.format(**values) if values else text


def ui_count(lang: str, key: str, n: int) -> str:
    """A count phrase: `key`_one for n == 1 ("1 model"), else `key` ("2 models"); a language
    without plural forms (Chinese) says the same in both entries."""
    return ui(lang, f"{key}_one" if n == 1 else key, n=n)


def localized(path: str, lang: str) -> str:
    """The docs path of a page in `lang`: mkdocs-static-i18n's suffix layout (index.zh.md)."""
    return path if lang == DEFAULT else path.removesuffix(".md") + f".{lang}.md"

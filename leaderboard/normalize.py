"""Language-aware text normalisation, answer matching and token F1 for the strict scoring mode.

The reference scorer lowercases and does raw substring search. That misses full-width digits and
punctuation differences, and gives false hits inside longer numbers (`70` in `170`, `1月3日` in
`11月3日`) or words (`2` in `2022`). Here prediction and answers go through the same normaliser, and
a match must respect number boundaries (both languages) and word boundaries (English).

Normal form (idempotent: normalize(normalize(x)) == normalize(x)):
- Unicode NFKC (full-width to half-width), then casefold.
- Punctuation (Unicode categories P*) is a separator, except: a `.` between two digits is kept
  (6.4), a `,` between a digit and exactly three digits is dropped (1,361 -> 1361), an apostrophe is
  dropped (can't -> cant).
- zh: separators and whitespace are removed, except one space is kept between two digits so that
  enumerations such as `3、12` do not fuse into one number.
- en: separators become spaces; whitespace is collapsed to single spaces and stripped.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from leaderboard.segment import segmenter
from leaderboard.types import Answer, Lang

_APOSTROPHES = "'\u2019\u2018`\u00b4"


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


_SCAN_LIMIT = 0x20000


def _char_class(chars: list[str]) -> str:
    """A compact regex character class for a sorted list of characters (ranges where contiguous)."""
    parts = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        lo, hi = re.escape(chars[i]), re.escape(chars[j])
        parts.append(lo if i == j else f"{lo}-{hi}")
        i = j + 1
    return "".join(parts)


def _punctuation_pattern() -> re.Pattern[str]:
    """Every Unicode punctuation character or whitespace; `.` only when it is not a decimal point.

    Planes 2-16 hold no punctuation or whitespace (checked against unicodedata), so the scan stops
    there.
    """
    chars = [
        chr(c)
        for c in range(_SCAN_LIMIT)
        if (unicodedata.category(chr(c))[0] == "P" or chr(c).isspace())
        and chr(c) != "."
        and chr(c) not in _APOSTROPHES
    ]
    return re.compile(f"[{_char_class(chars)}]+")


_PUNCT = _punctuation_pattern()
_NON_DECIMAL_DOT = re.compile(r"(?<![0-9])\.|\.(?![0-9])")
_THOUSANDS = re.compile(r"(?<=[0-9]),(?=[0-9]{3}(?![0-9]))")
_SEPARATORS = re.compile(r" +")


def _fold(text: str) -> str:
    """NFKC + casefold (+ NFKC again, as casefolding can leave text that is not NFKC)."""
    if text.isascii():
        return text.lower()
    if not unicodedata.is_normalized(
        "NFKC", text
    ):  # the quick check is much cheaper than normalising
        text = unicodedata.normalize("NFKC", text)
    text = text.casefold()
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return text


_ZH_DROP_SPACES = re.compile(r"(?<![0-9]) +| +(?![0-9])")


def _normalize_once(text: str, lang: Lang) -> str:
    text = _fold(text)
    for apostrophe in _APOSTROPHES:
        if apostrophe in text:
            text = text.replace(apostrophe, "")
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "." in text:
        text = _NON_DECIMAL_DOT.sub(" ", text)
    text = _PUNCT.sub(" ", text)
    if "  " in text:
        text = _SEPARATORS.sub(" ", text)
    if lang == "zh":  # spaces go, except one between two digits ("3 12" must not become "312")
        return _ZH_DROP_SPACES.sub("", text) if " " in text else text
    return text.strip()


def _is_fixed_point(text: str) -> bool:
    """One pass maps text whose folding is the identity to itself (see normalize)."""
    return text.isascii() or (unicodedata.is_normalized("NFKC", text) and text.casefold() == text)


@lru_cache(maxsize=65536)
def normalize(text: str, lang: Lang) -> str:
    """Strict normal form of `text` (module docstring); the same for answers and outputs.

    One pass is enough unless dropping characters let NFKC or casefolding change the result again
    (combining marks after a removed apostrophe, exotic casefolds): then passes repeat to a fixed
    point.
    """
    text = _normalize_once(text, lang)
    for _ in range(4):
        if _is_fixed_point(text):
            break
        text = _normalize_once(text, lang)
    return text


def _digitish_before(text: str, pos: int) -> bool:
    """Is the character before `pos` part of a number (a digit, or a decimal point after a
    digit)?"""
    if pos <= 0:
        return False
    ch = text[pos - 1]
    return _is_digit(ch) or (ch == "." and pos >= 2 and _is_digit(text[pos - 2]))


def _digitish_after(text: str, pos: int) -> bool:
    if pos >= len(text):
        return False
    ch = text[pos]
    return _is_digit(ch) or (ch == "." and pos + 1 < len(text) and _is_digit(text[pos + 1]))


def _boundary_ok(text: str, start: int, end: int, needle: str, lang: Lang) -> bool:
    if _is_digit(needle[0]) and _digitish_before(text, start):
        return False
    if _is_digit(needle[-1]) and _digitish_after(text, end):
        return False
    if lang == "en":
        if needle[0].isalnum() and start > 0 and text[start - 1].isalnum():
            return False
        if needle[-1].isalnum() and end < len(text) and text[end].isalnum():
            return False
    return True


def find_normalized(text: str, needle: str, lang: Lang) -> bool:
    """Is the normalised `needle` in the normalised `text` at a number (and, for en, word)
    boundary?"""
    if not needle:
        return False
    start = text.find(needle)
    while start != -1:
        if _boundary_ok(text, start, start + len(needle), needle, lang):
            return True
        start = text.find(needle, start + 1)
    return False


def mask(text: str, needles: tuple[str, ...]) -> str:
    """Blank out every occurrence of `needles` (normalised fake answers) so they cannot be
    matched."""
    for needle in sorted(needles, key=len, reverse=True):
        if needle:
            text = text.replace(needle, "\x01" * len(needle))
    return text


# ---------------------------------------------------------------------------------------- tokens

_EN_WORD = re.compile(r"\w+")
_EN_ARTICLES = frozenset({"a", "an", "the"})


def load_jieba() -> None:
    """Load jieba's dictionary now (about a second) rather than on the first Chinese prediction."""
    segmenter()


@lru_cache(maxsize=65536)
def _tokenize_normalized(norm: str, lang: Lang) -> tuple[str, ...]:
    if lang == "zh":
        # jieba dictionary segmentation with HMM off (leaderboard.segment: same output as
        # jieba.lcut(HMM=False), faster): deterministic, and keeps dates apart (4/日/至, not
        # 4/日至).
        return tuple(t for t in segmenter().lcut(norm) if t != " ")
    return tuple(t for t in _EN_WORD.findall(norm) if t not in _EN_ARTICLES)


def tokenize_normalized(norm: str, lang: Lang) -> tuple[str, ...]:
    """Tokens of text already in strict normal form (cached; scoring reuses them for rejection
    patterns)."""
    return _tokenize_normalized(norm, lang)


def tokenize(text: str, lang: Lang) -> list[str]:
    """Tokens of the normalised text: jieba words for zh, word tokens without articles for en."""
    return list(_tokenize_normalized(normalize(text, lang), lang))


def _f1(pred: tuple[str, ...], gold: tuple[str, ...]) -> float:
    if not pred or not gold:
        return 0.0
    common = sum(min(pred.count(t), c) for t, c in Counter(gold).items())
    if common == 0:
        return 0.0
    precision = common / len(pred)
    recall = common / len(gold)
    return 2 * precision * recall / (precision + recall)


@lru_cache(maxsize=65536)
def _answer_chars(answers: Answer, lang: Lang) -> frozenset[str]:
    alts = (a for el in answers for a in ((el,) if isinstance(el, str) else el))
    return frozenset("".join(normalize(a, lang) for a in alts)) - {" "}


def token_f1(prediction: str, answers: Answer, lang: Lang) -> float:
    """Diagnostic partial credit (as in LongBench / CRUD-RAG): token F1 per answer element.

    Each element scores the best F1 over its alternatives; the result is the mean over elements, so
    a two-part answer with one part right gets about half. 0.0 for an empty prediction or answer.
    """
    if not answers:
        return 0.0
    norm = normalize(prediction, lang)
    if not norm or set(norm).isdisjoint(_answer_chars(answers, lang)):
        return 0.0  # no token can be shared: skip segmentation
    pred = _tokenize_normalized(norm, lang)
    if not pred:
        return 0.0
    total = 0.0
    for element in answers:
        alternatives = (element,) if isinstance(element, str) else element
        total += max(
            (_f1(pred, _tokenize_normalized(normalize(alt, lang), lang)) for alt in alternatives),
            default=0.0,
        )
    return total / len(answers)

"""Language-aware text normalisation and boundary-aware answer matching for the strict mode.

The reference scorer lowercases and does raw substring search. That misses full-width digits and
punctuation differences, and gives false hits inside longer numbers (`70` in `170`, `1月3日` in
`11月3日`) or words (`2` in `2022`). Here prediction and answers go through the same normaliser, and
a match must respect number boundaries (both languages) and word boundaries (English).

Normal form (idempotent: normalize(normalize(x)) == normalize(x)):
- Unicode NFKC (full-width to half-width), then casefold.
- A list marker at the start of a line ("- 6月18日") is dropped, so it is no minus sign.
- Punctuation (Unicode categories P*) and currency signs (Sc) are separators, except: a `.`
  between two digits is kept (6.4), a `,` between a digit and exactly three digits is dropped
  (1,361 -> 1361), an apostrophe is dropped (can't -> cant), ‰ is kept (per mille is a unit:
  7.52‰ is not 7.52%, and a number right before ‰ is no match for the bare number).
- a language without word boundaries (zh; its profile, scoring/profile.py): separators and
  whitespace are removed, except one space is kept between two digits so that enumerations such as
  `3、12` do not fuse into one number.
- a language with word boundaries (en): separators become spaces; whitespace is collapsed to single
  spaces and stripped.

Values and spellings that differ only in form are made equal (leaderboard/scoring/numerals.py):
- Traditional characters become Simplified (OpenCC's t2s table, character by character): 徹 -> 彻;
- Chinese numerals, percentages and 万/亿 magnitudes become Arabic values (zh): 十二 -> 12,
  二〇二二 -> 2022, 百分之六点四 -> 6.4, 一万四千 / 1.4万 -> 14000;
- English magnitude words: 68.7 billion / 68.7bn -> 68700000000;
- acronyms with dots lose them: U.S. -> us; a minus sign before a number (not a hyphen between
  words or digits) is kept as U+2212, so -2.3 is not 2.3;
- English dates (profile.english_dates): month abbreviations are spelled out (feb. 13 ->
  february 13), ordinals lose their suffix (13th -> 13), ISO dates are written out (2022-02-24 ->
  february 24 2022).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

import opencc

from leaderboard.core.types import Lang
from leaderboard.scoring.numerals import (
    ANY_NUMERAL,
    chinese_numbers,
    english_magnitudes,
    has_english_magnitude,
)
from leaderboard.scoring.profile import profile

_APOSTROPHES = "'\u2019\u2018`\u00b4"
PER_MILLE = "\u2030"  # ‰ is a unit, not punctuation: 7.52‰ is not 7.52%


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


# Punctuation, and currency signs ($100 and 100 dollars are one amount).
_SEPARATOR_CATEGORIES = frozenset({"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sc"})


def _separator_chars() -> list[str]:
    """Every Unicode punctuation character, currency sign or whitespace, except `.` and
    apostrophes.

    Planes 2-16 hold no punctuation or whitespace (checked against unicodedata), so the scan stops
    there.
    """
    return [
        chr(c)
        for c in range(_SCAN_LIMIT)
        if (unicodedata.category(chr(c)) in _SEPARATOR_CATEGORIES or chr(c).isspace())
        and chr(c) != "."
        and chr(c) != PER_MILLE
        and chr(c) not in _APOSTROPHES
    ]


_PUNCT = re.compile(f"[{_char_class(_separator_chars())}]+")
# Patterns start with their literal so the engine scans for it in C (same matches as lookbehind
# first): a dot not between two digits; a comma between a digit and exactly three digits.
_NON_DECIMAL_DOT = re.compile(r"\.(?:(?<![0-9]\.)|(?![0-9]))")
_THOUSANDS = re.compile(r",(?<=[0-9],)(?=[0-9]{3}(?![0-9]))")
_SEPARATORS = re.compile(r" +")


def _fold(text: str) -> str:
    """NFKC + casefold (+ NFKC again, as casefolding can leave text that is not NFKC)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _t2s_table() -> dict[int, str]:
    """OpenCC t2s on every CJK ideograph, as a character map closed under itself (idempotent)."""
    chars = "".join(chr(c) for c in range(0x3400, 0xA000))
    converted = opencc.OpenCC("t2s").convert(chars)
    pairs = {a: b for a, b in zip(chars, converted, strict=True) if a != b and len(b) == 1}
    for a, b in list(pairs.items()):
        while b in pairs and pairs[b] != b:
            b = pairs[b]
        pairs[a] = b
    return {ord(a): b for a, b in pairs.items()}


_T2S = _t2s_table()
_TRADITIONAL = re.compile(f"[{_char_class(sorted(chr(c) for c in _T2S))}]")
# A minus sign: a dash right before a digit, at the start or after a space, bracket, colon, comma,
# = or 为/是/了 (2021-22, covid-19 and 2月4日-2月20日 keep their hyphen as a separator).
_SIGN = re.compile(r"(?<![^\s(:,=为是了])[-\u2010-\u2013\u2212](?= ?[0-9])")
_ACRONYM = re.compile(r"(?<![\w.])([a-z](?:\.[a-z])+)\.?(?!\w)")
_ACRONYM_HINT = re.compile(r"\.[a-z](?:\.|$|\W)")  # starts with a literal: a fast scan
_ISO_DATE = re.compile(r"(?<![0-9])([12][0-9]{3})-([01]?[0-9])-([0-3]?[0-9])(?![0-9])")
_MONTHS = [
    *("january", "february", "march", "april", "may", "june"),
    *("july", "august", "september", "october", "november", "december"),
]
_MONTH_ABBR = re.compile(r"(jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b(?= ?[0-9])")
_FULL_MONTH = {m[:3]: m for m in _MONTHS} | {"sept": "september"}
_ORDINAL = re.compile(r"([0-9])(?:st|nd|rd|th)\b")


def _iso_date(m: re.Match[str]) -> str:
    month, day = int(m.group(2)), int(m.group(3))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group(0)
    return f"{_MONTHS[month - 1]} {day} {m.group(1)}"


_ANY_DIGIT = re.compile(r"[0-9]")


def _month(m: re.Match[str]) -> str:
    """An abbreviated month spelled out, unless it ends a longer word (e.g. `cmar 5`)."""
    start = m.start()
    if start and m.string[start - 1].isalnum():
        return m.group(0)
    return _FULL_MONTH[m.group(1)]


def _en_dates(text: str) -> str:
    if _ANY_DIGIT.search(text):
        text = _MONTH_ABBR.sub(_month, text)
        text = _ORDINAL.sub(r"\1", text)
    return text


# After separators are collapsed every space is single: drop it unless it sits between two digits.
_DROP_SPACES = re.compile(r" (?:(?<![0-9] )|(?![0-9]))")


# A list marker at the start of a line ("- 6月18日", "* 3"): a bullet, not a minus sign.
_BULLET = re.compile(r"(?m)^[ \t]*[-\u2010-\u2013\u2212*\u2022\u00b7][ \t]+")
# Trailing zeros of a decimal (60.40 -> 60.4, 3.0 -> 3), in the surface form only.
_TRAILING_ZEROS = re.compile(r"(?<=[0-9])(\.[0-9]*?)0+(?![0-9])")


def _no_trailing_zeros(m: re.Match[str]) -> str:
    return "" if m.group(1) == "." else m.group(1)


def _normalize_once(text: str, lang: Lang, magnitudes: bool = True) -> str:
    text = _fold(text)
    if "-" in text or "*" in text or "\u2022" in text or "\u00b7" in text:
        text = _BULLET.sub(" ", text)
    if not text.isascii() and _TRADITIONAL.search(text):
        text = text.translate(_T2S)
    for apostrophe in _APOSTROPHES:
        if apostrophe in text:
            text = text.replace(apostrophe, "")
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if not text.isascii() and ANY_NUMERAL.search(text):
        text = chinese_numbers(text, magnitudes)
    prof = profile(lang)
    if "-" in text or "\u2212" in text or "\u2013" in text:
        if prof.english_dates:
            text = _ISO_DATE.sub(_iso_date, text)
        text = _SIGN.sub("\u2212", text)
    if "." in text:
        if _ACRONYM_HINT.search(text):
            text = _ACRONYM.sub(lambda m: m.group(1).replace(".", ""), text)
        text = _NON_DECIMAL_DOT.sub(" ", text)
    text = _PUNCT.sub(" ", text)
    if "  " in text:
        text = _SEPARATORS.sub(" ", text)
    if magnitudes and has_english_magnitude(text):
        text = english_magnitudes(text)
    if not magnitudes and "." in text:
        text = _TRAILING_ZEROS.sub(_no_trailing_zeros, text)
    if prof.english_dates:
        text = _en_dates(text)
    if prof.word_boundaries:
        return text.strip()
    # spaces go, except one between two digits ("3 12" must not become "312")
    return _DROP_SPACES.sub("", text) if " " in text else text


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


@lru_cache(maxsize=65536)
def normalize_surface(text: str, lang: Lang) -> str:
    """The normal form with numbers as written: digits before 万/亿 or an English magnitude word
    are not multiplied out (60.39亿元 stays 60.39亿元, 68.7 billion stays 68.7 billion) and a
    decimal loses its trailing zeros (60.40 -> 60.4). A gold answer that is a bare number (60.39,
    the question naming its unit) is looked for here too (answer.py)."""
    text = _normalize_once(text, lang, magnitudes=False)
    for _ in range(4):
        if _is_fixed_point(text):
            break
        text = _normalize_once(text, lang, magnitudes=False)
    return text


def _digitish_before(text: str, pos: int) -> bool:
    """Is the character before `pos` part of a number (a digit, or a decimal point after a
    digit)?"""
    if pos <= 0:
        return False
    ch = text[pos - 1]
    return _is_digit(ch) or ch == "\u2212" or (ch == "." and pos >= 2 and _is_digit(text[pos - 2]))


def _digitish_after(text: str, pos: int) -> bool:
    if pos >= len(text):
        return False
    ch = text[pos]
    return _is_digit(ch) or (ch == "." and pos + 1 < len(text) and _is_digit(text[pos + 1]))


def _boundary_ok(text: str, start: int, end: int, needle: str, lang: Lang) -> bool:
    if _is_digit(needle[0]) and _digitish_before(text, start):
        return False
    if _is_digit(needle[-1]) and (_digitish_after(text, end) or text[end : end + 1] == PER_MILLE):
        return False  # 70 in 170, 7.52 in 7.52‰
    if profile(lang).word_boundaries:
        if needle[0].isalnum() and start > 0 and text[start - 1].isalnum():
            return False
        if needle[-1].isalnum() and end < len(text) and text[end].isalnum():
            return False
    return True


def occurrences(text: str, needle: str, lang: Lang) -> Iterator[int]:
    """Start offsets of the normalised `needle` in the normalised `text` at a number (and, for en,
    word) boundary."""
    if not needle:
        return
    start = text.find(needle)
    while start != -1:
        if _boundary_ok(text, start, start + len(needle), needle, lang):
            yield start
        start = text.find(needle, start + 1)


def find_normalized(text: str, needle: str, lang: Lang) -> bool:
    """Is the normalised `needle` in the normalised `text` at a number (and, for en, word)
    boundary?"""
    return next(occurrences(text, needle, lang), None) is not None


def mask(text: str, needles: tuple[str, ...]) -> str:
    """Blank out every occurrence of `needles` (normalised fake answers) so they cannot be
    matched."""
    for needle in sorted(needles, key=len, reverse=True):
        if needle:
            text = text.replace(needle, "\x01" * len(needle))
    return text

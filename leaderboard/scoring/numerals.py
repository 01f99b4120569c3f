"""Numbers written in Chinese, and magnitudes, rewritten as Arabic digits so values compare.

Gold answers write 12人, 2022年, 6.4%, 1.4万; models write 十二人, 二〇二二年, 百分之六点四,
一万四千, 14000. The strict normaliser rewrites every such number to its value in Arabic digits
(cn2an does the Chinese-numeral arithmetic), in answers and predictions alike, so equal values
meet:
- runs of Chinese numerals (and digits mixed with 十百千万亿): 十二 -> 12, 二〇二二 -> 2022,
  一万四千 -> 14000, 1.4万 -> 14000, 1361万 -> 13610000;
- 百分之X and 千分之X -> X (% and ‰ are separators in the normal form); 负 / 零下 before a
  number -> the minus sign;
- a lone numeral character (一, 两, 十...) only before a measure word or after 第, so words such as
  统一, 一些, 十分 stay as they are;
- English magnitude words after a number: 68.7 billion / 68.7bn -> 68700000000.
Values are computed with Decimal, so 1.4万 is exactly 14000.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import cn2an

_DIGIT_CHARS = "零〇一二两三四五六七八九"
_VALUE_CHARS = _DIGIT_CHARS + "十"
_ALL = _DIGIT_CHARS + "十百千万亿"
# A lone numeral character is a number only before one of these measure words (or after 第).
_MEASURE = set("人个名位岁年月日号次届条种元块米吨辆倍座只天周秒时场轮级枚张项所家件部台架艘期亿万")

ANY_NUMERAL = re.compile(f"[{_ALL}]")
_RUN = re.compile(f"(百分之|千分之|负)?((?:[0-9]+(?:\\.[0-9]+)?)?[{_ALL}][{_ALL}点0-9.]*)")
_MAGNITUDE = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "亿": 10**8, "万亿": 10**12}
_ARABIC_MAG = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(万亿|亿|万|千|百)$")
_MINUS_WORD = re.compile(r"(?:零下|负)(?=[0-9])")
_EN_MAG = re.compile(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?) ?(thousand|million|billion|trillion|bn)\b")
_EN_FACTOR = {
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "bn": 10**9,
    "trillion": 10**12,
}


def _fmt(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


@lru_cache(maxsize=16384)
def _value(run: str) -> str | None:
    """The Arabic form of one numeral run, or None when it is not a number cn2an understands."""
    m = _ARABIC_MAG.match(run)
    if m:
        return _fmt(Decimal(m.group(1)) * _MAGNITUDE[m.group(2)])
    try:
        value = cn2an.cn2an(run, "smart")
    except (ValueError, KeyError, IndexError, InvalidOperation):
        return None
    try:
        return _fmt(Decimal(str(value)))
    except InvalidOperation:
        return None


def _replace(m: re.Match[str]) -> str:
    prefix, run = m.group(1), m.group(2)
    text = m.string
    trail = ""
    while run and run[-1] in "点.":  # 一点 ("a little"), a full stop after a number
        trail = run[-1] + trail
        run = run[:-1]
    if not any(c in _VALUE_CHARS or "0" <= c <= "9" for c in run):
        return m.group(0)
    if len(run) == 1 and not prefix:
        before = text[m.start() - 1] if m.start() else ""
        after = text[m.end() - len(trail)] if m.end() - len(trail) < len(text) else ""
        if before != "第" and after not in _MEASURE:
            return m.group(0)
    if run.isdigit() or (run.replace(".", "", 1).isdigit()):
        return m.group(0)
    value = _value(run)
    if value is None:
        return m.group(0)
    # % and ‰ are punctuation to the normaliser (6.4% and 6.4 are one form): no sign is added
    return ("\u2212" if prefix == "负" else "") + value + trail


def chinese_numbers(text: str) -> str:
    """Chinese numerals, percentages and 万/亿 magnitudes rewritten as Arabic values."""
    if "负" in text or "零下" in text:
        text = _MINUS_WORD.sub("\u2212", text)
    return _RUN.sub(_replace, text)


def english_magnitudes(text: str) -> str:
    """`68.7 billion` / `68.7bn` -> `68700000000` (text already casefolded)."""
    return _EN_MAG.sub(lambda m: _fmt(Decimal(m.group(1)) * _EN_FACTOR[m.group(2)]), text)


def has_english_magnitude(text: str) -> bool:
    return "illion" in text or "thousand" in text or "bn" in text

"""Numbers written in Chinese, and magnitudes, rewritten as Arabic digits so values compare.

Gold answers write 12人, 2022年, 6.4%, 1.4万; models write 十二人, 二〇二二年, 百分之六点四,
一万四千, 14000. The strict normaliser rewrites every such number to its value in Arabic digits
(cn2an does the Chinese-numeral arithmetic), in answers and predictions alike, so equal values
meet:
- runs of Chinese numerals (and digits mixed with 十百千万亿): 十二 -> 12, 二〇二二 -> 2022,
  一万四千 -> 14000, 1.4万 -> 14000, 1361万 -> 13610000;
- 百分之X -> %X (% is a separator in the normal form, so 6.4% meets it); 千分之X -> X‰ (per
  mille is not percent: ‰ stays in the normal form, so 7.52% never meets 7.52‰); 负 / 零下
  before a number -> the minus sign;
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

ANY_NUMERAL = re.compile(f"[{_ALL}负]")
_MEASURE_CLASS = "".join(sorted(_MEASURE))
_SINGLE_AFTER = {"第", "%", "\u2212"}  # a lone numeral after these is a number (第三, 百分之二)
# A run: digits then numerals (1.4万), two numerals or more (十二), one numeral before a measure
# word (三人) or after 第 / 百分之 / 负; a lone 一 in 统一 or 一些 is not even matched.
# Every branch starts with a character class, so the engine skips to candidates quickly.
_RUN = re.compile(
    f"[0-9]+(?:\\.[0-9]+)?[{_ALL}][{_ALL}点0-9.]*"
    f"|[{_ALL}][{_ALL}点0-9.]+"
    f"|[{_ALL}](?=[{_MEASURE_CLASS}])"
    f"|[{_ALL}](?<=[第%\u2212][{_ALL}])"
)
_MAGNITUDE = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "亿": 10**8, "万亿": 10**12}
_ARABIC_MAG = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(万亿|亿|万|千|百)$")
_PER_MILLE = re.compile(f"千分之([{_ALL}点0-9.]+)")
_MINUS_WORD = re.compile(f"(?:零下|负)(?=[0-9{_VALUE_CHARS}])")
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


def _replace(m: re.Match[str], magnitudes: bool = True) -> str:
    run = m.group(0)
    text = m.string
    trail = ""
    while run and run[-1] in "点.":  # 一点 ("a little"), a full stop after a number
        trail = run[-1] + trail
        run = run[:-1]
    if not any(c in _VALUE_CHARS or "0" <= c <= "9" for c in run):
        return m.group(0)
    if len(run) == 1:
        before = text[m.start() - 1] if m.start() else ""
        after = text[m.end() - len(trail)] if m.end() - len(trail) < len(text) else ""
        if before not in _SINGLE_AFTER and after not in _MEASURE:
            return m.group(0)
    if run.isdigit() or (run.replace(".", "", 1).isdigit()):
        return m.group(0)
    if not magnitudes and _ARABIC_MAG.match(run):
        return m.group(0)  # 60.39亿 as written (the surface form)
    value = _value(run)
    if value is None:
        return m.group(0)
    return value + trail


def chinese_numbers(text: str, magnitudes: bool = True) -> str:
    """Chinese numerals, percentages and 万/亿 magnitudes rewritten as Arabic values (without
    `magnitudes`, digits before 万/亿 stay as written: 60.39亿)."""
    if "分之" in text:
        # % is a separator in the normal form: 百分之六点四 and 6.4% meet; per mille is not
        # percent: 千分之七点五二 is 7.52‰, and ‰ stays in the normal form
        text = _PER_MILLE.sub(lambda m: m.group(1) + "\u2030", text).replace("百分之", "%")
    if "负" in text or "零下" in text:
        text = _MINUS_WORD.sub("\u2212", text)
    if magnitudes:
        return _RUN.sub(_replace, text)
    return _RUN.sub(lambda m: _replace(m, magnitudes=False), text)


def english_magnitudes(text: str) -> str:
    """`68.7 billion` / `68.7bn` -> `68700000000` (text already casefolded)."""
    return _EN_MAG.sub(lambda m: _fmt(Decimal(m.group(1)) * _EN_FACTOR[m.group(2)]), text)


def has_english_magnitude(text: str) -> bool:
    return "illion" in text or "thousand" in text or "bn" in text

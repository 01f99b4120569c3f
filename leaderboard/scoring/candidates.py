"""Candidate lists: the gold named as one of many short items credits nothing.

A candidate list — many short items (every entity of the passages) — credits nothing, unless the
response opens with a sentence stating the gold before the list (an answer followed by an
unrelated enumeration: "… will begin on March 4, 2022, and will be shown on NBC, Peacock, USA
Network, …"), or the question asks for several and the list opens (after at most one lead-in
clause naming no element) with exactly the answer's elements and is about as long as the answer
(at most LIST_PER_ELEMENT items per gold element: a drama's leads, then its supporting cast; not
every name of the passages in any order), or the gold is named only after the word that closes the
enumeration (profile list_close: "……刘冠麟等主演的喜剧电影" for 喜剧).
"""

from __future__ import annotations

import re

from leaderboard.core.types import Answer, Lang
from leaderboard.scoring.normalize import normalize, occurrences
from leaderboard.scoring.profile import profile
from leaderboard.scoring.tokens import zh_words

# A candidate list has at least LIST_MIN items (and twice the answer's elements plus 2),
# 80% of them short (profile.short_item characters at most); for an answer of several elements a
# list of at most LIST_PER_ELEMENT items per element is the answer's set, not every candidate.
LIST_MIN = 8
LIST_PER_ELEMENT = 5
# A comma between a digit and exactly three more (1,313,851; 439,701辆) groups the digits of one
# number: it separates no list items.
_LIST_SEP = re.compile(r"[、，;；\n/|]|,(?!(?<=\d,)\d{3}(?!\d))")


def _elements_in(item: str, answer: Answer, lang: Lang) -> set[int]:
    """The answer elements (by index) one item names."""
    ni = normalize(item, lang)
    return {
        k
        for k, el in enumerate(answer)
        for a in ((el,) if isinstance(el, str) else el)
        if (na := normalize(a, lang)) and next(occurrences(ni, na, lang), None) is not None
    }


def _leads_with_answer(items: list[str], answer: Answer, lang: Lang) -> bool:
    """Are the list's first items, one per answer element, exactly the answer's elements? One
    opening item that names no element may come before them: a lead-in clause ("《好好说话》是由
    杨栋执导，陈晓、王晓晨领衔主演，王耀庆、曾黎、……等主演"), not a candidate."""
    if items and not _elements_in(items[0], answer, lang):
        items = items[1:]
    lead = [_elements_in(x, answer, lang) for x in items[: len(answer)]]
    return len(lead) == len(answer) and all(lead) and set().union(*lead) == set(range(len(answer)))


def _list_items(text: str, lang: Lang) -> list[str]:
    """The list's items as candidates: the text cut at list separators, each item cut where a
    word closing an enumeration (profile list_close: 等) is followed by more text, which is the
    sentence going on ("刘冠麟等主演的喜剧电影" -> "刘冠麟"), not a candidate. Only which items name
    the gold is read from them; the count and length rules read the uncut items."""
    close = profile(lang).list_close
    items = []
    for raw in _LIST_SEP.split(text):
        item = raw.strip()
        if close and any(w in item for w in close):
            item = _cut_at_close(item, close)
        if item:
            items.append(item)
    return items


def _cut_at_close(item: str, close: tuple[str, ...]) -> str:
    """The item up to a closing word that is a word of its own (jieba: 等 in 刘冠麟等主演, not in
    平等) and has a name before it and more text after it; else the item as it is."""
    at = 0
    words = zh_words(item)
    for k, word in enumerate(words):
        if word in close and at > 0 and "".join(words[k + 1 :]).strip():
            return item[:at]
        at += len(word)
    return item


def _answer_opens(items: list[str], answer: Answer, lang: Lang) -> bool:
    """Does the response open with a sentence (its first item, longer than a list item) that
    holds every answer element? Then the list after it is an enumeration, not the answer's
    candidates."""
    first = items[0] if items else ""
    every = set(range(len(answer)))
    return len(first) > profile(lang).short_item and _elements_in(first, answer, lang) == every


def is_candidate_list(text: str, answer: Answer, lang: Lang) -> bool:
    """Many short list items with the gold among them: every candidate named, none chosen. A gold
    named outside every item (after the word that closes the list: "……等主演的喜剧电影") is not
    one of the candidates."""
    need = max(LIST_MIN, 2 * len(answer) + 2)
    if len(_LIST_SEP.findall(text)) < need - 1:
        return False
    items = [x for x in (i.strip() for i in _LIST_SEP.split(text)) if x]
    if len(items) < need:
        return False
    if any(_elements_in(x, answer, lang) for x in items) and not any(
        _elements_in(x, answer, lang) for x in _list_items(text, lang)
    ):
        return False  # every item naming the gold named it after the list's closing word
    if (
        len(answer) >= 2
        and len(items) <= LIST_PER_ELEMENT * len(answer)
        and _leads_with_answer(items, answer, lang)
    ):
        return (
            False  # the answer's set first, then the rest of it (a cast with its supporting roles)
        )
    short = sum(1 for x in items if len(x) <= profile(lang).short_item)
    if short < 0.8 * len(items):
        return False
    return not _answer_opens(items, answer, lang)  # an answer, then an enumeration

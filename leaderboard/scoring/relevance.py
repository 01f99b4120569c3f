"""Relevance by code: whether an answer is of the type its question fixes (a date, a number, a
person), decided by code rather than by a judge.

A question fixes its answer's type when it holds one of the phrase file's asks_date / asks_number /
asks_person words (`answer_type`); an answer to it is relevant when it gives a number or date the
question does not already hold (`numbers`: each number or date one unit), or, to a who-question,
a name the question does not hold (`names_someone`). Used by the grounding check
(scoring.grounding: results.json's `relevant` figure, and the number or date an answer asserts
where its question asks for one) and by the relevance judge (judge.relevance), which reads only
the answers to questions that fix no type.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Literal

from leaderboard.core.types import Lang
from leaderboard.scoring.normalize import normalize, occurrences
from leaderboard.scoring.phrases import phrase_table
from leaderboard.scoring.tokens import tokenize

AnswerType = Literal["date", "number", "person"]

_MONTH = "january|february|march|april|may|june|july|august|september|october|november|december"
# A number or a date is one unit, matched whole ("2023年1月1日", not 2023 and 1 and 1).
NUMBER_UNIT = {
    False: re.compile(r"\u2212?[0-9]+(?:\.[0-9]+)?(?:(?:年|月|日|号)(?:[0-9]+(?:月|日|号))*)?%?"),
    True: re.compile(
        rf"(?<!\w)(?:(?:{_MONTH}) [0-9]{{1,2}}(?: [0-9]{{4}})?|[0-9]{{1,2}} (?:{_MONTH})"
        rf"(?: [0-9]{{4}})?|(?:{_MONTH}) [0-9]{{4}}|\u2212?[0-9]+(?:\.[0-9]+)?%?)(?!\w)"
    ),
}
# clause punctuation (raw text): a run of content words never crosses one
CLAUSE_BREAK = re.compile(r"[，,:：、;；。！？!?\n()（）\"“”《》「」]|\.(?=\s|$)")


def answer_type(query: str, lang: Lang) -> AnswerType | None:
    """The type the question fixes for its answer: a date, a number or a person (the phrase
    file's asks_date / asks_number / asks_person words, in this order), else None (a place, a
    title, anything)."""
    table = phrase_table(lang)
    norm = normalize(query, lang)
    for kind in ("date", "number", "person"):
        if table.patterns[f"asks_{kind}"].search(norm):
            return kind  # type: ignore[return-value]
    return None


def is_numeric(kind: AnswerType | None) -> bool:
    """Whether a question of this type wants a number or a date for its answer."""
    return kind in ("date", "number")


def numbers(norm: str, lang: Lang) -> list[tuple[int, int]]:
    """(start, end) of every number or date of a normal-form text, each one unit."""
    bounded = phrase_table(lang).profile.word_boundaries
    return [m.span() for m in NUMBER_UNIT[bounded].finditer(norm)]


def relevant_type(prediction: str, query: str, lang: Lang) -> bool | None:
    """Relevance by code where the question fixes the answer's type: for a date or a number,
    does the answer give one the question does not already hold; for a person (a who-question),
    does it name someone the question does not (`names_someone`)? None where the type is not
    fixed (the judge's part)."""
    kind = answer_type(query, lang)
    if kind is None:
        return None
    if kind == "person":
        return next(_names(prediction, query, lang), None) is not None
    qnorm = normalize(query, lang)
    norm = normalize(prediction, lang)
    return any(not contains(qnorm, norm[s:e], lang) for s, e in numbers(norm, lang))


# a capitalised word of a text (raw, word-bounded languages): a name's word
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][\w'’.-]*")
# jieba's part-of-speech tags of proper nouns: a person (nr...), a place (ns), an organisation
# (nt), another proper name (nz), a word in Latin letters (eng: "Adam McKay" in a Chinese text)
_NAME_TAGS = ("nr", "ns", "nt", "nz", "eng")


@cache
def _posseg():
    """jieba's part-of-speech segmenter, its dictionary loaded once per process."""
    import jieba.posseg

    tokenize("预热", "zh")  # jieba's dictionary, loaded and quiet (scoring.tokens)
    return jieba.posseg.lcut


def names_someone(prediction: str, query: str, lang: Lang) -> tuple[str, ...]:
    """The names (normal form) an answer gives that the question does not hold: who-questions are
    answered by a person, a team, a company or a country, so any proper name counts. Word-bounded
    languages (en): runs of capitalised words of the raw text, a word dropped when it is a
    function, preamble or document word of the phrase file, a sentence opener that names no one
    (`not_names`), or a word of the question. zh: the proper nouns jieba's part-of-speech tagger
    finds (persons, places, organisations, other names, Latin-script words), two characters or
    more, not in the question."""
    return tuple(dict.fromkeys(_names(prediction, query, lang)))


def _names(prediction: str, query: str, lang: Lang) -> Iterator[str]:
    """`names_someone`'s names in order, repeats included, found clause by clause only as far as
    they are read: whether an answer names anyone stops at its first name, instead of tagging a
    whole pasted passage (jieba's tagger is the slowest step of `verify`)."""
    table = phrase_table(lang)
    qnorm = normalize(query, lang)
    dropped = {
        w
        for kind in ("function_words", "preamble", "document_words", "not_names")
        for w in table.phrases[kind]
    }
    if table.profile.word_boundaries:
        qwords = set(qnorm.split())
        for clause in CLAUSE_BREAK.split(prediction):
            run: list[str] = []
            for m in re.finditer(r"\S+", clause):
                word = m.group().strip("'’\"“”()[]")
                norm = normalize(word, lang)
                if (
                    _CAPITALISED.fullmatch(word)
                    and norm
                    and norm not in dropped
                    and (norm not in qwords)
                ):
                    run.append(norm)
                    continue
                if run:
                    yield " ".join(run)
                    run = []
            if run:
                yield " ".join(run)
        return
    for piece in CLAUSE_BREAK.split(prediction):
        for word, flag in _posseg()(piece):
            norm = normalize(word, lang)
            if (
                flag.startswith(_NAME_TAGS)
                and len(norm) >= 2
                and norm not in dropped
                and not contains(qnorm, norm, lang)
            ):
                yield norm


def contains(text: str, needle: str, lang: Lang) -> bool:
    """Whether `needle` occurs in `text` at a number (and, for en, word) boundary
    (scoring.normalize.occurrences): the one test of "holds" that relevance and grounding share."""
    return next(occurrences(text, needle, lang), None) is not None

"""Where an answer came from: its asserted span located in the passages shown, by role.

Every answer gets exactly one category (CATEGORIES), decided by code from the answer, the
passages in the order shown, the gold answer and, for altered passages, the planted fake answer:

- refused, error_claimed: the answer's outcome (scoring.outcome: strict), nothing to locate;
- correct_grounded / correct_from_memory: a correct answer whose gold elements (every alternative
  of each element, since an alias states the same fact) occur in a passage shown, or in none;
  some elements in a passage and others in none is undetermined ("mixed");
- wrong_from_passage, with the role of the passage it came from: a wrong answer whose asserted
  span occurs in a passage shown. The span is, in this order, the planted fake answer it states,
  the gold elements it names without being credited (a copy, a candidate list, a hedge, one
  part of a two-part answer), or its main span (`main_span`): its number or date where the
  question asks for one, otherwise its first run of content words (the words left once the
  question's words and the language's function words are dropped: jieba words for zh);
- invented: a wrong answer whose main span, and every word of it, occurs in no passage shown;
- undetermined (counted, never guessed): a generation failure, an answer with nothing left to
  locate (an echo of the question, an empty answer), a span only partly in the passages, or a
  wrong span found both in a passage holding the answer and in a noise passage.

Passage roles (`instance_roles`) are read from the passages themselves (the RGB abilities, the
probes, the instruction track, a system's own passages): `altered` holds a planted fake answer
element, `gold` holds a gold answer element (strict matching, outside a fake answer containing
it), `noise` holds neither. A conflict-track instance declares the role of each passage it shows
(protocol.conflicts: "true", "fake", "noise"), and those are its roles: a true passage is `gold`,
an altered one `altered`, whether or not it repeats the answer verbatim. Matching is the strict
scorer's (normal form, number and word boundaries); the limits of the check are in
docs/grounding.md.

One more check by code reads the same answers: omission (`omitted`), an integration answer to a
question with several elements that states some gold elements a passage shown holds and misses
others a passage shown holds. Relevance by code, where the question fixes the answer's type, is
scoring.relevance's; the main span takes from it the answer type and the number and date units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from leaderboard.core.types import Answer, Lang, TestInstance
from leaderboard.scoring.answer import matchers
from leaderboard.scoring.normalize import mask, normalize, occurrences
from leaderboard.scoring.outcome import ScoredItem, outcome
from leaderboard.scoring.phrases import phrase_table
from leaderboard.scoring.relevance import (
    CLAUSE_BREAK,
    NUMBER_UNIT,
    answer_type,
    contains,
    is_numeric,
    numbers,
)
from leaderboard.scoring.score import strict_labels
from leaderboard.scoring.tokens import tokenize

Category = Literal[
    "correct_grounded",
    "correct_from_memory",
    "wrong_from_passage",
    "invented",
    "refused",
    "error_claimed",
    "undetermined",
]
CATEGORIES: tuple[Category, ...] = (
    "correct_grounded",
    "correct_from_memory",
    "wrong_from_passage",
    "invented",
    "refused",
    "error_claimed",
    "undetermined",
)
PassageRole = Literal["gold", "noise", "altered"]
ROLES: tuple[PassageRole, ...] = ("gold", "noise", "altered")
# a conflict-track passage's declared role (TestInstance.roles) -> its grounding role
CONFLICT_ROLES: dict[str, PassageRole] = {"true": "gold", "fake": "altered", "noise": "noise"}
# where the check is run: the ranked mode (the outcome of an answer is strict's)
MODE = "strict"

# the share of a span's characters that must occur in one passage for the span to come from it
# when it does not occur whole (a longer name around a passage's: 沙特阿拉伯球会艾纳斯)
COVER = 0.5


@dataclass(frozen=True)
class Grounding:
    """One answer's grounding: its category, the role of the passage it came from (grounded and
    from-passage answers), the span located (normal form, "" where none), the passages (0-based,
    in the order shown) holding it, and, for undetermined, why."""

    category: Category
    role: PassageRole | None = None
    span: str = ""
    passages: tuple[int, ...] = ()
    reason: str = ""


def _alternatives(el: str | tuple[str, ...]) -> tuple[str, ...]:
    return (el,) if isinstance(el, str) else el


@lru_cache(maxsize=8192)
def _normal_docs(docs: tuple[str, ...], lang: Lang) -> tuple[str, ...]:
    return tuple(normalize(d, lang) for d in docs)


@lru_cache(maxsize=8192)
def passage_roles(
    docs: tuple[str, ...], answer: Answer, fakeanswer: Answer, lang: Lang
) -> tuple[PassageRole, ...]:
    """Each passage's role, read from its text: altered (states a fake answer element), gold
    (states a gold element outside the fake ones), noise (neither)."""
    out: list[PassageRole] = []
    for d in _normal_docs(docs, lang):
        fake = fakeanswer and any(strict_on_normal(d, fakeanswer, lang))
        if fake:
            out.append("altered")
        elif any(strict_on_normal(d, answer, lang, fakeanswer)):
            out.append("gold")
        else:
            out.append("noise")
    return tuple(out)


def instance_roles(inst: TestInstance) -> tuple[PassageRole, ...]:
    """The role of each passage an instance shows, in order: a conflict-track instance's declared
    roles (CONFLICT_ROLES), else the roles read from the passages' text (`passage_roles`)."""
    if inst.roles:
        return tuple(CONFLICT_ROLES[r] for r in inst.roles)
    return passage_roles(inst.docs, inst.answer, inst.fakeanswer, inst.lang)


def strict_on_normal(
    norm: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()
) -> tuple[int, ...]:
    """Per element 1/0: some alternative occurs in `norm` (normal form) at a boundary, outside
    the fake answers containing it (the strict scorer's matching, negation not asked: a passage
    that says "not X" still names X)."""
    out = []
    for alternatives in matchers(answer, fakeanswer, lang):
        hit = 0
        for alt, covering in alternatives:
            text = mask(norm, covering) if covering else norm
            if next(occurrences(text, alt, lang), None) is not None:
                hit = 1
                break
        out.append(hit)
    return tuple(out)


def _stem(word: str, endings: tuple[str, ...]) -> str:
    for end in endings:
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)]
    return word


def _content(token: str, qnorm: str, qwords: frozenset[str], lang: Lang) -> bool:
    """A token that asserts something: not a function word, not the question's own word."""
    table = phrase_table(lang)
    if not token.strip() or any(
        token in table.phrases[kind] for kind in ("function_words", "preamble", "document_words")
    ):
        return False
    if table.profile.word_boundaries:
        endings = table.phrases["inflections"]
        return token not in qwords and _stem(token, endings) not in qwords
    return token not in qnorm


def _runs(norm: str, qnorm: str, lang: Lang) -> list[str]:
    """Maximal runs of consecutive content tokens of a normal-form text (jieba words for zh,
    words for en), in order."""
    bounded = phrase_table(lang).profile.word_boundaries
    endings = phrase_table(lang).phrases["inflections"]
    qwords = (
        frozenset(w for word in qnorm.split() for w in (word, _stem(word, endings)))
        if bounded
        else frozenset()
    )
    runs: list[str] = []
    current: list[str] = []
    tokens = [t for piece in norm.split() for t in tokenize(piece, lang)]
    for token in tokens:
        if _content(token, qnorm, qwords, lang):
            current.append(token)
            continue
        if current:
            runs.append((" " if bounded else "").join(current))
            current = []
    if current:
        runs.append((" " if bounded else "").join(current))
    return [r for r in runs if len(r) >= 2]


def main_span(
    prediction: str, query: str, lang: Lang, known: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The units an answer asserts (normal form): its numbers and dates not in the question where
    the question asks for a number or date (or where it has no content word), otherwise its first
    run of content words; () when nothing is left (an echo of the question, an empty answer).
    `known` units (the gold or fake answer it names, located apart) are not part of it."""
    norm = normalize(prediction, lang)
    qnorm = normalize(query, lang)
    found = [norm[s:e] for s, e in numbers(norm, lang)]
    nums = tuple(dict.fromkeys(n for n in found if not contains(qnorm, n, lang) and n not in known))
    if nums and is_numeric(answer_type(query, lang)):
        return nums
    # words outside the numbers, clause by clause (the normal form drops the commas between the
    # items of a list): a number is a unit of its own, never part of a word run. The first run is
    # the span, so the clauses after the first that has one are not read (a pasted passage).
    for clause in CLAUSE_BREAK.split(prediction):
        # word by word where the raw text has spaces: a language whose normal form drops them
        # (zh) would fuse "The answer is" into one word
        text = " ".join(normalize(w, lang) for w in clause.split())
        for s, e in reversed(numbers(text, lang)):
            text = text[:s] + " " + text[e:]
        for unit in sorted(known, key=len, reverse=True):
            text = text.replace(unit, " ")
        runs = _runs(text, qnorm, lang)
        if runs:
            return (runs[0],)
    return nums[:1]


def _covered(unit: str, doc: str, lang: Lang) -> float:
    """The share of a unit's characters in the words of it that occur in `doc` (1.0 when the
    unit occurs whole). Numbers count only whole."""
    if contains(doc, unit, lang):
        return 1.0
    if NUMBER_UNIT[phrase_table(lang).profile.word_boundaries].fullmatch(unit):
        return 0.0
    words = [w for w in tokenize(unit, lang) if len(w.strip()) >= 2]
    total = sum(len(w) for w in tokenize(unit, lang) if w.strip())
    if not total:
        return 0.0
    return sum(len(w) for w in words if contains(doc, w, lang)) / total


@dataclass(frozen=True)
class _Located:
    passages: tuple[int, ...]  # passages holding every unit (whole, or COVER of it)
    touched: bool  # some word of some unit occurs in some passage


def locate(units: Sequence[str], docs: Sequence[str], lang: Lang) -> _Located:
    """The passages (normal form) holding every unit of a span, and whether any part of it occurs
    anywhere."""
    hits = []
    touched = False
    for i, doc in enumerate(docs):
        cover = [_covered(u, doc, lang) for u in units]
        touched = touched or any(c > 0 for c in cover)
        if units and all(c >= COVER for c in cover):
            hits.append(i)
    return _Located(tuple(hits), touched)


def _role_of(hits: tuple[int, ...], roles: tuple[PassageRole, ...]) -> PassageRole | None:
    """The role a span came from: altered where an altered passage holds it (the planted fact),
    else the one role of the passages holding it; None when gold and noise passages both do."""
    found = {roles[i] for i in hits}
    if "altered" in found:
        return "altered"
    return found.pop() if len(found) == 1 else None


def _gold_units(answer: Answer, lang: Lang) -> list[tuple[str, ...]]:
    return [tuple(normalize(a, lang) for a in _alternatives(el) if a) for el in answer]


def _correct(inst: TestInstance, docs: tuple[str, ...], roles) -> Grounding:
    per_element = []
    for alts in _gold_units(inst.answer, inst.lang):
        hits = tuple(i for i, d in enumerate(docs) if any(contains(d, a, inst.lang) for a in alts))
        per_element.append(hits)
    span = " | ".join(alts[0] for alts in _gold_units(inst.answer, inst.lang) if alts)
    if all(per_element):
        hits = tuple(sorted(set().union(*per_element)))
        found = {roles[i] for i in hits}
        role = "gold" if "gold" in found else _role_of(hits, roles)
        return Grounding("correct_grounded", role, span, hits)
    if not any(per_element):
        return Grounding("correct_from_memory", None, span)
    return Grounding("undetermined", None, span, reason="mixed")


def _named(units: list[str], prediction_norm: str, lang: Lang) -> list[str]:
    return [u for u in units if u and contains(prediction_norm, u, lang)]


def _from_passage(units: Sequence[str], docs, roles, lang: Lang) -> Grounding | None:
    located = locate(units, docs, lang)
    if not located.passages:
        return None
    role = _role_of(located.passages, roles)
    span = " | ".join(units)
    if role is None:
        return Grounding("undetermined", None, span, located.passages, "ambiguous")
    return Grounding("wrong_from_passage", role, span, located.passages)


def _stated(prediction: str, answer: Answer, lang: Lang, fakeanswer: Answer = ()) -> list[str]:
    """The alternatives (normal form) of the elements of `answer` the prediction asserts."""
    norm = normalize(prediction, lang)
    marks = strict_labels(prediction, answer, lang, fakeanswer)
    units = _gold_units(answer, lang)
    return [
        u for m, el in zip(marks, units, strict=True) if m for u in _named(list(el), norm, lang)
    ]


def _wrong(item: ScoredItem, docs: tuple[str, ...], roles) -> Grounding:
    """A wrong answer: the fake answer it states, else its main span (the gold it names left
    out), else the gold it names without being credited; located by role."""
    inst, lang = item.instance, item.instance.lang
    fake = _stated(item.prediction, inst.fakeanswer, lang) if inst.fakeanswer else []
    if fake:
        g = _from_passage(fake[:1], docs, roles, lang)
        if g is not None:
            return g
    gold = _stated(item.prediction, inst.answer, lang, inst.fakeanswer)
    units = main_span(item.prediction, inst.query, lang, tuple(fake + gold))
    if units:
        g = _from_passage(units, docs, roles, lang)
        if g is not None:
            return g
        span = " | ".join(units)
        if locate(units, docs, lang).touched:
            return Grounding("undetermined", None, span, reason="partly found")
        return Grounding("invented", None, span)
    if gold:
        g = _from_passage(gold[:1], docs, roles, lang)
        if g is not None:
            return g
        return Grounding("undetermined", None, gold[0], reason="answer named, not credited")
    return Grounding("undetermined", reason="nothing asserted")


def grounding(item: ScoredItem) -> Grounding:
    """The grounding category of one scored answer (module docstring), under strict."""
    kind = outcome(item, MODE)
    if kind in ("refused", "error_claimed"):
        return Grounding(kind)
    if item.error is not None:
        return Grounding("undetermined", reason="generation failure")
    inst = item.instance
    docs = _normal_docs(inst.docs, inst.lang)
    roles = instance_roles(inst)
    if kind == "correct":
        return _correct(inst, docs, roles)
    return _wrong(item, docs, roles)


def omitted(item: ScoredItem) -> tuple[str, ...] | None:
    """Omission on an integration question with several answer elements: the gold elements
    (normal form, first alternative) a passage shown holds that the answer does not state, when
    it states at least one other element a passage shown holds; () when it misses none of them.
    None where omission is not defined: another ability, a one-element answer, a refusal, an
    error claim, a generation failure, passages holding fewer than two elements, or an answer
    stating no element a passage holds (its failure is another one: wrong, invented, copied).
    Stated is strict's per-element label (normal form, boundaries, not negated, not a hedge or a
    candidate list); held is an alternative occurring in some passage (strict matching)."""
    inst = item.instance
    if inst.ability != "integration" or len(inst.answer) < 2 or item.error is not None:
        return None
    if outcome(item, MODE) in ("refused", "error_claimed"):
        return None
    docs = _normal_docs(inst.docs, inst.lang)
    per_doc = [strict_on_normal(d, inst.answer, inst.lang) for d in docs]
    held = [int(any(hits)) for hits in zip(*per_doc, strict=True)] if per_doc else []
    stated = item.scores[MODE].labels
    if sum(held) < 2 or not any(h and s for h, s in zip(held, stated, strict=True)):
        return None
    units = _gold_units(inst.answer, inst.lang)
    return tuple(
        units[i][0] if units[i] else ""
        for i, (h, s) in enumerate(zip(held, stated, strict=True))
        if h and not s
    )

"""Is a refusal or error phrase the response's own claim about the documents or the question?

A phrase-table hit anywhere in the text is not enough: "她表示无法确定是否参加下届
比赛" reports someone else, "新冠疫苗存在错误信息传播的问题" is about misinformation, and an answer
followed by "the document does not provide the exact date" is an answer. The text is cut into
sentences (and sentences into clauses) on the raw punctuation, each piece normalised, and:
- a refusal counts only in the first sentence that is not a preamble ("根据文档内容，我来回答这个
  问题。", "Let me check the documents.") or an echo of the question, with no answer-like clause
  before it and no answer after a contrast word ("…, but it is probably X"), and not after a
  reporting verb whose subject is not the documents ("警方表示…");
- an error claim counts in any sentence, not after such a reporting verb nor right after a negation
  ("没有事实性错误"); weak error words (是错误的, wrong, incorrect) count only in a sentence that
  names the documents, and not inside a word that only holds one (`not_error`: 不错, "not bad").
The caller adds the last rule of a rejection: no answer is given (strict.py).
"""

from __future__ import annotations

import re

from leaderboard.core.types import Lang
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.phrases import PhraseTable, phrase_table
from leaderboard.scoring.sentences import split

_CLAUSES = re.compile(r"[，,:：、]")


def sentences(text: str, lang: Lang) -> list[str]:
    """The sentences of the raw text (the profile's sentence splitter; a full stop after an
    initial or an abbreviation ends none: sentences.py)."""
    return split(text, lang)


def _refusal_at(ns: str, table: PhraseTable) -> int | None:
    """Where a refusal phrase, a negated verb or an absence from the documents starts in ns; a
    hit followed at once by an error word denies an error ("文档中没有任何错误", "do not contain
    any errors"), it does not refuse."""
    starts = []
    any_error, reach = table.patterns["any_error"], table.profile.denial_reach
    for kind in ("rejection", "negated_verb", "absence"):
        for m in table.patterns[kind].finditer(ns):
            if not any_error.search(ns, m.end(), m.end() + reach):
                starts.append(m.start())
                break
    return min(starts) if starts else None


def _reported(prefix: str, table: PhraseTable) -> bool:
    """A reporting verb before the phrase whose subject is not the documents or the speaker."""
    m = table.patterns["reporting"].search(prefix)
    if m is None:
        return False
    subject = prefix[: m.start()]
    if table.patterns["document_words"].search(subject) or not subject.strip():
        return False
    # the response's own voice: "我", "we", "需要指出", "it should be noted"
    return table.patterns["speaker"].search(subject) is None


def _residue(ns: str, table: PhraseTable, query_norm: str) -> int:
    """What is left of a piece once preamble words, document words and the question are removed
    (characters for zh, words for en)."""
    rest = table.patterns["preamble"].sub(" ", ns)
    rest = table.patterns["document_words"].sub(" ", rest)
    if query_norm:
        rest = rest.replace(query_norm, " ")
    if table.profile.word_boundaries:
        return len(rest.split())
    return len(rest.replace(" ", ""))


def _is_filler(raw: str, ns: str, table: PhraseTable, query_norm: str) -> bool:
    """A preamble, a heading or an echo of the question: no answer in it."""
    if raw.rstrip().endswith((":", "：")):
        return True
    if query_norm and (ns in query_norm or (query_norm in ns and len(ns) <= len(query_norm) + 2)):
        return True
    return _residue(ns, table, query_norm) <= table.profile.residue


def _content_after_contrast(ns: str, start: int, table: PhraseTable, query_norm: str) -> bool:
    """After the refusal phrase, a contrast word followed by something that is not a refusal."""
    for m in table.patterns["contrast"].finditer(ns, start):
        rest = ns[m.end() :]
        if (
            _refusal_at(rest, table) is None
            and _residue(rest, table, query_norm) > table.profile.residue
        ):
            return True
    return False


def own_refusal(text: str, lang: Lang, norm: str, query: str = "") -> bool:
    """Does the response itself decline to answer (before giving any answer-like statement)?"""
    table = phrase_table(lang)
    # Nothing to locate without a refusal phrase, a negated verb or an absence in the whole text;
    # sentences and clauses then locate the first one.
    if not any(table.patterns[k].search(norm) for k in ("rejection", "negated_verb", "absence")):
        return False
    query_norm = normalize(query, lang) if query else ""
    pieces = sentences(text, lang)
    for raw in pieces:
        ns = norm if len(pieces) == 1 else normalize(raw, lang)
        if not ns:
            continue
        at = _refusal_at(ns, table)
        if at is None or _reported(ns[:at], table):
            if _is_filler(raw, ns, table, query_norm):
                continue
            return False  # an answer-like statement comes first
        prefix = ns[:at]
        # anything but filler before the refusal: each clause before it must name the documents
        # or be filler ("答案是X，不过文档没有给出更多细节" answers first)
        needs_clauses = at > 0 and _residue(prefix, table, query_norm) > table.profile.residue
        seen = 0  # normalised length of the clauses before the refusal phrase
        for clause in _CLAUSES.split(raw) if needs_clauses else ():
            nc = normalize(clause, lang)
            if not nc:
                continue
            seen += len(nc) + table.profile.word_boundaries  # the space between
            if seen > at:
                break
            if not table.patterns["document_words"].search(nc) and not _is_filler(
                clause, nc, table, query_norm
            ):
                return False  # "Kentucky Wildcats, but there is insufficient information"
        return not _content_after_contrast(ns, at, table, query_norm)
    return False


def own_full_refusal(text: str, lang: Lang, norm: str) -> bool:
    """A full refusal ("信息不足", "cannot answer") stated by the response anywhere, even next to
    an answer: such a response hedges, it does not decide."""
    table = phrase_table(lang)
    if table.patterns["full_refusal"].search(norm) is None:
        return False
    pieces = sentences(text, lang)
    for raw in pieces:
        ns = norm if len(pieces) == 1 else normalize(raw, lang)
        for m in table.patterns["full_refusal"].finditer(ns):
            if not _reported(ns[: m.start()], table):
                return True
    return False


def _weak_claim(ns: str, table: PhraseTable) -> bool:
    """A weak error word stated by the response: not reported, not negated ("no errors"), not a
    first-person hedge ("I might be wrong", "我可能说错")."""
    neg = table.patterns["negated_claim"]
    fine = [(x.start(), x.end()) for x in table.patterns["not_error"].finditer(ns)]
    for m in table.patterns["weak_error"].finditer(ns):
        if any(a <= m.start() < b for a, b in fine):
            continue  # 不错的印象: "not bad", no error
        prefix = ns[: m.start()].rstrip()
        if _reported(prefix, table) or neg.search(prefix):
            continue
        if table.patterns["first_person"].search(prefix):
            continue
        return True
    return False


def _claims_error(ns: str, table: PhraseTable, after_documents: bool = False) -> bool:
    """An error claim in one sentence. Weak words and corrections count where the sentence names
    the documents, or right after a sentence that did when it opens with a correction ("In fact,
    …") or points back ("This is wrong", "这一说法有误")."""
    neg = table.patterns["negated_claim"]
    for m in table.patterns["error"].finditer(ns):
        if not _reported(ns[: m.start()], table) and not neg.search(ns[: m.start()].rstrip()):
            return True
    if table.patterns["document_words"].search(ns) is None:
        if not after_documents:
            return False
        opening = _opening(ns, table)
        # "The documents say Y. In fact, it was X." / "…; however, the correct answer is X."
        if table.patterns["correction"].match(opening) or table.patterns["corrected_answer"].match(
            ns.lstrip()
        ):
            return True
        if not table.patterns["anaphora"].search(opening):
            return False
    if _weak_claim(ns, table):
        return True
    # a correction without an error word: "actually it was X, not Y as the documents say",
    # "the passages claim X, but the actual answer is Y", "文档称是X，其实是Y"
    return bool(
        table.patterns["correction"].search(ns) or table.patterns["corrected_answer"].search(ns)
    )


def _opening(ns: str, table: PhraseTable) -> str:
    """The sentence without a leading contrast word ("However, this is wrong")."""
    m = table.patterns["contrast"].match(ns.lstrip())
    return ns.lstrip()[m.end() :] if m else ns


def own_error_claim(text: str, lang: Lang, norm: str) -> bool:
    """Does the response claim the documents contain a factual error?"""
    table = phrase_table(lang)
    # without an error word only a correction can claim one, and only about the documents
    no_error_word = (
        table.patterns["error"].search(norm) is None
        and table.patterns["weak_error"].search(norm) is None
    )
    if no_error_word and (
        table.patterns["document_words"].search(norm) is None
        or (
            table.patterns["correction"].search(norm) is None
            and table.patterns["corrected_answer"].search(norm) is None
        )
    ):
        return False
    pieces = sentences(text, lang)
    if len(pieces) == 1:
        return _claims_error(norm, table)
    after_documents = False
    for raw in pieces:
        ns = normalize(raw, lang)
        if _claims_error(ns, table, after_documents):
            return True
        after_documents = table.patterns["document_words"].search(ns) is not None
    return False

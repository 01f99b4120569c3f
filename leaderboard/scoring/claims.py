"""Is a refusal or error phrase the response's own claim about the documents or the question?

A phrase-table hit anywhere in the text is not enough: "她表示无法确定是否参加下届
比赛" reports someone else, "新冠疫苗存在错误信息传播的问题" is about misinformation, and an answer
followed by "the document does not provide the exact date" is an answer. The text is cut into
sentences (and sentences into clauses) on the raw punctuation, each piece normalised, and:
- a refusal counts only in the first sentence that is not a preamble ("根据文档内容，我来回答这个
  问题。", "Let me check the documents.") or an echo of the question, with no answer-like clause
  before it and no answer after a contrast word ("…, but it is probably X"), and not after a
  reporting verb whose subject (in its own clause: "根据文档，警方表示…") is not the documents
  ("警方表示…"); nor said of the thing asked about as not settled yet ("席位没有确定归属", "has not
  been determined": phrases `undecided`), nor with a subject naming another party and an object
  after it ("亚洲足球联盟没有提到亚洲杯举办的时间": a report of what that party said, not a
  passive's subject: "The exact date is not mentioned" still refuses);
- an error claim counts in any sentence, not after such a reporting verb nor right after a negation
  ("没有事实性错误"); weak error words (是错误的, wrong, incorrect) count only in a sentence that
  names the documents, and not inside a word that only holds one (`not_error`: 不错, "not bad").
The caller adds the last rule of a rejection: no answer is given (strict.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from leaderboard.core.types import Lang
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.phrases import PhraseTable, phrase_regex, phrase_table
from leaderboard.scoring.sentences import split

_CLAUSES = re.compile(r"[，,:：、]")


def sentences(text: str, lang: Lang) -> list[str]:
    """The sentences of the raw text (the profile's sentence splitter; a full stop after an
    initial or an abbreviation ends none: sentences.py)."""
    return split(text, lang)


def _refusal_at(
    ns: str, table: PhraseTable, other: Callable[[int, int], bool] | None = None
) -> int | None:
    """Where a refusal phrase, a negated verb or an absence from the documents starts in ns; a
    hit followed at once by an error word denies an error ("文档中没有任何错误", "do not contain
    any errors"), it does not refuse; a hit `other(start, end)` says is someone else's or about
    the world (_not_own) is skipped."""
    starts = []
    any_error, reach = table.patterns["any_error"], table.profile.denial_reach
    for kind in ("rejection", "negated_verb", "absence"):
        for m in table.patterns[kind].finditer(ns):
            if any_error.search(ns, m.end(), m.end() + reach):
                continue
            if other is not None and other(m.start(), m.end()):
                continue
            starts.append(m.start())
            break
    return min(starts) if starts else None


def _clause_starts(raw: str, lang: Lang) -> list[int]:
    """Where each clause of a raw sentence (cut at commas and colons) starts in its normal form."""
    word_boundaries = phrase_table(lang).profile.word_boundaries
    out, pos = [0], 0
    for clause in _CLAUSES.split(raw):
        nc = normalize(clause, lang)
        if nc:
            pos += len(nc) + word_boundaries  # the space between
            out.append(pos)
    return out


def _clause(starts: list[int] | None, at: int, end: int) -> tuple[int, int]:
    """(start, end) of the clause holding offset `at` (the whole text without clause starts)."""
    if not starts:
        return 0, end
    return max(s for s in starts if s <= at), min((s for s in starts if s > at), default=end)


def _echoes(subject: str, query_norm: str, table: PhraseTable) -> bool:
    """Is the subject mostly the question's words (characters in zh): the thing asked about?"""
    if not query_norm:
        return False
    skip = set(table.phrases["function_words"])
    if table.profile.word_boundaries:
        units = [w for w in subject.split() if w not in skip]
        asked = set(query_norm.split())
    else:
        units = [c for c in subject.replace(" ", "") if c not in skip]
        asked = set(query_norm)
    return bool(units) and 2 * sum(u in asked for u in units) >= len(units)


def _own_voice(subject: str, table: PhraseTable) -> bool:
    """A subject that is the documents, holds the speaker ("so I", "因此我") or opens with a word
    pointing back ("it", "该信息")."""
    speaker = phrase_regex(table.phrases["speaker"], table.profile.word_boundaries)
    return bool(
        table.patterns["document_words"].search(subject)
        or speaker.search(subject)
        or table.patterns["anaphora"].match(subject)
    )


def _not_own(
    ns: str, start: int, end: int, starts: list[int] | None, table: PhraseTable, query_norm: str
) -> bool:
    """Is the refusal hit at ns[start:end] not the response declining to answer?
    - undecided: inside an `undecided` phrase said of the thing asked about, not of the documents
      or by the speaker ("参议院席位没有确定归属", "The winner has not been determined");
    - someone else's: its subject (the clause before it) names a party other than the documents,
      the speaker or the thing asked about, not as a passive's subject, and an object follows
      ("亚洲足球联盟没有提到亚洲杯举办的时间", "The AFC did not mention the date"): a report of
      what that party said or knows, like one after a reporting verb."""
    c_start, c_end = _clause(starts, start, len(ns))
    subject = ns[min(c_start, start) : start].strip()
    undecided = any(m.start() <= start < m.end() for m in table.patterns["undecided"].finditer(ns))
    if (
        undecided
        and not _own_voice(subject, table)
        and _residue(subject, table, "") > table.profile.residue
    ):
        return True
    return _third_party(ns, subject, start, end, c_end, table, query_norm)


def _third_party(
    ns: str, subject: str, start: int, end: int, c_end: int, table: PhraseTable, query_norm: str
) -> bool:
    """A subject naming a party other than the documents, the speaker or the thing asked about,
    not a passive's, with an object after the hit (_not_own)."""
    residue, passive, rest = table.profile.residue, table.patterns["passive"], ns[end:c_end]
    if not subject or _own_voice(subject, table) or table.patterns["document_words"].search(rest):
        return False  # "…aren't given in the documents": the documents are what says nothing
    # the subject and the hit's first word: "the date is not", "the details arent"
    if passive.search(ns[:start] + ns[start:end].split(" ", 1)[0]):
        return False
    if _residue(subject, table, query_norm) <= residue or _echoes(subject, query_norm, table):
        return False
    return _residue(rest, table, query_norm) > residue


def _reported(prefix: str, table: PhraseTable, starts: list[int] | None = None) -> bool:
    """A reporting verb before the phrase whose subject is not the documents or the speaker. With
    the clause starts of the sentence, the subject is the reporting verb's own clause: "根据文档，
    警方表示无法确定" reports the police, the documents only being where it was read."""
    m = table.patterns["reporting"].search(prefix)
    if m is None:
        return False
    subject = prefix[_clause(starts, m.start(), len(prefix))[0] : m.start()]
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
        starts = _clause_starts(raw, lang)
        at = _refusal_at(
            ns,
            table,
            lambda a, b: _not_own(ns, a, b, starts, table, query_norm),  # noqa: B023
        )
        if at is None or _reported(ns[:at], table, starts):
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
        starts = _clause_starts(raw, lang)
        for m in table.patterns["full_refusal"].finditer(ns):
            if not _reported(ns[: m.start()], table, starts):
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

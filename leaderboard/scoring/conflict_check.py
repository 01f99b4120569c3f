"""Are RGB's fact files fit for the knowledge-conflict track? A check by code, per record and
per passage, whose findings the data audit lists (the errata page shows them) and whose verdict
decides which passages a conflict condition may show.

A conflict puts a true passage (`positive[i]`) beside an altered one (`positive_wrong[j]`) and
reads the answer for the true answer and the planted one. That reading is only sound when:
- the planted answer neither equals nor contains the true one (`fake_contains_true`, the whole
  record): an answer repeating the planted fact would also "give" the true answer;
- the lists are aligned (`fake_unaligned`, the whole record): `positive_wrong[i]` must be the
  altered `positive[i]`;
- an altered passage differs from its true passage (`fake_identical`) and no longer states the
  true answer (`fake_states_true`), and states the planted one (`fake_lacks_fake`): else it is
  not a false source;
- a true passage states the true answer (`true_lacks_answer`): else it is not a true source.
The matching is strict scoring's own (normal form, number and word boundaries: 70 never matches
170), so the check and the outcome reader agree on what "states" means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from leaderboard.core.types import Answer, Lang, Record
from leaderboard.scoring.normalize import find_normalized, normalize

RECORD_KINDS = ("fake_contains_true", "fake_unaligned")
PASSAGE_KINDS = ("fake_identical", "fake_states_true", "fake_lacks_fake", "true_lacks_answer")
KINDS = RECORD_KINDS + PASSAGE_KINDS


@dataclass(frozen=True)
class ConflictFinding:
    """One defect: the record, the passage it concerns (None: the whole record), kind, detail."""

    id: int
    passage: str | None  # "positive[2]", "positive_wrong[0]"
    kind: str
    detail: str


@dataclass(frozen=True)
class SourceUse:
    """Which source passages of a record a condition may show: true passages by index into
    `positive`, altered ones by index into `positive_wrong`. Empty when the record is unfit."""

    true: frozenset[int]
    fake: frozenset[int]


def _alts(answer: Answer) -> list[tuple[str, ...]]:
    return [(el,) if isinstance(el, str) else tuple(el) for el in answer]


# Surface forms strict matching would miss in running text, removed before it reads a text: an
# English possessive ("Facebook's" normalises to "facebooks", no longer the word "facebook") and
# a zero-padded month or day ("2008年05月12日" states "5月12日").
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s\b")
_ZERO_PAD = re.compile(r"(?<!\d)0(?=\d[月日号])")


def surface(text: str, lang: Lang) -> str:
    """The normal form the conflict track reads a passage or an answer in: strict scoring's, after
    the surface forms above are removed."""
    return normalize(_ZERO_PAD.sub("", _POSSESSIVE.sub("", text)), lang)


def states(answer: Answer, passage: str, lang: Lang) -> bool:
    """Does the text state every element of `answer` (any alternative, strict matching)?"""
    text = surface(passage, lang)
    elements = _alts(answer)
    return bool(elements) and all(
        any(find_normalized(text, normalize(a, lang), lang) for a in alts if a.strip())
        for alts in elements
    )


def _contains_true(record: Record, lang: Lang) -> str | None:
    fakes = [normalize(a, lang) for alts in _alts(record.fakeanswer) for a in alts]
    for alts in _alts(record.answer):
        for a in alts:
            t = normalize(a, lang)
            if t and any(t == f or find_normalized(f, t, lang) for f in fakes if f):
                return f"the planted answer {record.fakeanswer!r} contains the answer {a!r}"
    return None


def check_record(record: Record, lang: Lang) -> list[ConflictFinding]:
    """Every finding for one fact record, record-level ones first."""
    out: list[ConflictFinding] = []
    if (why := _contains_true(record, lang)) is not None:
        out.append(ConflictFinding(record.id, None, "fake_contains_true", why))
    if len(record.positive) != len(record.positive_wrong):
        out.append(
            ConflictFinding(
                record.id,
                None,
                "fake_unaligned",
                f"{len(record.positive)} positive passages but "
                f"{len(record.positive_wrong)} positive_wrong",
            )
        )
    if out:
        return out
    for i, (true, fake) in enumerate(zip(record.positive, record.positive_wrong, strict=True)):
        true_text = true if isinstance(true, str) else " ".join(true)
        if not states(record.answer, true_text, lang):
            out.append(
                ConflictFinding(
                    record.id,
                    f"positive[{i}]",
                    "true_lacks_answer",
                    f"does not state the answer {record.answer!r}",
                )
            )
        if fake.strip() == true_text.strip():
            out.append(
                ConflictFinding(
                    record.id,
                    f"positive_wrong[{i}]",
                    "fake_identical",
                    f"identical to positive[{i}]",
                )
            )
        elif states(record.answer, fake, lang):
            out.append(
                ConflictFinding(
                    record.id,
                    f"positive_wrong[{i}]",
                    "fake_states_true",
                    f"still states the answer {record.answer!r}",
                )
            )
        elif not states(record.fakeanswer, fake, lang):
            out.append(
                ConflictFinding(
                    record.id,
                    f"positive_wrong[{i}]",
                    "fake_lacks_fake",
                    f"does not state the planted answer {record.fakeanswer!r}",
                )
            )
    return out


def source_use(record: Record, findings: list[ConflictFinding]) -> SourceUse:
    """The passages a condition may show, given the record's findings (check_record)."""
    if any(f.kind in RECORD_KINDS for f in findings):
        return SourceUse(frozenset(), frozenset())
    bad = {f.passage for f in findings}
    n = len(record.positive)
    return SourceUse(
        frozenset(i for i in range(n) if f"positive[{i}]" not in bad),
        frozenset(i for i in range(n) if f"positive_wrong[{i}]" not in bad),
    )


def check_records(
    records: tuple[Record, ...], lang: Lang
) -> tuple[list[ConflictFinding], dict[int, SourceUse]]:
    """The findings of a fact file and, per record id, the passages a condition may show."""
    findings: list[ConflictFinding] = []
    use: dict[int, SourceUse] = {}
    for r in records:
        found = check_record(r, lang)
        findings += found
        use[r.id] = source_use(r, found)
    return findings, use

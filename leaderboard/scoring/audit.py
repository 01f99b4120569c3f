"""Known problems in the RGB data, found by code so the methodology page can publish the list.

Checks (each finding names language, file, record id, kind and a detail in words):
- fake_equals_answer / answer_in_fake (counterfactual files): the true answer equals, or is a
  substring of, the fake answer (normalised). The reference scorer then credits a model that repeats
  the fake answer; strict mode only credits the true answer outside the fake one (and never when
  they are equal).
- answer_in_negative: every answer element is found (strict matching) in the first five negative
  passages, the ones shown at noise rate 1.0; a refusal is then not the only right behaviour, so the
  rejection item cannot be scored fairly (and noise passages are not noise).
- partial_answer_in_negative: some but not all answer elements are found there.
- answer_not_in_positive: an answer element is not found (strict matching) in any positive passage,
  so the item may be unanswerable even with no noise, or the answer is phrased differently there.
- duplicate_query: two records of one file ask the same (normalised) question.
- conflict_* (fact files): a record or passage unfit for the knowledge-conflict track
  (scoring/conflict_check.py: a planted answer containing the true one, an altered passage
  identical to its true passage or still stating the true answer, ...); the passage is named.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from leaderboard.core.types import LANGS, Answer, Lang, Record
from leaderboard.data.records import load_records
from leaderboard.scoring.conflict_check import check_records
from leaderboard.scoring.normalize import find_normalized, normalize

REJECTION_PASSAGES = 5  # the reference shows negative[:passage_num] at noise rate 1.0


@dataclass(frozen=True)
class AuditFinding:
    lang: Lang
    file: str  # name relative to the language's data folder, e.g. "zh_fact.json"
    id: int
    kind: str
    detail: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _alternatives(element: str | tuple[str, ...]) -> tuple[str, ...]:
    return (element,) if isinstance(element, str) else element


def _flat(answer: Answer) -> list[str]:
    return [a for el in answer for a in _alternatives(el)]


def _found(element: str | tuple[str, ...], norm_texts: list[str], lang: Lang) -> bool:
    alts = [normalize(a, lang) for a in _alternatives(element)]
    return any(find_normalized(t, a, lang) for t in norm_texts for a in alts if a)


def fake_equals_answer(answer: Answer, fakeanswer: Answer, lang: Lang) -> bool:
    """Does a counterfactual record's fake answer equal its true answer (normalised)? Its
    passages then state no false fact, so an error claim there is not a detection."""
    true = {normalize(a, lang) for a in _flat(answer)}
    return bool(true & {normalize(a, lang) for a in _flat(fakeanswer)})


# a record's check: (kind, detail) of what it finds, or None
Finding = tuple[str, str] | None


def _fake_finding(lang: Lang, r: Record) -> Finding:
    if not r.fakeanswer:
        return None
    true = {normalize(a, lang) for a in _flat(r.answer)}
    fake = {normalize(a, lang) for a in _flat(r.fakeanswer)}
    if fake_equals_answer(r.answer, r.fakeanswer, lang):
        return "fake_equals_answer", f"fake answer {r.fakeanswer!r} equals the answer {r.answer!r}"
    inside = sorted(t for t in true if any(t and t in f for f in fake))
    if inside:
        return "answer_in_fake", f"answer {inside[0]!r} is inside the fake answer {r.fakeanswer!r}"
    return None


def answer_in_passages(answer: Answer, passages: tuple[str, ...], lang: Lang) -> bool:
    """Is every answer element found (strict matching) in the passages? For a rejection instance
    (noise rate 1.0) this means the "negative" passages answer the question after all."""
    shown = [normalize(p, lang) for p in passages]
    return bool(answer) and all(_found(el, shown, lang) for el in answer)


def answer_shown_ids(
    records: tuple[Record, ...], lang: Lang, passage_num: int = 5
) -> frozenset[int]:
    """Ids whose first `passage_num` negative passages (those shown at noise rate 1.0) hold the
    whole answer: the audit's answer_in_negative findings, as the scorer needs them."""
    return frozenset(
        r.id for r in records if answer_in_passages(r.answer, r.negative[:passage_num], lang)
    )


def _negative_finding(lang: Lang, r: Record) -> Finding:
    shown = [normalize(p, lang) for p in r.negative[:REJECTION_PASSAGES]]
    hits = [el for el in r.answer if _found(el, shown, lang)]
    if not hits:
        return None
    where = sorted({i for i, t in enumerate(shown) for el in hits if _found(el, [t], lang)})
    kind = "answer_in_negative" if len(hits) == len(r.answer) else "partial_answer_in_negative"
    found = ", ".join(repr(_alternatives(el)[0]) for el in hits)
    return kind, f"{found} found in negative passage(s) {where} (of the first {len(shown)})"


def _positive_finding(lang: Lang, r: Record) -> Finding:
    passages = [p for g in r.positive for p in _alternatives(g)]
    texts = [normalize(p, lang) for p in passages]
    missing = [el for el in r.answer if not _found(el, texts, lang)]
    if not missing:
        return None
    shown = ", ".join(repr(_alternatives(el)[0]) for el in missing)
    return (
        "answer_not_in_positive",
        f"{shown} not found in any of {len(passages)} positive passages",
    )


def _duplicates(lang: Lang, name: str, records: tuple[Record, ...]) -> list[AuditFinding]:
    first: dict[str, int] = {}
    out = []
    for r in records:
        q = normalize(r.query, lang)
        if q in first:
            out.append(
                AuditFinding(
                    lang,
                    name,
                    r.id,
                    "duplicate_query",
                    f"same question as id {first[q]}: {r.query!r}",
                )
            )
        else:
            first[q] = r.id
    return out


def audit_file(path: Path, lang: Lang, name: str) -> list[AuditFinding]:
    """Every finding for one data file (its record shape is decided by its name, as in the
    reference)."""
    records = load_records(path)
    out = [
        AuditFinding(lang, name, r.id, *found)
        for r in records
        for check in (_fake_finding, _negative_finding, _positive_finding)
        if (found := check(lang, r)) is not None
    ]
    return out + _duplicates(lang, name, records) + _conflict_findings(lang, name, records)


def _conflict_findings(lang: Lang, name: str, records: tuple[Record, ...]) -> list[AuditFinding]:
    """A fact file checked for the conflict track (scoring.conflict_check), as findings of kind
    conflict_<kind> whose detail names the passage first ("positive_wrong[1]: ...")."""
    if not records or not any(r.positive_wrong for r in records):
        return []
    findings, _ = check_records(records, lang)
    return [
        AuditFinding(
            lang,
            name,
            f.id,
            f"conflict_{f.kind}",
            f"{f.passage}: {f.detail}" if f.passage else f.detail,
        )
        for f in findings
    ]


def data_files(root: Path) -> list[tuple[Lang, str, Path]]:
    """(lang, name, path) of the RGB files present: root/data_<lang>/ (fetched layout) or root
    itself."""
    found: list[tuple[Lang, str, Path]] = []
    for lang in LANGS:
        for folder in (Path(root) / f"data_{lang}", Path(root)):
            if not folder.is_dir():
                continue
            paths = sorted(folder.glob(f"{lang}*.json"))
            paths += sorted(p for p in (folder / "partial").glob(f"{lang}*.json"))
            if paths:
                found += [(lang, p.relative_to(folder).as_posix(), p) for p in paths]
                break
    return found


def audit(root: Path) -> list[AuditFinding]:
    """Findings for whatever RGB files are present under root, in file order then id order."""
    out: list[AuditFinding] = []
    for lang, name, path in data_files(root):
        out += audit_file(path, lang, name)
    return out

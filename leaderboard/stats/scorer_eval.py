"""How well each scoring mode's detectors agree with the labelled set (labels/GUIDE.md).

Per language, mode and detector: precision, recall and F1 of rejection and error detection, and the
accuracy of correctness, each with a 95% Wilson interval and its n. `rgb` correctness is the
reference's answer check (no 0 label and some 1 label): its "refusal counts as correct at noise
1.0" rule is a rejection score, measured by the rejection row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leaderboard.core.types import LANGS, MODES, Lang, Mode, Score
from leaderboard.scoring.labelled import Collection, LabelledItem, labelled_set
from leaderboard.scoring.score import score_both
from leaderboard.stats import intervals

DETECTORS = ("rejection", "error detection", "correctness")


def wilson_count(k: int, n: int) -> tuple[float, float] | None:
    """Wilson score interval of k successes in n (None when n is 0); never collapses at 0 or n.
    Counts in, the one Wilson interval of the package (stats.intervals.wilson_share: a share p of n
    trials) out."""
    if n == 0:
        return None
    return intervals.wilson_share(k / n, n)


@dataclass(frozen=True)
class Confusion:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        return None if p is None or r is None or p + r == 0 else 2 * p * r / (p + r)

    @property
    def accuracy(self) -> float | None:
        return (self.tp + self.tn) / self.n if self.n else None

    def row(self) -> dict[str, object]:
        return {
            "n": self.n,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": self.precision,
            "precision_ci": wilson_count(self.tp, self.tp + self.fp),
            "recall": self.recall,
            "recall_ci": wilson_count(self.tp, self.tp + self.fn),
            "f1": self.f1,
            "accuracy": self.accuracy,
            "accuracy_ci": wilson_count(self.tp + self.tn, self.n),
        }


def confusion(pairs: Iterable[tuple[bool, bool]]) -> Confusion:
    """(predicted, labelled) pairs into counts."""
    tp = fp = fn = tn = 0
    for got, want in pairs:
        if got and want:
            tp += 1
        elif got:
            fp += 1
        elif want:
            fn += 1
        else:
            tn += 1
    return Confusion(tp, fp, fn, tn)


def _predicted(score: Score, mode: Mode, detector: str) -> bool:
    if detector == "rejection":
        return score.rejected
    if detector == "error detection":
        return score.error_detected
    if mode == "rgb":
        return 0 not in score.labels and 1 in score.labels
    return score.correct


def _wanted(item: LabelledItem, detector: str) -> bool:
    if detector == "rejection":
        return item.labels.rejected
    if detector == "error detection":
        return item.labels.error_detected
    return item.labels.correct


def select(
    split: str,
    langs: Sequence[Lang] = LANGS,
    batch: str | None = None,
    collection: Collection = "scorers",
) -> dict[Lang, list[LabelledItem]]:
    """The labelled items of a split ('dev', 'test' or 'all') per language; `batch` keeps one
    batch (ids `<lang>-<batch>-…`: "d3", scripts/labels/written_dev3.py; in the audit collection
    "dis", the disagreement set, and "agr", the agreement sample)."""
    tag = f"-{batch}-" if batch else ""
    return {
        lang: [
            i
            for i in labelled_set(lang, collection)
            if (split == "all" or i.split == split) and (not tag or tag in i.id)
        ]
        for lang in langs
    }


def evaluate(
    split: str = "test",
    langs: Sequence[Lang] = LANGS,
    batch: str | None = None,
    collection: Collection = "scorers",
) -> list[dict[str, object]]:
    """One row per (language, mode, detector) with counts, P/R/F1, accuracy and Wilson CIs."""
    rows = []
    for lang, items in select(split, langs, batch, collection).items():
        scores = [score_both(i.prediction, i.instance) for i in items]
        for mode in MODES:
            for det in DETECTORS:
                pairs = [
                    (_predicted(s[mode], mode, det), _wanted(i, det))
                    for i, s in zip(items, scores, strict=True)
                ]
                row: dict[str, object] = {
                    "lang": lang,
                    "split": split,
                    "mode": mode,
                    "detector": det,
                }
                row.update(confusion(pairs).row())
                rows.append(row)
    return rows


def disagreements(
    split: str, mode: Mode, lang: Lang, collection: Collection = "scorers"
) -> list[tuple[LabelledItem, dict[str, tuple[bool, bool]]]]:
    """Items where the mode disagrees with a label: {detector: (predicted, labelled)}."""
    out = []
    for item in select(split, (lang,), collection=collection)[lang]:
        s = score_both(item.prediction, item.instance)[mode]
        diff = {
            d: (_predicted(s, mode, d), _wanted(item, d))
            for d in DETECTORS
            if _predicted(s, mode, d) != _wanted(item, d)
        }
        if diff:
            out.append((item, diff))
    return out


def agrees(item: LabelledItem, score: Score, mode: Mode) -> bool:
    """Does the mode give the item every label it has (correctness, rejection, error
    detection)? The one-number agreement of an answer with its hand labels."""
    return all(_predicted(score, mode, d) == _wanted(item, d) for d in DETECTORS)


def answer_agreement(
    split: str = "test",
    langs: Sequence[Lang] = LANGS,
    batch: str | None = None,
    collection: Collection = "scorers",
) -> list[dict[str, object]]:
    """Per language (and "all") and mode: how many labelled answers the mode judges exactly as
    labelled on every detector, with the share and its 95% Wilson interval."""
    chosen = select(split, langs, batch, collection)
    rows = []
    for lang in (*chosen, "all"):
        items = [i for lg in chosen for i in chosen[lg]] if lang == "all" else chosen[lang]
        scores = [score_both(i.prediction, i.instance) for i in items]
        for mode in MODES:
            k = sum(agrees(i, s[mode], mode) for i, s in zip(items, scores, strict=True))
            rows.append(
                {
                    "lang": lang,
                    "split": split,
                    "batch": batch,
                    "collection": collection,
                    "mode": mode,
                    "n": len(items),
                    "agree": k,
                    "rate": k / len(items) if items else None,
                    "ci": wilson_count(k, len(items)),
                }
            )
    return rows

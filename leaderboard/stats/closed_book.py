"""What a model knew without passages: the closed-book probes joined, question by
question, with the same questions' answers with passages.

The closed-book probes (`closedbook`: the noise file's questions, `closedbook_fact`: the
counterfactual file's) ask each question with no passage. "Right" below is the outcome `correct`
of `scoring.outcome` (the answer given, not refused). Per language and mode (ProbeEntry, probe
"closedbook"):

- `accuracy` / `accuracy_fact`: the closed-book correct share of the noise / counterfactual file;
- on the noise questions, per noise rate (`rates` = that rate) and pooled over the rates present
  (`rates` = all of them, each answer with passages one instance): `knew` (right closed-book and
  with passages), `context_gain` (wrong closed-book, right with passages), `context_harm` (right
  closed-book, wrong with passages), shares of the questions asked both ways, and `context_net` =
  gain - harm (with-passages accuracy minus closed-book accuracy on the same questions) with the
  paired interval of `stats.intervals` (MOVER of the discordant shares);
- on the rejection questions (noise rate 1.0: no passage holds the answer): `refused`,
  `from_memory` (right), `made_up` (wrong: neither refused, right nor claiming an error), and
  `made_up_unknown`: the share of the made-up answers whose question the model also got wrong
  closed-book (it did not know the answer and invented one);
- on the counterfactual questions: `repeated_fake` (the share of counterfactual answers that are
  wrong and state the planted fake answer, `scoring.outcome.repeats_fake`) and
  `knew_but_repeated`: among the questions answered right closed-book, the share whose
  counterfactual answer repeated the planted fact.

Rates get Wilson intervals at the cluster-bootstrap effective n of their denominator's questions
(`stats.outcomes.share`); the closed-book and with-passages cells of one data file share their
bootstrap draws (`stats.cells.groups`), so every join is paired by construction.
"""

from __future__ import annotations

import numpy as np

from leaderboard.core.schema import ProbeEntry
from leaderboard.core.types import DEFAULT_NOISE_RATES, LANGS, MODES, Lang, Mode
from leaderboard.stats.intervals import discordant_difference
from leaderboard.stats.outcomes import OutcomeVectors, VectorsByKey, share

DEFINITIONS = {
    "accuracy": "Closed-book accuracy on the noise file's questions (no passage): the share "
    "answered right.",
    "accuracy_fact": "Closed-book accuracy on the counterfactual file's questions (no passage).",
    "knew": "Share of the questions right both closed-book and with passages (knew it without "
    "passages).",
    "context_gain": "Share of the questions wrong closed-book but right with passages (the "
    "passages helped).",
    "context_harm": "Share of the questions right closed-book but wrong with passages (the "
    "passages led it astray).",
    "context_net": "With-passages accuracy minus closed-book accuracy on the same questions "
    "(context gain minus context harm); paired CI (MOVER of the discordant shares).",
    "refused": "Share of the rejection answers (noise rate 1.0) that refuse.",
    "from_memory": "Share of the rejection answers that are right although no passage holds the "
    "answer (from memory).",
    "made_up": "Share of the rejection answers that are wrong: neither refusing, right nor "
    "claiming an error.",
    "made_up_unknown": "Among the made-up rejection answers, the share whose question the model "
    "also got wrong closed-book (it did not know and invented an answer).",
    "repeated_fake": "Share of the counterfactual answers that are wrong and state the planted "
    "fake answer.",
    "knew_but_repeated": "Among the counterfactual questions answered right closed-book, the "
    "share whose answer with the counterfactual passages repeated the planted fake answer.",
}


def _entry(lang, mode, metric, value, ci, n, rates=()) -> ProbeEntry:
    return ProbeEntry(
        lang=lang,
        mode=mode,
        probe="closedbook",
        metric=metric,
        value=value,
        ci=ci if value is not None else None,
        n_questions=n,
        rates=tuple(rates),
        definition=DEFINITIONS[metric],
    )


def _rate_entry(lang, mode, metric, group, num, den, rates=()) -> list[ProbeEntry]:
    value, ci, n = share(group, num, den)
    return [] if value is None else [_entry(lang, mode, metric, value, ci, n, rates)]


def _joined(
    lang: Lang, mode: Mode, book: OutcomeVectors, ctx: list[OutcomeVectors], rates: tuple
) -> list[ProbeEntry]:
    """knew / gain / harm / net of the closed-book answers against `ctx` (one or more noise
    rates; per question the counts over the rates where it was asked)."""
    g = book.group
    cb = book.values["correct"]
    both = sum(c.present * book.present for c in ctx)
    ctx_right = sum(c.values["correct"] * c.present * book.present for c in ctx)
    ctx_wrong = both - ctx_right
    out: list[ProbeEntry] = []
    parts = {
        "knew": cb * ctx_right,
        "context_gain": (1 - cb) * ctx_right,
        "context_harm": cb * ctx_wrong,
    }
    for metric, num in parts.items():
        out += _rate_entry(lang, mode, metric, g, num, both, rates)
    if both.any():
        net, ci = discordant_difference(
            g.weights, parts["context_gain"], parts["context_harm"], both
        )
        out.append(_entry(lang, mode, "context_net", net, ci, int(np.count_nonzero(both)), rates))
    return out


def _noise(lang: Lang, mode: Mode, book: OutcomeVectors, vectors: VectorsByKey) -> list:
    noise = vectors.get((lang, "noise", mode), {})
    rates = [r for r in DEFAULT_NOISE_RATES["noise"] if r in noise and noise[r].group is book.group]
    out: list[ProbeEntry] = []
    for r in rates:
        out += _joined(lang, mode, book, [noise[r]], (r,))
    if len(rates) > 1:
        out += _joined(lang, mode, book, [noise[r] for r in rates], tuple(rates))
    return out


def _rejection(lang: Lang, mode: Mode, rej: OutcomeVectors, book: OutcomeVectors | None) -> list:
    g, p = rej.group, rej.present
    out: list[ProbeEntry] = []
    for metric, name in (("refused", "refused"), ("from_memory", "correct"), ("made_up", "wrong")):
        out += _rate_entry(lang, mode, metric, g, rej.values[name] * p, p, (1.0,))
    if book is not None and book.group is g:
        made_up = rej.values["wrong"] * p * book.present
        unknown = made_up * (1 - book.values["correct"])
        out += _rate_entry(lang, mode, "made_up_unknown", g, unknown, made_up, (1.0,))
    return out


def _counterfactual(
    lang: Lang, mode: Mode, fact: OutcomeVectors, book: OutcomeVectors | None
) -> list:
    g, p = fact.group, fact.present
    repeated = fact.values["repeated_fake"] * p
    out = _rate_entry(lang, mode, "repeated_fake", g, repeated, p, (0.0,))
    if book is not None and book.group is g:
        knew = book.values["correct"] * book.present * p
        out += _rate_entry(lang, mode, "knew_but_repeated", g, repeated * knew, knew, (0.0,))
    return out


def closed_book_entries(vectors: VectorsByKey) -> list[ProbeEntry]:
    """Every closed-book figure per mode and language (nothing without a closed-book cell)."""
    out: list[ProbeEntry] = []
    for mode in MODES:
        for lang in LANGS:
            book = vectors.get((lang, "closedbook", mode), {}).get(0.0)
            book_fact = vectors.get((lang, "closedbook_fact", mode), {}).get(0.0)
            for metric, b in (("accuracy", book), ("accuracy_fact", book_fact)):
                if b is not None:
                    out += _rate_entry(lang, mode, metric, b.group, b.values["correct"], b.present)
            if book is not None:
                out += _noise(lang, mode, book, vectors)
                rej = vectors.get((lang, "rejection", mode), {}).get(1.0)
                if rej is not None:
                    out += _rejection(lang, mode, rej, book)
            fact = vectors.get((lang, "counterfactual", mode), {}).get(0.0)
            if book_fact is not None and fact is not None:
                out += _counterfactual(lang, mode, fact, book_fact)
    return out

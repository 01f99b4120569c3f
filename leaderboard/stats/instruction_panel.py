"""The instruction panel's figures: what one model's answers did under each instruction, on the
same questions, and how far each alternative moves from RGB's own instruction.

Per (language, instruction, ability) over the panel's questions (one noise rate per ability, so
every question is asked once and questions are the independent units):

- rejection (no passage holds the answer): `refused` and `made_up` (the wrong share: an answer
  invented where none is given);
- noise 0.0 (every passage answers): `accuracy` (the correct share, the strict noise score) and
  `over_refusal` (the refused share: a refusal where the answer is on the page);
- counterfactual: `error_detection` (the answer says the documents hold a factual error, the
  strict detector) and `repeated_fake` (a wrong answer stating the planted fact);
- each: `truthfulness`, the correct share minus the wrong share (stats/outcomes' definition, CRAG's
  +1 / 0 / -1), -1..1.

A rate's interval is Wilson's on the n questions; truthfulness is a difference of two shares of
the same answers, so its interval is `stats.intervals.discordant_difference`, as on the model page.
An alternative's paired difference from the official instruction is taken on the questions both
answered, with `stats.intervals.paired_difference` (MOVER of the discordant shares, the interval
the rank ranges use); truthfulness enters it as (t + 1) / 2 in [0, 1] and the difference is scaled
back by 2. The outcome of an answer is `scoring.outcome`'s (one home of that rule); the strict mode
is the figures' mode, the one the board ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.core.types import Ability, Lang, Mode
from leaderboard.scoring.outcome import ScoredItem, effective_score, outcome, repeats_fake
from leaderboard.stats.bootstrap import draw_weights, rng_for
from leaderboard.stats.intervals import discordant_difference, paired_difference, wilson_share

MODE: Mode = "strict"
RESAMPLES = 1000
SEED = 2333

Indicator = Callable[[ScoredItem], float]


def _is(name: str) -> Indicator:
    return lambda item: float(outcome(item, MODE) == name)


def _truth(item: ScoredItem) -> float:
    kind = outcome(item, MODE)
    return 1.0 if kind == "correct" else -1.0 if kind == "wrong" else 0.0


# (ability, metric) -> the per-answer indicator; truthfulness is signed, the rest are rates
METRICS: dict[Ability, tuple[tuple[str, Indicator], ...]] = {
    "rejection": (("refused", _is("refused")), ("made_up", _is("wrong")), ("truthfulness", _truth)),
    "noise": (
        ("accuracy", _is("correct")),
        ("over_refusal", _is("refused")),
        ("truthfulness", _truth),
    ),
    "counterfactual": (
        ("error_detection", lambda it: float(effective_score(it, MODE).error_detected)),
        ("repeated_fake", lambda it: float(repeats_fake(it, MODE))),
        ("truthfulness", _truth),
    ),
}
SIGNED = frozenset({"truthfulness"})

DEFINITIONS = {
    "refused": "Share of the rejection questions (no passage holds the answer) the model refuses.",
    "made_up": "Share of the rejection questions the model answers anyway: an invented answer.",
    "accuracy": "Share of the noise-0.0 questions (every passage answers) answered correctly.",
    "over_refusal": "Share of the noise-0.0 questions refused although every passage answers.",
    "error_detection": "Share of the counterfactual questions whose answer says the documents "
    "hold a factual error.",
    "repeated_fake": "Share of the counterfactual questions answered with the planted false fact.",
    "truthfulness": "Correct share minus wrong share (refusals and error claims count 0), -1..1.",
}


@dataclass(frozen=True)
class Figure:
    """One metric of one (language, instruction, ability) over `n` panel questions; `diff` is the
    alternative minus the official instruction on the `n_paired` questions both answered (None
    for the official instruction itself, or with no shared question)."""

    lang: Lang
    instruction: str
    ability: Ability
    metric: str
    value: float
    ci: tuple[float, float] | None
    n: int
    diff: float | None = None
    diff_ci: tuple[float, float] | None = None
    n_paired: int = 0


@dataclass(frozen=True)
class Sensitivity:
    """How far rejection truthfulness moves across the instructions measured for one language,
    on the `n` questions all of them answered: the range (best minus worst) and the worst case
    with its instruction."""

    lang: Lang
    low: float
    low_instruction: str
    high: float
    high_instruction: str
    instructions: int  # how many instructions the range is taken over
    n: int  # the rejection questions every one of them answered

    @property
    def range(self) -> float:
        return self.high - self.low


def _rate_ci(values: np.ndarray, signed: bool) -> tuple[float, float] | None:
    n = len(values)
    if n == 0:
        return None
    if not signed:
        return wilson_share(float(values.mean()), n)
    weights = draw_weights(n, RESAMPLES, rng_for(SEED, f"panel:{n}"))
    correct, wrong = (values > 0).astype(float), (values < 0).astype(float)
    _, ci = discordant_difference(weights, correct, wrong, np.ones(n))
    return ci


def _paired(
    alt: np.ndarray, off: np.ndarray, signed: bool, label: str
) -> tuple[float | None, tuple[float, float] | None]:
    if signed:  # truthfulness t in -1..1 as (t + 1) / 2 in 0..1, the difference scaled back
        alt, off = (alt + 1) / 2, (off + 1) / 2
    n = len(alt)
    weights = draw_weights(n, RESAMPLES, rng_for(SEED, f"panel-diff:{label}"))
    value, ci = paired_difference(weights, alt, off, np.ones(n))
    if value is None:
        return None, None
    scale = 2.0 if signed else 1.0
    return value * scale, None if ci is None else (ci[0] * scale, ci[1] * scale)


def _by_key(items: Sequence[ScoredItem]) -> dict[str, ScoredItem]:
    return {it.instance.key: it for it in items}


def panel_figures(
    answers: Mapping[str, Sequence[ScoredItem]], official: str = "rgb"
) -> list[Figure]:
    """Every figure of one model: `answers` maps an instruction id to its scored answers on the
    panel (the official instruction's restricted to the panel's questions by the caller)."""
    base = _by_key(answers.get(official, ()))
    out: list[Figure] = []
    for instruction, items in answers.items():
        mine = _by_key(items)
        cells = sorted({(it.instance.lang, it.instance.ability) for it in items})
        for lang, ability in cells:
            if ability not in METRICS:
                continue
            keys = sorted(
                k
                for k, it in mine.items()
                if (it.instance.lang, it.instance.ability) == (lang, ability)
            )
            shared = [k for k in keys if k in base] if instruction != official else []
            for metric, indicator in METRICS[ability]:
                signed = metric in SIGNED
                values = np.array([indicator(mine[k]) for k in keys], dtype=float)
                diff = diff_ci = None
                if shared:
                    diff, diff_ci = _paired(
                        np.array([indicator(mine[k]) for k in shared], dtype=float),
                        np.array([indicator(base[k]) for k in shared], dtype=float),
                        signed,
                        f"{instruction}:{lang}:{ability}:{metric}",
                    )
                out.append(
                    Figure(
                        lang=lang,
                        instruction=instruction,
                        ability=ability,
                        metric=metric,
                        value=float(values.mean()),
                        ci=_rate_ci(values, signed),
                        n=len(keys),
                        diff=diff,
                        diff_ci=diff_ci,
                        n_paired=len(shared),
                    )
                )
    return out


def sensitivity(answers: Mapping[str, Sequence[ScoredItem]]) -> list[Sensitivity]:
    """Per language, the range of rejection truthfulness across the instructions, each taken on
    the rejection questions every instruction answered (a partial run must not be compared with
    a complete one on other questions); none below two instructions or without a shared one."""
    out = []
    by_instruction = {i: _by_key(items) for i, items in answers.items()}
    for lang in sorted({it.instance.lang for items in answers.values() for it in items}):
        keyed = {
            i: {
                k: it
                for k, it in m.items()
                if (it.instance.lang, it.instance.ability) == (lang, "rejection")
            }
            for i, m in by_instruction.items()
        }
        keyed = {i: m for i, m in keyed.items() if m}
        if len(keyed) < 2:  # a range needs two instructions
            continue
        shared = sorted(set.intersection(*(set(m) for m in keyed.values())))
        if not shared:
            continue
        truth = {i: float(np.mean([_truth(m[k]) for k in shared])) for i, m in keyed.items()}
        low = min(truth, key=lambda i: (truth[i], i))
        high = max(truth, key=lambda i: (truth[i], i))
        out.append(Sensitivity(lang, truth[low], low, truth[high], high, len(truth), len(shared)))
    return out

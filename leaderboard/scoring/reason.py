"""Why the strict mode judged an answer as it did: data beside the Score, never inside it.

A strict "wrong" on a ranked score must be explainable to a reader: which answer element was found
where in the answer's normal form, and which rule withheld credit. The rules (strict.py's order):

- `not_found`: an element occurs nowhere at a number / word boundary in the normal form;
- `negated`: it occurs only negated ("It is not Norway", "答案不是X");
- `fake_answer`: it occurs only inside the counterfactual's planted fake answer;
- `copy`: every element found, but the response is mostly pasted passage text (answer.is_copy);
- `candidate_list`: every element found, but inside a list of every candidate
  (candidates.is_candidate_list);
- `hedge`: the gold offered as one option among others (hedge.committed);
- `refusal`: the response states a refusal (a full refusal even next to an answer, or its own
  refusal with no answer): the outcome is "refused", whatever was found;
- `error_claim`: the response claims the documents hold a factual error (counterfactual: with a
  correct answer it corrects; without one it only claims).

`StrictReason.withheld` is the first rule that withheld correctness (None when correct), so the
disagreement audit (board/disagreements.py), `score --per-instance` and the instance browser all
name the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ElementStatus = Literal["matched", "not_found", "negated", "fake_answer"]
Rule = Literal["not_found", "negated", "fake_answer", "copy", "candidate_list", "hedge", "refusal"]
# The rules in the order strict.py applies them: the first that fired is the one named.
RULES: tuple[Rule, ...] = (
    "refusal",
    "copy",
    "candidate_list",
    "hedge",
    "fake_answer",
    "negated",
    "not_found",
)
CONTEXT = 12  # characters of the normal form shown either side of a match


@dataclass(frozen=True)
class ElementReason:
    """One answer element: its first alternative as the gold writes it, what matching found, the
    normalised alternative that matched and where (offset in the normal form, the text around)."""

    element: str
    status: ElementStatus
    alternative: str | None = None
    at: int | None = None
    context: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "element": self.element,
            "status": self.status,
            "alternative": self.alternative,
            "at": self.at,
            "context": self.context,
        }


@dataclass(frozen=True)
class StrictReason:
    """Why strict said what it said (module docstring). `refusal`: "full" (信息不足, "cannot
    answer", next to an answer or not) or "own" (its own refusal, no answer given)."""

    elements: tuple[ElementReason, ...]
    withheld: Rule | None
    refusal: Literal["full", "own"] | None = None
    error_claim: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "withheld": self.withheld,
            "refusal": self.refusal,
            "error_claim": self.error_claim,
            "elements": [e.as_dict() for e in self.elements],
        }


def withheld_rule(
    elements: tuple[ElementReason, ...],
    copy: bool,
    candidate_list: bool,
    hedged: bool,
    refused: bool,
) -> Rule | None:
    """The first rule (RULES order) that withheld correctness, None when the answer is correct."""
    statuses = {e.status for e in elements}
    fired = {
        "refusal": refused,
        "copy": copy,
        "candidate_list": candidate_list,
        "hedge": hedged,
        "fake_answer": "fake_answer" in statuses,
        "negated": "negated" in statuses,
        "not_found": "not_found" in statuses or not elements,
    }
    return next((r for r in RULES if fired[r]), None)

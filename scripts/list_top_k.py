"""Measure a gaming strategy the floor table does not hold yet: list the k candidates most frequent
in the passages, joined as an enumeration with no "or" ("答案是甲、乙、丙。", "The answer is A, B,
C."), no model involved. k = 1 is the board's `baseline-top-candidate`; the `baseline-hedge`
baseline offers 3 of them with 或/or and is withheld by the hedge rule. A list of fewer short items
than the candidate-list rule's LIST_MIN is credited when the gold is one of them, so this prints
how far above committing to one candidate such a list gets.

    python scripts/list_top_k.py [--k 1 2 3 5 7]    (data fetched; about a minute on 2 cores)

Rows: zh noise at rates 0, 0.4 and 0.8 (900 instances) and en noise at 0 and 0.4 on the 50-record
partial file (100 instances); per k, the share credited by each mode, in %.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from leaderboard.backends.policies import COMMIT, top_candidates
from leaderboard.core.types import Lang
from leaderboard.run.plan import split_instances
from leaderboard.scoring.score import score_both

REPO = Path(__file__).resolve().parents[1]
SEP: dict[Lang, str] = {"zh": "、", "en": ", "}  # an enumeration, no "or"
SPLITS: tuple[tuple[Lang, tuple[float, ...], bool], ...] = (
    ("zh", (0.0, 0.4, 0.8), False),
    ("en", (0.0, 0.4), True),
)


def listed(passages: tuple[str, ...], lang: Lang, k: int) -> str:
    """The strategy's answer: the top k candidates as one enumeration in the top-candidate
    baseline's frame (policies.COMMIT), "" when there is none."""
    top = top_candidates(passages, lang, k)
    return COMMIT[lang].format(SEP[lang].join(top)) if top else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, nargs="+", default=[1, 2, 3, 5, 7])
    ap.add_argument("--data-dir", type=Path, default=REPO)
    args = ap.parse_args()
    for lang, rates, partial in SPLITS:
        _, insts = split_instances(args.data_dir, lang, "noise", rates=rates, allow_partial=partial)
        print(f"{lang} noise, rates {', '.join(map(str, rates))} (n={len(insts)})")
        for k in args.k:
            hits = {"rgb": 0, "strict": 0}
            for inst in insts:
                scores = score_both(listed(inst.docs, lang, k), inst)
                for mode in hits:
                    hits[mode] += bool(scores[mode].correct)
            shares = "  ".join(f"{m} {100 * v / len(insts):5.1f}" for m, v in hits.items())
            print(f"  k={k}: {shares}")


if __name__ == "__main__":
    main()

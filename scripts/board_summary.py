"""Print the README's board table, "What is on the board", from the committed results files.

    python scripts/board_summary.py [--lang zh] [submissions/<id> ...]

One row per measured model (default: every entry with a model backend, plus the highest trivial
baseline), best strict zh overall first: how much of zh it covers, the ranked score (strict zh
overall) and the noise scores in both languages, then what it does when no passage holds the
answer (zh rejection questions: the share it makes up, the share it refuses) and what it knows
without passages (closed-book accuracy on the zh noise questions). Every figure with its 95%
interval and n, as results.json records it; "—" where it is not measured. `--lang zh` prints the
same table for README_zh.md: Chinese headers, a trivial baseline's Chinese name (the site's), and
the figures in Chinese typography (intervals with ～, `n = 500`, counts without separators).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from leaderboard.backends.registry import backend_traits
from leaderboard.board.ranking import coverage, is_trivial_baseline, probe_entry, score_entry
from leaderboard.core.files import read_results
from leaderboard.core.schema import Results
from leaderboard.site.render.page import shown_name

REPO = Path(__file__).resolve().parents[1]
HEAD = (
    "entry",
    "zh answers (of expected)",
    "strict zh overall",
    "strict noise zh",
    "strict noise en (partial file)",
    "makes up, zh rejection",
    "refuses, zh rejection",
    "closed-book zh",
)
HEADS = {
    "en": HEAD,
    "zh": (
        "条目",
        "中文回答数（应有数）",
        "严格模式中文总分",
        "严格模式中文噪声鲁棒性",
        "严格模式英文噪声鲁棒性（部分数据文件）",
        "中文拒答题编造率",
        "中文拒答题拒答率",
        "中文闭卷准确率",
    ),
}


def _pct(value: float | None, ci: tuple[float, float] | None, n: int | None, lg: str = "en") -> str:
    if value is None:
        return "—"
    text = f"{100 * value:.1f}"
    if lg == "zh":  # the zh review's typography: a range with ～, spaces around =, U+2212
        inner = [f"{100 * ci[0]:.1f}～{100 * ci[1]:.1f}"] if ci is not None else []
        inner += [f"n = {n}"] if n is not None else []
        text += f"（{'，'.join(inner)}）" if inner else ""
        return text.replace("-", "\u2212")
    if ci is not None:
        text += f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return text + (f" n={n}" if n is not None else "")


def _score(res: Results, lang: str, ability: str, lg: str) -> str:
    e = score_entry(res, lang, ability, "strict")
    return "—" if e is None else _pct(e.value, e.ci, e.n_questions, lg)


def _share(res: Results, metric: str, lg: str) -> str:
    for t in res.truthfulness:
        key = (t.lang, t.ability, t.metric, t.mode)
        if key == ("zh", "rejection", metric, "strict"):
            return _pct(t.value, t.ci, t.n_questions, lg)
    return "—"


def _closed_book(res: Results, lg: str) -> str:
    e = probe_entry(res, "zh", "closedbook", "accuracy", "strict")
    return "—" if e is None else _pct(e.value, e.ci, e.n_questions, lg)


def row(res: Results, lg: str = "en") -> list[str]:
    """One table row (the columns of HEAD) in the README of language `lg`."""
    cov = coverage(res, "zh", "strict")
    answers = f"{cov.n:,} of {cov.expected:,}" if lg == "en" else f"{cov.n} / {cov.expected}"
    return [
        shown_name(res.submission_id, res.display_name, lg),
        answers,
        _score(res, "zh", "overall", lg),
        _score(res, "zh", "noise", lg),
        _score(res, "en", "noise", lg),
        _share(res, "wrong", lg),
        _share(res, "refused", lg),
        _closed_book(res, lg),
    ]


def _is_system(res: Results) -> bool:
    """A whole RAG system: ranked on the Systems page, not in this table."""
    return backend_traits(res.provenance.backend).retrieves_itself


def _overall(res: Results) -> float:
    e = score_entry(res, "zh", "overall", "strict")
    return -1.0 if e is None or e.value is None else e.value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(HEADS), default="en")
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args()
    folders = args.folders or sorted(
        p.parent for p in (REPO / "submissions").glob("*/results.json")
    )
    found = [read_results(f / "results.json") for f in folders]
    models = [r for r in found if not is_trivial_baseline(r) and not _is_system(r)]
    baselines = [r for r in found if is_trivial_baseline(r)]
    if not args.folders and baselines:
        models.append(max(baselines, key=_overall))
    print("| " + " | ".join(HEADS[args.lang]) + " |")
    print("|" + "---|" * len(HEAD))
    for res in sorted(models, key=_overall, reverse=True):
        print("| " + " | ".join(row(res, args.lang)) + " |")


if __name__ == "__main__":
    main()

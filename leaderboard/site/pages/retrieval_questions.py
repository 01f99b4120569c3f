"""Per-question view of a retrieval result: for each question the ranked passages, which are
relevant, and where the first relevant one landed.

Result files hold no data text, only references (record id, field, index, character span); the
query and passage snippets come from the fetched data when it is present, else the page shows the
references and says how to get the text. Everything reaching HTML goes through `esc`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from leaderboard.core.errors import LeaderboardError
from leaderboard.retrieval.results import RetrievalResult
from leaderboard.retrieval.split import Question, load_retrieval_split
from leaderboard.site.pages.retrieval import question_page_path
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.page import front_matter

SNIPPET = 160
FETCH_HINT = (
    "Passage text is not shown: the RGB data is not fetched here. Run `rgb-leaderboard data "
    "fetch` and rebuild the site to see queries and passages."
)
GRADE_MARK = {2: "relevant (holds the answer)", 1: "positive passage", 0: ""}


def _questions(root: Path | None, r: RetrievalResult) -> dict[str, Question] | None:
    if root is None:
        return None
    split = "partial" if r.partial else r.split.split("_", 1)[-1]
    try:
        sp = load_retrieval_split(root, r.lang, split)
    except LeaderboardError:
        return None
    return {q.qid: q for q in sp.questions}


def _text(questions: dict[str, Question], qid: str, ref: dict) -> str | None:
    q = questions.get(str(ref.get("qid", qid)))
    if q is None:
        return None
    texts = q.positives if ref.get("field") == "positive" else q.negatives
    i = int(ref.get("index", -1))
    if not 0 <= i < len(texts):
        return None
    t = texts[i]
    if "start" in ref:
        t = t[int(ref["start"]) : int(ref["end"])]
    t = " ".join(t.split())
    return t if len(t) <= SNIPPET else t[:SNIPPET] + "…"


def _ref_label(ref: dict) -> str:
    where = f"{ref.get('field')}[{ref.get('index')}]"
    if "qid" in ref:
        where = f"record {ref['qid']} {where} chars {ref.get('start')}–{ref.get('end')}"
    return where


def _bucket(rank: int | None) -> str:
    if rank is None:
        return "not found"
    for hi, label in ((1, "1"), (3, "2–3"), (5, "4–5"), (10, "6–10")):
        if rank <= hi:
            return label
    return "> 10"


def question_page(r: RetrievalResult, root: Path | None) -> str:
    questions = _questions(root, r)
    rel = (
        "grade 2 (a positive passage's chunk holding the answer)"
        if r.relevant_grade == 2
        else ("a positive passage")
    )
    partial = " (partial file)" if r.partial else ""
    text = (
        front_matter()
        + f"# {esc(r.split)}{esc(partial)} · {esc(r.setting)} · {esc(r.retriever)}\n\n"
    )
    text += (
        f"Ranked passages per question (top {len(r.per_question[0].top) if r.per_question else 0}"
        f" shown). Relevant = {esc(rel)}. [Back to the Retrieval page](../retrieval.md).\n\n"
    )
    if questions is None:
        text += f"!!! note\n    {esc(FETCH_HINT)}\n\n"
    counts = Counter(_bucket(q.first_relevant) for q in r.per_question if q.values)
    order = ("1", "2–3", "4–5", "6–10", "> 10", "not found")
    text += "| first relevant at rank | " + " | ".join(order) + " |\n"
    text += "|---|" + "---:|" * len(order) + "\n"
    text += "| questions | " + " | ".join(str(counts.get(k, 0)) for k in order) + " |\n\n"
    blocks = []
    for q in r.per_question:
        query = questions[q.qid].query if questions and q.qid in questions else None
        if not q.values:
            first = "no relevant passage"
        elif q.first_relevant:
            first = f"first relevant at {q.first_relevant}"
        else:
            first = "no relevant in the ranking"
        summary = f"<b>{esc(q.qid)}</b> · {esc(first)}"
        if query:
            summary += f" · {esc(query)}"
        items = []
        for d in q.top:
            snippet = _text(questions, q.qid, d.ref) if questions else None
            mark = GRADE_MARK.get(d.grade, "")
            cls = f' class="lb-rel{d.grade}"' if d.grade else ""
            items.append(
                f"<li{cls}><code>{esc(d.id)}</code> {esc(f'{d.score:.4g}')} "
                + (f"<strong>✓ {esc(mark)}</strong> " if mark else "")
                + f"<small>{esc(_ref_label(d.ref))}</small>"
                + (f"<br>{esc(snippet)}" if snippet else "")
                + "</li>"
            )
        ranks = ", ".join("—" if x is None else str(x) for x in q.relevant_ranks) or "none"
        blocks.append(
            f"<details><summary>{summary}</summary><p>ranks of all relevant passages: "
            f"{esc(ranks)}</p><ol>{''.join(items)}</ol></details>"
        )
    text += '<div class="lb-retq">' + "".join(blocks) + "</div>\n"
    return text


def question_pages(results: list[RetrievalResult], root: Path | None) -> dict[str, str]:
    return {question_page_path(r): question_page(r, root) for r in results}

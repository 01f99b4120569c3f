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
PER_PAGE = 50
TOP = 10  # passages shown per question (the result files keep 10)
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


def _page_path(r: RetrievalResult, page: int) -> str:
    """Page 1 is the path the Retrieval page links to; later pages get a -p<N> suffix."""
    first = question_page_path(r)
    return first if page == 1 else first.removesuffix(".md") + f"-p{page}.md"


def _pager(r: RetrievalResult, page: int, n_pages: int) -> str:
    links = []
    for i in range(1, n_pages + 1):
        lo, hi = (i - 1) * PER_PAGE + 1, min(i * PER_PAGE, len(r.per_question))
        label = f"{lo}–{hi}"
        name = _page_path(r, i).rsplit("/", 1)[-1]
        links.append(f"**{label}**" if i == page else f"[{label}]({name})")
    return "Questions: " + " · ".join(links) + "\n\n"


def _block(q, questions: dict[str, Question] | None) -> str:
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
    return (
        f"<details><summary>{summary}</summary><p>ranks of all relevant passages: "
        f"{esc(ranks)}</p><ol>{''.join(items)}</ol></details>"
    )


def question_pages(results: list[RetrievalResult], root: Path | None) -> dict[str, str]:
    """Per result, pages of PER_PAGE questions each (a page stays well under 500 KB)."""
    pages: dict[str, str] = {}
    for r in results:
        questions = _questions(root, r)
        rel = (
            "grade 2 (a positive passage's chunk holding the answer)"
            if r.relevant_grade == 2
            else "a positive passage"
        )
        partial = " (partial file)" if r.partial else ""
        head = (
            front_matter()
            + f"# {esc(r.split)}{esc(partial)} · {esc(r.setting)} · {esc(r.retriever)}\n\n"
            + f"Ranked passages per question (top {TOP} shown). Relevant = {esc(rel)}. "
            + "[Back to the Retrieval page](../retrieval.md).\n\n"
        )
        if questions is None:
            head += f"!!! note\n    {esc(FETCH_HINT)}\n\n"
        counts = Counter(_bucket(q.first_relevant) for q in r.per_question if q.values)
        order = ("1", "2–3", "4–5", "6–10", "> 10", "not found")
        head += "| first relevant at rank | " + " | ".join(order) + " |\n"
        head += "|---|" + "---:|" * len(order) + "\n"
        head += "| questions | " + " | ".join(str(counts.get(k, 0)) for k in order) + " |\n\n"
        n_pages = max(1, -(-len(r.per_question) // PER_PAGE))
        for page in range(1, n_pages + 1):
            part = r.per_question[(page - 1) * PER_PAGE : page * PER_PAGE]
            blocks = "".join(_block(q, questions) for q in part)
            pages[_page_path(r, page)] = (
                head + _pager(r, page, n_pages) + f'<div class="lb-retq">{blocks}</div>\n'
            )
    return pages

"""Per-question view of a retrieval result: for each question the ranked passages, which are
relevant, and where the first relevant one landed.

Result files hold no data text, only references (record id, field, index, character span); the
query and passage snippets come from the fetched data when it is present, else the page shows the
references and says how to get the text. Everything reaching HTML goes through `esc`.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path

from leaderboard.core.errors import LeaderboardError
from leaderboard.retrieval.results import RetrievalResult
from leaderboard.retrieval.split import Question, load_retrieval_split
from leaderboard.site.pages.retrieval.page import (
    question_page_path,
    retrieval_board,
    retriever_name,
)
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, table, ui
from leaderboard.site.render.page import Context, Page, front_matter

SNIPPET = 160
PER_PAGE = 50
TOP = 10  # passages shown per question (the result files keep 10)
BUCKETS = ((1, "1"), (3, "2–3"), (5, "4–5"), (10, "6–10"))  # first relevant rank -> bucket


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


def _ref_label(ref: dict, lg: str) -> str:
    field = str(ref.get("field"))
    if f"retr.q_field_{field}" in table(DEFAULT):  # positive / negative: RGB's passage lists
        field = ui(lg, f"retr.q_field_{field}")
    where = f"{field}[{ref.get('index')}]"
    if "qid" in ref:
        where = ui(
            lg,
            "retr.q_ref",
            qid=ref["qid"],
            where=where,
            start=ref.get("start"),
            end=ref.get("end"),
        )
    return where


def _bucket(rank: int | None) -> str:
    """The bucket of a first relevant rank: a label of BUCKETS, "> 10", or "none"."""
    if rank is None:
        return "none"
    for hi, label in BUCKETS:
        if rank <= hi:
            return label
    return "> 10"


def _page_path(r: RetrievalResult, page: int) -> str:
    """Page 1 is the path the Retrieval page links to; later pages get a -p<N> suffix."""
    first = question_page_path(r)
    return first if page == 1 else first.removesuffix(".md") + f"-p{page}.md"


def _pager(r: RetrievalResult, page: int, n_pages: int, lg: str) -> str:
    links = []
    for i in range(1, n_pages + 1):
        lo, hi = (i - 1) * PER_PAGE + 1, min(i * PER_PAGE, len(r.per_question))
        label = f"{lo}–{hi}"
        name = _page_path(r, i).rsplit("/", 1)[-1]
        links.append(f"**{label}**" if i == page else f"[{label}]({name})")
    return ui(lg, "retr.q_pager", links=" · ".join(links)) + "\n\n"


def _block(q, questions: dict[str, Question] | None, lg: str, data_lang: str = "") -> str:
    """One question's ranking; its question and passage text are data quoted as written, in
    `data_lang`: marked so (class lb-quote, lang) for screen readers and the zh pages' scan."""
    mark_lang = ' class="lb-quote"' + (f' lang="{esc(data_lang)}"' if data_lang else "")
    query = questions[q.qid].query if questions and q.qid in questions else None
    if not q.values:
        first = ui(lg, "retr.q_no_relevant")
    elif q.first_relevant:
        first = ui(lg, "retr.q_first_at", rank=q.first_relevant)
    else:
        first = ui(lg, "retr.q_not_ranked")
    summary = f"<b>{esc(q.qid)}</b> · {esc(first)}"
    if query:
        summary += f" · <span{mark_lang}>{esc(query)}</span>"
    items = []
    for d in q.top:
        snippet = _text(questions, q.qid, d.ref) if questions else None
        mark = ui(lg, f"retr.q_grade{d.grade}") if d.grade in (1, 2) else ""
        cls = f' class="lb-rel{d.grade}"' if d.grade else ""
        items.append(
            f"<li{cls}><code>{esc(d.id)}</code> {esc(f'{d.score:.4g}')} "
            + (f"<strong>✓ {esc(mark)}</strong> " if mark else "")
            + f"<small>{esc(_ref_label(d.ref, lg))}</small>"
            + (f"<br><span{mark_lang}>{esc(snippet)}</span>" if snippet else "")
            + "</li>"
        )
    none = ui(lg, "retr.q_none")
    ranks = ui(lg, "sep.list").join("—" if x is None else str(x) for x in q.relevant_ranks) or none
    return (
        f"<details><summary>{summary}</summary><p>{esc(ui(lg, 'retr.q_all_ranks', ranks=ranks))}"
        f"</p><ol>{''.join(items)}</ol></details>"
    )


def _head(r: RetrievalResult, found: bool, lg: str) -> str:
    """Title, what relevant means, the fetch hint when the text is missing, the rank buckets."""
    rel = ui(lg, "retr.q_rel_grade2" if r.relevant_grade == 2 else "retr.q_rel_positive")
    partial = ui(lg, "retr.q_partial") if r.partial else ""
    head = (
        front_matter()
        + f"# {esc(r.split)}{esc(partial)} · {esc(r.setting)} · "
        + f"{esc(retriever_name(r.retriever, lg))}\n\n"
        + esc(ui(lg, "retr.q_intro", top=TOP, relevant=rel))
        + "\n\n"
    )
    if not found:
        head += f"!!! note\n    {esc(ui(lg, 'retr.q_fetch_hint'))}\n\n"
    counts = Counter(_bucket(q.first_relevant) for q in r.per_question if q.values)
    order = (*(label for _, label in BUCKETS), "> 10", "none")
    labels = [ui(lg, "retr.q_not_found") if k == "none" else k for k in order]
    head += f"| {ui(lg, 'retr.q_first_rank')} | " + " | ".join(labels) + " |\n"
    head += "|---|" + "---:|" * len(order) + "\n"
    counted = " | ".join(str(counts.get(k, 0)) for k in order)
    head += f"| {ui(lg, 'retr.q_questions')} | {counted} |\n\n"
    return head


def question_pages(ctx: Context) -> tuple[Page, ...]:
    """Per result of the retrieval board, pages of PER_PAGE questions each (a page stays well
    under 500 KB); the question texts are read once, for every language's pages."""
    board = retrieval_board(ctx)
    pages = []
    for r in board.results:
        questions = _questions(ctx.data.root, r)
        n_pages = max(1, -(-len(r.per_question) // PER_PAGE))
        for page in range(1, n_pages + 1):
            build = partial(question_page, r=r, questions=questions, page=page, n_pages=n_pages)
            pages.append(Page(_page_path(r, page), build))
    return tuple(pages)


def question_page(
    ctx: Context,
    r: RetrievalResult,
    questions: dict[str, Question] | None,
    page: int,
    n_pages: int,
) -> str:
    """Page `page` of `n_pages` of result `r`, with its interface in language `ctx.lg`."""
    part = r.per_question[(page - 1) * PER_PAGE : page * PER_PAGE]
    blocks = "".join(_block(q, questions, ctx.lg, r.lang) for q in part)
    head = _head(r, questions is not None, ctx.lg)
    return head + _pager(r, page, n_pages, ctx.lg) + f'<div class="lb-retq">{blocks}</div>\n'

"""The Glossary page: the board's one vocabulary (site/glossary.yaml through render/glossary) in the
reader's language, each term with its word in the other language, its definition and, for
translators, the Chinese words the site does not use for it.

Every term has an anchor (glossary.html#term-noise-rate), so a page or a docs page can link the
word it explains. The avoided words are shown struck through and marked as quoted (class
`lb-quote lb-avoid`): they are examples of what not to write, which the zh pages' scans skip.
"""

from __future__ import annotations

from leaderboard.site.render.fmt import esc
from leaderboard.site.render.glossary import Section, Term, anchor, glossary
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, front_matter

PATH = "glossary.md"


def _other_word(t: Term, lg: str) -> str:
    """The term in the other language, marked with its language."""
    other = "en" if lg == "zh" else "zh"
    return f'<span class="lb-glossary-other" lang="{other}">{esc(t.word(other))}</span>'


def _avoided(t: Term, lg: str) -> str:
    if not t.avoid_zh:
        return ""
    words = ui(lg, "sep.list").join(
        f'<s class="lb-quote lb-avoid" lang="zh">{esc(w)}</s>' for w in t.avoid_zh
    )
    return f'<br><span class="lb-note">{esc(ui(lg, "glossary.avoid"))}{words}</span>'


def _text_html(text: str) -> str:
    """A definition: escaped, its `code spans` (commands, files, data fields) as code."""
    parts = text.split("`")
    return "".join(
        f"<code>{esc(p)}</code>" if i % 2 else esc(p) for i, p in enumerate(parts) if p or i % 2
    )


def _term_html(t: Term, lg: str) -> str:
    head = f"<strong>{esc(t.word(lg))}</strong> · {_other_word(t, lg)}"
    return (
        f'<dt id="{anchor(t.id)}">{head}</dt>'
        f"<dd>{_text_html(t.definition(lg))}{_avoided(t, lg)}</dd>"
    )


def _section_html(s: Section, lg: str) -> str:
    body = "".join(_term_html(t, lg) for t in s.terms)
    return f'\n## {esc(s.title(lg))}\n\n<dl class="lb-glossary">{body}</dl>\n'


def glossary_page(ctx: Context) -> str:
    """Every section of the glossary, in the file's order."""
    lg = ctx.lg
    parts = [
        front_matter(search_exclude=False) + f"# {esc(ui(lg, 'glossary.title'))}\n",
        ui(lg, "glossary.intro") + "\n",
    ]
    parts += [_section_html(s, lg) for s in glossary()]
    return "\n".join(parts)

"""The methodology page's section on what the answers did: the outcome classes and
their precedence (scoring/outcome.py), truthfulness and the answer rate (stats/outcomes.py), the
closed-book figures (stats/closed_book.py), risk-coverage (stats/risk_coverage.py), and the caveat
of chen700564/RGB issue #9 in plain words. The short answer first, the definitions one click
away."""

from __future__ import annotations

from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui

RGB_ISSUE_9 = "https://github.com/chen700564/RGB/issues/9"
PARTS = ("outcomes", "truthfulness", "answer_rate", "closed_book", "risk_coverage")


def outcomes_section(lg: str) -> str:
    link = f'<a href="{esc(RGB_ISSUE_9)}">chen700564/RGB #9</a>'
    items = "".join(
        f"<dt>{esc(ui(lg, f'mout.{p}'))}</dt><dd>{esc(ui(lg, f'mout.{p}_def'))}</dd>" for p in PARTS
    )
    return (
        f"\n## {ui(lg, 'mout.h')}\n\n"
        f"<p>{esc(ui(lg, 'mout.lead'))}</p>\n\n"
        f"<p>{ui(lg, 'mout.caveat', link=link)}</p>\n\n"
        f'<details class="lb-all"><summary>{esc(ui(lg, "mout.details"))}</summary>\n'
        f'<dl class="lb-defs">{items}</dl>\n</details>\n'
    )

"""Compare two models: a static page where the reader picks two entries (`?a=…&b=…` in the URL)
and assets/compare.js shows, per language and ability, both scores with their intervals, their
paired difference with the interval the rank ranges use, and their outcome shares side by side.

No number is computed in the browser. The scores and outcome shares are the board's downloads
(`board-scores.json`, `board-outcomes.json`, from results.json); the paired differences are
`paired-differences.json`, written here from the build's comparisons (board.paired.compare_all:
stats.ranked's paired cluster bootstrap on the questions both answered, the same numbers that
narrow the rank ranges). The script only looks them up, flips the sign when B sorts before A, and
formats them as the page's language writes numbers.
"""

from __future__ import annotations

import json

from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.core.types import ABILITIES, LANGS, MODES
from leaderboard.site.render.fmt import esc, json_for_script
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, prefix_for, shown_name

PATH = "compare.md"
PAIRED_FILE = "downloads/paired-differences.json"
# the page's words, handed to the script (assets/compare.js) in the page's language
JS_KEYS = (
    "pick_a",
    "pick_b",
    "mode",
    "col_ability",
    "col_a",
    "col_b",
    "col_diff",
    "col_n",
    "col_verdict",
    "a_higher",
    "b_higher",
    "tied",
    "no_pair",
    "same",
    "outcomes_title",
    "col_model",
    "correct",
    "refused",
    "error_claimed",
    "wrong",
    "scores_title",
    "loading",
    "failed",
    "link",
)


def paired_file(ctx: Context) -> bytes:
    """The paired differences of every pair of entries, as records (board.paired)."""
    rows = ctx.data.comparisons.rows() if ctx.data.comparisons is not None else []
    doc = {"differences": rows}
    return (json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


def compare_page(ctx: Context) -> str:
    """The page in `ctx.lg`; writes the paired differences next to the other downloads."""
    data, lg = ctx.data, ctx.lg
    ctx.out.files[PAIRED_FILE] = paired_file(ctx)
    entries = sorted(
        data.submissions, key=lambda s: (is_trivial_baseline(s.results), s.results.display_name)
    )
    strings = {k: ui(lg, f"compare.js.{k}") for k in JS_KEYS}
    strings |= {f"lang.{x}": ui(lg, f"lang.{x}") for x in LANGS}
    strings |= {f"ability.{a}": ui(lg, f"ability.{a}") for a in ("overall", *ABILITIES)}
    strings |= {f"mode.{m}": ui(lg, f"mode.{m}") for m in MODES}
    strings["range_word"] = ui(lg, "compare.range_word")
    strings["minus"] = "-" if lg == "en" else "\u2212"
    setup = {
        "entries": [
            {
                "id": s.id,
                "name": shown_name(s.id, s.results.display_name, lg),
                "baseline": is_trivial_baseline(s.results),
            }
            for s in entries
        ],
        "langs": list(LANGS),
        "abilities": ["overall", *ABILITIES],
        "modes": list(MODES),
        "ranked_mode": "strict",
        "downloads": prefix_for(PATH) + "downloads/",
        "strings": strings,
    }
    return "\n".join(
        [
            f"# {ui(lg, 'compare.title')}\n",
            ui(lg, "compare.intro") + "\n",
            '\n<div id="lb-compare" class="lb-compare"><noscript>'
            f"{esc(ui(lg, 'compare.noscript'))}</noscript></div>\n",
            '\n<script type="application/json" id="lb-compare-setup">'
            + json_for_script(setup)
            + "</script>\n",
            ui(lg, "compare.method") + "\n",
        ]
    )

"""Pure page builders: SiteData in, Markdown (with escaped raw-HTML blocks) out.

Nothing here touches the file system; build.py writes what these return. Pages are keyed by their
path under docs/ (use_directory_urls is off, so a raw-HTML link is relative to the page's .md path).

The builders live in one module per page family (page_common for what they share, home_pages,
zh_vs_en_page, index_pages); this module re-exports their public names, where callers import them.
"""

from __future__ import annotations

from leaderboard.site.home_pages import (
    HOME_INTRO,
    HOW_TO_SUBMIT,
    home_page,
    ranking_table,
)
from leaderboard.site.index_pages import downloads_page, models_index_page
from leaderboard.site.page_common import (
    ABILITY_NAMES,
    LANG_NAMES,
    MODE_NAMES,
    SHORT_NAMES,
    Output,
    badge,
    definitions,
    front_matter,
    model_cell,
    prefix_for,
    reported_cell,
)
from leaderboard.site.zh_vs_en_page import zh_vs_en_page

__all__ = [
    "ABILITY_NAMES",
    "HOME_INTRO",
    "HOW_TO_SUBMIT",
    "LANG_NAMES",
    "MODE_NAMES",
    "SHORT_NAMES",
    "Output",
    "badge",
    "definitions",
    "downloads_page",
    "front_matter",
    "home_page",
    "model_cell",
    "models_index_page",
    "prefix_for",
    "ranking_table",
    "reported_cell",
    "zh_vs_en_page",
]

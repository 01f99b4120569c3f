"""board.cite: BibTeX for RGB and for a release of the board."""

from __future__ import annotations

from leaderboard.board.cite import RGB_BIBTEX, release_bibtex
from leaderboard.board.load import load_site_data
from leaderboard.board.release import freeze
from tests.site_factory import make_repo


def test_bibtex_names_the_release_and_rgb(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    release = freeze(load_site_data(root, with_predictions=False), "2026.12.0", "2026-12-03")
    text = release_bibtex(release)
    assert text.startswith("@misc{rgbboard2026_12_0,") and "board-2026.12.0" in text
    assert release.digest in text and "year         = {2026}" in text
    assert text.count("{") == text.count("}") and RGB_BIBTEX.count("{") == RGB_BIBTEX.count("}")
    assert "10.1609/aaai.v38i16.29728" in RGB_BIBTEX

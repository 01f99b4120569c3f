"""How to cite: BibTeX for the RGB paper and for a release of this board (board.release), the
one text the home page and the Releases page show (docs/releases.md quotes it)."""

from __future__ import annotations

from leaderboard.board.release import Release

BOARD_NAME = "RGB bilingual RAG leaderboard"
TAG_PREFIX = "board-"  # the git tag of a release (cli/release.py)

RGB_BIBTEX = """@inproceedings{chen2024benchmarking,
  title     = {Benchmarking Large Language Models in Retrieval-Augmented Generation},
  author    = {Chen, Jiawei and Lin, Hongyu and Han, Xianpei and Sun, Le},
  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence},
  volume    = {38},
  number    = {16},
  pages     = {17754--17762},
  year      = {2024},
  doi       = {10.1609/aaai.v38i16.29728},
  url       = {https://arxiv.org/abs/2309.01431}
}"""


def bibtex_key(release_id: str) -> str:
    return "rgbboard" + "".join(ch if ch.isalnum() else "_" for ch in release_id)


def release_bibtex(release: Release) -> str:
    """A @misc entry naming the release, its date, digest, scoring versions and git tag."""
    year = release.date[:4]
    scoring = ", ".join(release.scoring_versions) or "none"
    return (
        f"@misc{{{bibtex_key(release.id)},\n"
        f"  title        = {{{{{BOARD_NAME}}}, release {release.id}}},\n"
        f"  year         = {{{year}}},\n"
        f"  howpublished = {{Board release {release.id} of {release.date}, git tag "
        f"{TAG_PREFIX}{release.id}}},\n"
        f"  note         = {{{len(release.entries)} entries; scoring version {scoring}; digest "
        f"{release.digest}; results in releases/{release.id}/board.csv. Measured on the RGB "
        f"benchmark \\cite{{chen2024benchmarking}}}}\n"
        "}"
    )

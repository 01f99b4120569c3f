"""The static leaderboard site (mkdocs-material): load results, render pages, build, serve."""

from __future__ import annotations

__all__ = ["build_site"]


def build_site(repo_root, out_dir=None, strict: bool = True):
    """See leaderboard.site.build.build_site (imported lazily: matplotlib is slow to import)."""
    from leaderboard.site.build import build_site as _build

    return _build(repo_root, out_dir, strict)

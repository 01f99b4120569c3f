"""Site: the static leaderboard (mkdocs-material), rendered from the board.

In: the loaded board (`leaderboard.board`). Out: site/docs/ (Markdown pages, SVG charts, CSV/JSON
downloads, copied submission files) and site/build/ (mkdocs). `build.render` is pure; `build.
build_site` does the I/O; `pages/` holds one module per page family and `render/` what they share.
"""

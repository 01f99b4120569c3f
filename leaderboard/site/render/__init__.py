"""Render: formatting, HTML tables, SVG charts and what every page shares. No file I/O."""

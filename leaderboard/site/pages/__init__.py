"""Pages: one module per page family, each a pure function from the loaded board to Markdown."""

"""Pages, one per page family: a family with parts is a folder (`model/`, `zh_en/`, `ability/`,
`methodology/`, `instances/`, `retrieval/`: `page.py` and its parts), a single page one module;
each a pure function from the loaded board to Markdown."""

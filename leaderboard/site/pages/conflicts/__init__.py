"""The knowledge-conflict page family: the page (page.py) and its example browser (examples.py)."""

"""The methodology page family: the page (page.py) and its parts, one module each."""

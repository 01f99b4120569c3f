"""The column table (site/render/columns.py): every column declared once, its label and tooltip in
both languages' message tables, and every page's columns taken from it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from leaderboard.site.render.columns import COLUMNS, column, columns
from leaderboard.site.render.i18n import SITE_LANGS, table
from leaderboard.site.render.tables import Column

SITE = Path(__file__).resolve().parents[2] / "leaderboard" / "site"


def _names(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("lang", SITE_LANGS)
def test_every_label_and_tip_is_in_the_message_table(lang: str) -> None:
    messages = table(lang)
    missing = [
        f"{cid}: {key}"
        for cid, spec in COLUMNS.items()
        for key in ((spec.tip,) if spec.plain else (spec.label, spec.tip))
        if key is not None and key not in messages
    ]
    assert not missing, f"not in the {lang} message table: {missing}"


@pytest.mark.parametrize("lang", SITE_LANGS)
def test_every_column_renders(lang: str) -> None:
    """Each id gives a column in each language once its {name}s are filled: a key, a label."""
    for cid, spec in COLUMNS.items():
        texts = [spec.key or "", spec.label if spec.plain else table(lang)[spec.label]]
        texts.append(table(lang)[spec.tip] if spec.tip else "")
        values = {n: "x" for t in texts for n in _names(t)}
        col = column(cid, lang, **values)
        assert col.key and col.label, cid
        assert col.numeric == spec.numeric, cid
        assert (col.title is None) == (spec.tip is None), cid


def test_a_column_reads_as_declared() -> None:
    assert column("decision.rej_rgb", "en") == Column(
        "rej_rgb",
        table("en")["decision.rej_rgb"],
        True,
        table("en")["decision.rej_rgb_tip"],
    )
    got = column("agree.p", "zh", mode="strict")
    assert got.key == "strict_p"
    assert got.label == table("zh")["agree.col_p"].format(mode="strict")
    # a column that declares no tooltip takes the data's definition; one that does keeps its own
    assert column("rank.overall", "en", definition="d").title == "d"
    assert column("rank.n", "en", definition="d").title == table("en")["col.n_tip"]
    got = columns("en", "col.model", "card.score", lang="zh", mode="rgb", mode_name="rgb")
    assert [(c.key, c.label) for c in got[1:]] == [("zh_rgb", "zh rgb")]
    with pytest.raises(KeyError, match=r"no column 'nope\.x' in .*render/columns\.py"):
        column("nope.x", "en")


def test_no_page_spells_a_column() -> None:
    """Pages (and render/ helpers) build columns only through render.columns: no `Column(...)`
    call anywhere in site/ but the table's own module (and tables.py, which defines it)."""
    allowed = {SITE / "render" / "columns.py", SITE / "render" / "tables.py"}
    bad = []
    for path in sorted(SITE.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Column":
                bad.append(f"{path.relative_to(SITE)}:{node.lineno}")
    assert not bad, f"columns spelled outside render/columns.py: {bad}"

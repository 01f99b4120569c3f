"""Formatting and escaping shared by every page builder.

All untrusted text (model outputs, data, names from YAML) reaches HTML only through `esc`, and JSON
embedded in a page only through `json_for_script`, so no input can open or close a tag.
"""

from __future__ import annotations

import html
import json
import re

# Embedding and override controls: in a title or chart label they reorder the text around them
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")


def plain_line(text: str, limit: int) -> str:
    """Outside text as one plain line: printable characters only (NUL is not allowed in SVG or a
    page title), bidi controls dropped (they reorder the text around them), whitespace runs as one
    space, at most `limit` characters (the last one "…" when cut)."""
    clean = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if (ch.isprintable() or ch.isspace()) and ch not in BIDI_CONTROLS
    )
    clean = " ".join(clean.split())
    return clean[: limit - 1] + "…" if len(clean) > limit else clean


def esc(text: object) -> str:
    """HTML-escape any value (quotes too, so it is safe inside attributes)."""
    return html.escape("" if text is None else str(text), quote=True)


def inline_code(text: object) -> str:
    """Escape text for HTML and show its `backtick` spans as code (a command in a message)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text))


def md_text(text: object) -> str:
    """Escape text for a Markdown line (headings): HTML first, then Markdown punctuation."""
    return _MD_SPECIAL.sub(r"\\\1", esc(text).replace("\n", " "))


def json_for_script(obj: object) -> str:
    """Serialise for a <script type="application/json"> block.

    '<', '>' and '&' become \\u escapes so '</script>' or '<!--' inside data can never end the
    block; U+2028/2029 are escaped for old parsers. Keys are sorted so output is byte-stable.
    """
    text = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


MINUS = "\u2212"  # the typographic minus: zh pages write "zh − en" with it, so numbers match
# How a range of numbers reads when a bound is negative (a dash between signs misreads), per
# site language; the default language keeps the ASCII hyphen-minus its downloads and tests use.
_RANGE_WORD = {"en": " to ", "zh": " 至 "}


def pct(value: float | None, digits: int = 1, lg: str = "en") -> str:
    """A fraction as a percentage without the % sign ('81.3'); '—' when missing. On a page of
    another language than English a negative value carries U+2212, as that page's prose does."""
    if value is None:
        return "—"
    text = f"{100.0 * value:.{digits}f}"
    return text if lg == "en" else text.replace("-", MINUS)


def pct_ci(ci: tuple[float, float] | None, lg: str = "en") -> str:
    """Bounds joined by an en dash, or by the page language's word for "to" when one is negative
    ("-7.5 to -0.8", "−7.5 至 −0.8")."""
    if ci is None:
        return ""
    sep = _RANGE_WORD.get(lg, _RANGE_WORD["en"]) if min(ci) < 0 else "–"
    return f"{pct(ci[0], lg=lg)}{sep}{pct(ci[1], lg=lg)}"


def decimal(value: float | None, digits: int = 2, lg: str = "en") -> str:
    """A number that is not a rate (a kappa: '0.41'), written as `pct` writes a percentage."""
    if value is None:
        return "—"
    text = f"{value:.{digits}f}"
    return text if lg == "en" else text.replace("-", MINUS)


def decimal_ci_html(value: float | None, ci: tuple[float, float] | None, lg: str = "en") -> str:
    """A number with its CI underneath, as `rate_html` shows a rate (bounds joined as there)."""
    body = esc(decimal(value, lg=lg))
    if ci is not None:
        sep = _RANGE_WORD.get(lg, _RANGE_WORD["en"]) if min(ci) < 0 else "–"
        bounds = f"{decimal(ci[0], lg=lg)}{sep}{decimal(ci[1], lg=lg)}"
        body += f' <span class="lb-ci">{esc(bounds)}</span>'
    return body


def rate_html(value: float | None, ci: tuple[float, float] | None, lg: str = "en") -> str:
    """A rate as a table shows it: the percentage, its CI underneath (escaped, in `lg`)."""
    body = esc(pct(value, lg=lg))
    if ci is not None:
        body += f' <span class="lb-ci">{esc(pct_ci(ci, lg))}</span>'
    return body


def signed_pct(value: float | None, lg: str = "en") -> str:
    """A difference as a signed percentage ('+3.0', '-5.0'); on a page of another language than
    English the minus is U+2212, as `pct` writes that page's values beside it."""
    if value is None:
        return "—"
    text = f"{100.0 * value:+.1f}"
    return text if lg == "en" else text.replace("-", MINUS)


def rate_key(noise_rate: float) -> str:
    """Noise rates in file names and keys: 0.2 -> '0.2' (one decimal, as TestInstance.key)."""
    return f"{noise_rate:.1f}"


def slug(text: str) -> str:
    """A file-name-safe form of an id (ids are already slugs; this is defence in depth)."""
    out = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    return out or "x"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 model", "2 models": English count phrases (Chinese needs no plural form)."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"

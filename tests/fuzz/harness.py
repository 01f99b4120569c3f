"""What every fuzz case asserts, and the hostile material the strategies draw from.

A parser of outside input may do exactly two things with any bytes: succeed, or raise a
LeaderboardError whose every line names the file. Anything else (another exception, i.e. a
traceback for the user; running past the per-case time limit, i.e. a hang) fails the case.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

from hypothesis import strategies as st

from leaderboard.core.errors import LeaderboardError

CASE_SECONDS = 5.0  # per case: the slowest legitimate parse here takes well under 0.5 s

# script and event-handler payloads, tag breakers, URLs, Markdown / attr_list / Jinja syntax,
# bidi controls, NUL, U+FFFD (what invalid UTF-8 becomes when decoded), spreadsheet formulas
HOSTILE = (
    "</title><script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '"><svg onload=alert(3)>',
    "'><a href=javascript:alert(4)>a</a>",
    "</script><script>alert(5)</script>",
    "javascript:alert(6)",
    "[md](javascript:alert(7)) **b** <!--c--> `c` {: onclick=alert(8) }",
    "{{ config }}{% raw %}{{ 7*7 }}",
    "\u202eevil\u2066x\u2069\u200f",
    "a\x00b\x1b[31m",
    "\ufffd\ufffe",
    '=HYPERLINK("http://example.com")',
    "$\\frac{1$ _x ^y",
    "p1\n\n[x](javascript:alert(9))\n\n# h",
    "<iframe src=//example.com></iframe><link rel=stylesheet href=http://example.com/x.css>",
    "<style>body{display:none}</style>",
)
BIG = "A" * 1_000_000  # 1 MB
RAW_FRAGMENTS = (
    b"\xff\xfe",
    b"\xc3\x28",
    b"\x00",
    b"\xed\xa0\x80",  # an encoded surrogate: not UTF-8
    b"&a ",
    b"*a ",
    b"<<: *a",
    b"!!python/object/apply:os.system ['true']",
    b"[" * 3000,
    b"{a: " * 3000,
    b"NaN",
    b"-Infinity",
    b"1e999",
    b"9" * 5000,
    b'"\\ud800"',
    b"\x1f\x8b\x08\x00",
    b"\n",
    b"\r\n",
    b"\t",
    b": ",
    b"- ",
    b"{",
    b"}",
    b'"',
)


class CaseTimeout(Exception):
    """The parser ran past CASE_SECONDS (a hang, as far as a user can tell)."""


@contextlib.contextmanager
def time_limit(seconds: float = CASE_SECONDS) -> Iterator[None]:
    def expire(signum, frame):
        raise CaseTimeout(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def assert_clean(parse: Callable[[Path], object], path: Path) -> object | None:
    """Run `parse(path)`: success returns its value; a LeaderboardError must name the file on
    every line; any other exception or a timeout propagates and fails the case."""
    try:
        with time_limit():
            return parse(path)
    except LeaderboardError as exc:
        text = str(exc)
        assert text.strip(), "empty error message"
        for line in text.splitlines():
            assert path.name in line, f"error line does not name {path.name}: {line[:300]!r}"
        return None


# ------------------------------------------------------------------------ strategies

hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=40),
    st.sampled_from(("", " ", "auto", "none", "0", "-1", "true", "1e400", "é" * 300)),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated_bytes(draw, seed: bytes) -> bytes:
    """The seed file damaged the way files get damaged: cut, spliced with hostile fragments,
    bytes flipped, or replaced by noise."""
    kind = draw(st.sampled_from(("splice", "truncate", "flip", "noise", "repeat")))
    if kind == "noise":
        return draw(st.binary(max_size=300))
    if kind == "truncate":
        return seed[: draw(st.integers(0, len(seed)))]
    if kind == "repeat":
        return seed * draw(st.integers(2, 4))
    at = draw(st.integers(0, len(seed)))
    if kind == "flip":
        n = draw(st.integers(1, 8))
        return seed[:at] + draw(st.binary(min_size=n, max_size=n)) + seed[at + n :]
    frag = draw(st.one_of(st.sampled_from(RAW_FRAGMENTS), st.sampled_from(HOSTILE).map(str.encode)))
    cut = draw(st.integers(0, 20))
    return seed[:at] + frag + seed[at + cut :]


def paths_of(obj: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value in a JSON-like tree (for replacing one field)."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths_of(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            out += paths_of(v, (*prefix, i))
    return out


def replaced(obj: object, path: tuple, value: object) -> object:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {**obj, head: replaced(obj[head], rest, value)}
    copy = list(obj)  # type: ignore[arg-type]
    copy[head] = replaced(copy[head], rest, value)
    return copy


@st.composite
def field_replaced(draw, seed: object) -> object:
    """The seed document with one field (at any depth) given a hostile value, or deleted."""
    path = draw(st.sampled_from(paths_of(seed)))
    if path and isinstance(path[-1], str) and draw(st.booleans()) and draw(st.booleans()):
        parent = path[:-1]
        node = seed
        for p in parent:
            node = node[p]
        return replaced(seed, parent, {k: v for k, v in node.items() if k != path[-1]})
    return replaced(seed, path, draw(json_values))


def dump_json(obj: object) -> bytes:
    return json.dumps(obj, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)

"""How the commands print numbers and tables in a terminal: percentages with 95% CIs, and one
rich console width so tables wrap the same way in every command."""

from __future__ import annotations

from rich.console import Console


def pct(x: float | None) -> str:
    """A rate as a percentage with one decimal; "-" where there is no value."""
    return "-" if x is None else f"{100 * x:.1f}"


def pct_ci(ci: tuple[float, float] | None) -> str:
    """A CI as " [lo, hi]" in percent, to append to `pct`; empty where there is none."""
    return "" if ci is None else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def console() -> Console:
    """A console 140 columns wide: the cell tables need it, and a fixed width keeps output the
    same in a pipe and in a terminal."""
    return Console(highlight=False, soft_wrap=False, width=140)

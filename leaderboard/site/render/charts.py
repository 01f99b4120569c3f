"""Charts drawn with matplotlib into SVG text (no hand-written SVG).

Output is byte-stable for the same input: a fixed hash salt for element ids, no date metadata, text
kept as text (svg.fonttype none: smaller files, and the browser's CJK fonts render any Chinese
label). Every chart is embedded with alt text by the page builders; the numbers are always also in a
table.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from leaderboard.site.render.fmt import plain_line
from leaderboard.site.render.i18n import DEFAULT, ui

_RC = {
    "svg.hashsalt": "rgb-leaderboard",
    "svg.fonttype": "none",
    "font.family": ["sans-serif"],
    "font.sans-serif": ["DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "path.simplify": True,
    "text.parse_math": False,  # a "$" in a model name is text, not mathtext (which can fail)
}
MAX_LABEL = 60
MAX_TITLE = 160
MAX_LEGEND = 24


@dataclass(frozen=True)
class Series:
    label: str
    x: tuple[float, ...]
    y: tuple[float | None, ...]
    low: tuple[float | None, ...] = ()
    high: tuple[float | None, ...] = ()
    reported: bool = False  # drawn dashed and grey: a paper's number, not measured here
    cliff: tuple[float, float] | None = None  # noise cliff: the rates of the largest drop
    half: float | None = None  # noise cliff: first rate below half of the noise-0 accuracy


def _cliff_marks(ax, s: Series, color, lg: str = DEFAULT) -> None:
    """The largest drop as a thick translucent segment labelled "cliff", the below-half rate as a
    black-edged triangle."""
    acc = {x: y for x, y in zip(s.x, s.y, strict=True) if y is not None}
    if s.cliff is not None and all(r in acc for r in s.cliff):
        xs, ys = list(s.cliff), [100 * acc[r] for r in s.cliff]
        ax.plot(xs, ys, color=color, linewidth=8, alpha=0.35, zorder=1, solid_capstyle="round")
        ax.annotate(
            ui(lg, "chart.cliff"),
            (sum(xs) / 2, sum(ys) / 2),
            textcoords="offset points",
            xytext=(6, 6),
            color=color,
            fontsize=7,
            fontweight="bold",
        )
    if s.half is not None and s.half in acc:
        ax.plot(
            [s.half],
            [100 * acc[s.half]],
            marker="v",
            markersize=8,
            color=color,
            markeredgecolor="black",
            linestyle="none",
            zorder=3,
        )


def label(text: str, limit: int = MAX_LABEL) -> str:
    """Outside text as a chart label: printable characters only (NUL is not allowed in SVG, bidi
    controls reorder the text around them), one line, at most MAX_LABEL characters (a 1 MB name
    would take matplotlib minutes to lay out). Matplotlib escapes what is left for XML; a leading
    "_" is kept visible (matplotlib hides legend entries whose label starts with one)."""
    clean = plain_line(text, limit)
    return "\u200b" + clean if clean.startswith("_") else clean or "?"


def _svg(fig) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():
        # Chinese chart text: the SVG keeps it as text (svg.fonttype none) and the browser's
        # CJK fonts draw it, so matplotlib's "Glyph ... missing from font(s)" is no defect.
        warnings.filterwarnings(
            "ignore", message="Glyph .* missing from font", category=UserWarning
        )
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, facecolor="white")
    plt.close(fig)
    return buf.getvalue()


def _legend(ax, n: int, lg: str = DEFAULT) -> None:
    if n == 0:
        return
    if n <= MAX_LEGEND:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=7)
    else:
        ax.text(1.01, 1.0, ui(lg, "chart.many_series", n=n), transform=ax.transAxes, va="top")


def noise_curve(series: list[Series], title: str, lg: str = DEFAULT) -> str:
    """Accuracy (%) against noise rate, one line per model, shaded 95% CI; words in `lg`."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=100)
        measured = [s for s in series if not s.reported]
        colors = plt.get_cmap("tab20" if len(measured) > 10 else "tab10")
        for i, s in enumerate(series):
            pts = [(x, y) for x, y in zip(s.x, s.y, strict=True) if y is not None]
            if not pts:
                continue
            xs, ys = zip(*pts, strict=True)
            if s.reported:
                ax.plot(
                    xs,
                    [100 * y for y in ys],
                    linestyle="--",
                    color="0.55",
                    marker="x",
                    linewidth=1,
                    label=ui(lg, "chart.reported_series", name=label(s.label)),
                )
                continue
            color = colors(i % colors.N)
            ax.plot(
                xs,
                [100 * y for y in ys],
                marker="o",
                markersize=3,
                linewidth=1.4,
                color=color,
                label=label(s.label),
            )
            _cliff_marks(ax, s, color, lg)
            if len(series) <= MAX_LEGEND:
                ci_band(ax, s, color, alpha=0.12)
        ax.set_xlabel(ui(lg, "chart.noise_rate"))
        ax.set_ylabel(ui(lg, "chart.accuracy"))
        ax.set_ylim(0, 100)
        xs_all = sorted({x for s in series for x in s.x})
        if xs_all:
            ax.set_xticks(xs_all)
        ax.set_title(label(title, MAX_TITLE), loc="left")
        ax.grid(True, alpha=0.3)
        _legend(ax, len(series), lg)
        # fixed margins instead of tight_layout: one draw less per chart (100 model pages)
        fig.subplots_adjust(left=0.08, right=0.7, bottom=0.13, top=0.9)
        return _svg(fig)


def bars(labels: list[str], values: list[float | None], title: str, xlabel: str) -> str:
    """Horizontal bars (rejection, counterfactual detection) for one metric across models."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(7.5, max(1.8, 0.26 * len(labels) + 1.0)), dpi=100)
        ys = list(range(len(labels)))[::-1]
        ax.barh(ys, [0 if v is None else 100 * v for v in values], color="#4c72b0")
        ax.set_yticks(ys)
        ax.set_yticklabels([label(x) for x in labels], fontsize=7)
        ax.set_xlim(0, 100)
        ax.set_xlabel(xlabel)
        ax.set_title(label(title, MAX_TITLE), loc="left")
        ax.grid(True, axis="x", alpha=0.3)
        fig.subplots_adjust(
            left=0.3,
            right=0.97,
            bottom=0.9 / fig.get_figheight(),
            top=1 - 0.45 / fig.get_figheight(),
        )
        return _svg(fig)


def heatmap(
    rows: list[str],
    cols: list[str],
    values: list[list[float | None]],
    title: str,
    xlabel: str,
    ylabel: str,
    missing: str = "not run",
) -> str:
    """A grid of fractions shown as percentages, each cell annotated; a missing cell is grey
    and marked `missing` (the retrieval chunking grid)."""
    import numpy as np

    data = np.array([[np.nan if v is None else 100 * v for v in r] for r in values], dtype=float)
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(3.6, 2.6), dpi=100)
        cmap = plt.get_cmap("viridis").copy()
        cmap.set_bad("0.85")
        finite = data[np.isfinite(data)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 100.0)
        if hi - lo < 1e-6:  # all cells equal: one mid colour, not the darkest
            lo, hi = lo - 1.0, hi + 1.0
        ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=lo, vmax=hi)
        for i in range(len(rows)):
            for j in range(len(cols)):
                v = data[i, j]
                text = missing if np.isnan(v) else f"{v:.1f}"
                dark = not np.isnan(v) and (v - lo) / (hi - lo) < 0.45
                colour = "white" if dark else "black"
                ax.text(j, i, text, ha="center", va="center", fontsize=8, color=colour)
        ax.set_xticks(range(len(cols)))
        ax.set_xticklabels(cols)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(rows)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title, loc="left", fontsize=8)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        fig.subplots_adjust(left=0.22, right=0.98, bottom=0.2, top=0.88)
        return _svg(fig)


def stacked_bars(
    labels: list[str],
    parts: list[tuple[str, str, list[float]]],
    title: str,
    xlabel: str = "share of questions (%)",
    legend_cols: int | None = None,
) -> str:
    """One horizontal bar per label split into shares (name, colour, values summing to 1 per
    bar): the chain attribution per model and language, the conflict outcomes. Legend under the
    axis, in one row, or in rows of `legend_cols` (many or long names: the conflict outcomes)."""
    if legend_cols is not None:
        return _stacked_wrapped(labels, parts, title, xlabel, legend_cols)
    with plt.rc_context(_RC):
        height = max(2.2, 0.32 * len(labels) + 1.6)
        fig, ax = plt.subplots(figsize=(7.5, height), dpi=100)
        ys = list(range(len(labels)))[::-1]
        left = [0.0] * len(labels)
        for name, color, values in parts:
            widths = [100 * v for v in values]
            ax.barh(ys, widths, left=left, color=color, label=name, height=0.7)
            left = [a + b for a, b in zip(left, widths, strict=True)]
        ax.set_yticks(ys)
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_xlim(0, 100)
        ax.set_xlabel(xlabel)
        ax.set_title(title, loc="left")
        ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.9 / height * 1.6),
            ncol=len(parts),
            frameon=False,
            fontsize=7,
        )
        fig.subplots_adjust(left=0.36, right=0.97, bottom=1.3 / height, top=1 - 0.4 / height)
        return _svg(fig)


def _stacked_wrapped(
    labels: list[str],
    parts: list[tuple[str, str, list[float]]],
    title: str,
    xlabel: str,
    cols: int,
) -> str:
    """stacked_bars with its legend in rows of `cols`, placed in figure inches so it never
    overlaps the axis label whatever the number of bars."""
    rows = -(-len(parts) // max(cols, 1))
    below = 0.55 + 0.2 * rows  # the axis label, then the legend's rows (inches)
    with plt.rc_context(_RC):
        height = max(2.2, 0.34 * len(labels) + 0.45 + below)
        fig, ax = plt.subplots(figsize=(7.5, height), dpi=100)
        ys = list(range(len(labels)))[::-1]
        left = [0.0] * len(labels)
        for name, color, values in parts:
            widths = [100 * v for v in values]
            ax.barh(ys, widths, left=left, color=color, label=label(name), height=0.7)
            left = [a + b for a, b in zip(left, widths, strict=True)]
        ax.set_yticks(ys)
        # a label of two lines (a name, then what the bar is) keeps both readable
        ax.set_yticklabels(["\n".join(label(p) for p in x.split("\n")) for x in labels], fontsize=7)
        ax.set_xlim(0, 100)
        ax.set_ylim(-0.6, len(labels) - 0.4)
        ax.set_xlabel(xlabel)
        # the title from the figure's left edge: over the axis alone a long one runs off the right
        fig.suptitle(label(title, MAX_TITLE), x=0.01, y=1 - 0.08 / height, ha="left", fontsize=8)
        fig.legend(
            loc="lower center",
            bbox_to_anchor=(0.5, 0.04 / height),
            ncol=cols,
            frameon=False,
            fontsize=7,
        )
        fig.subplots_adjust(left=0.4, right=0.97, bottom=below / height, top=1 - 0.4 / height)
        return _svg(fig)


def ci_band(ax: Any, s: Series, color: Any, alpha: float) -> None:
    """A series' 95% interval as a shaded band (where at least two points have both bounds)."""
    band = [
        (x, lo, hi)
        for x, lo, hi in zip(s.x, s.low, s.high, strict=False)
        if lo is not None and hi is not None
    ]
    if len(band) >= 2:
        bx, blo, bhi = zip(*band, strict=True)
        ax.fill_between(
            bx,
            [100 * v for v in blo],
            [100 * v for v in bhi],
            color=color,
            alpha=alpha,
            linewidth=0,
        )


def risk_coverage(
    series: list[tuple[str, tuple[float, ...], tuple[float, ...]]],
    title: str,
    xlabel: str,
    ylabel: str,
) -> str:
    """Selective accuracy (%) against coverage (%), coverage falling from 100 % to the left:
    one line per (label, coverages, accuracies)."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(6.0, 3.2), dpi=100)
        for label_text, cov, acc in series[:MAX_LEGEND]:
            ax.plot(
                [100 * c for c in cov],
                [100 * a for a in acc],
                marker="o",
                markersize=2.5,
                linewidth=1.2,
                label=label(label_text),
            )
        ax.set_xlim(100, 0)
        ax.set_ylim(0, 100)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(label(title, MAX_TITLE), loc="left")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False, fontsize=7)
        fig.subplots_adjust(left=0.1, right=0.98, bottom=0.42, top=0.9)
        return _svg(fig)


@dataclass(frozen=True)
class Point:
    """One point of a scatter: `group` picks its colour (a model), `kind` its marker (an
    instruction), both named in the legend; the bars are the 95% intervals of x and y."""

    group: str
    kind: str
    x: float
    y: float
    x_ci: tuple[float, float] | None = None
    y_ci: tuple[float, float] | None = None


_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def scatter(points: list[Point], title: str, xlabel: str, ylabel: str) -> str:
    """Percentages against percentages with interval bars: which instruction moves which model
    where (the instruction track's first chart). Colours by group, markers by kind, one legend
    entry each, both axes 0-100."""
    groups = list(dict.fromkeys(p.group for p in points))
    kinds = list(dict.fromkeys(p.kind for p in points))
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=100)
        colours = plt.get_cmap("tab10")
        for p in points:
            colour = colours(groups.index(p.group) % 10)
            marker = _MARKERS[kinds.index(p.kind) % len(_MARKERS)]
            xerr = [[100 * (p.x - p.x_ci[0])], [100 * (p.x_ci[1] - p.x)]] if p.x_ci else None
            yerr = [[100 * (p.y - p.y_ci[0])], [100 * (p.y_ci[1] - p.y)]] if p.y_ci else None
            ax.errorbar(
                100 * p.x, 100 * p.y, xerr=xerr, yerr=yerr, fmt=marker, color=colour,
                ecolor=colour, elinewidth=0.6, alpha=0.85, markersize=6, capsize=0,
            )  # fmt: skip
        for i, g in enumerate(groups):
            ax.plot([], [], "o", color=colours(i % 10), label=label(g, MAX_LEGEND * 2))
        for i, k in enumerate(kinds):
            ax.plot([], [], _MARKERS[i % len(_MARKERS)], color="0.3", label=label(k))
        ax.set_xlim(-3, 103)
        ax.set_ylim(-3, 103)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(label(title, MAX_TITLE), loc="left")
        ax.grid(True, alpha=0.3)
        _legend(ax, len(groups) + len(kinds))
        fig.subplots_adjust(left=0.09, right=0.62, bottom=0.13, top=0.9)
        return _svg(fig)

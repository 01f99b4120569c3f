"""The quality-against-cost chart: strict overall of one language against seconds per answer and,
where recorded, peak memory, with the Pareto front (board.pareto) joined by a line. Drawn with
matplotlib like the other charts (render.charts: byte-stable SVG, text kept as text)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from leaderboard.site.render.charts import _RC, _svg, label


@dataclass(frozen=True)
class Point:
    name: str
    score: float  # a fraction
    ci: tuple[float, float] | None
    seconds: float | None  # median seconds per answer
    memory_gib: float | None  # peak memory, GiB
    front_s: bool  # on the front against seconds
    front_m: bool  # on the front against memory


def quality_cost(points: list[Point], texts: dict[str, str]) -> str:
    """Two panels side by side (seconds, memory); `texts`: title, y, x_seconds, x_memory, front,
    none (the memory panel's note when no entry recorded it)."""
    with plt.rc_context(_RC):
        fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.6), sharey=True)
        panels = (
            (axes[0], "seconds", "front_s", texts["x_seconds"], True),
            (axes[1], "memory_gib", "front_m", texts["x_memory"], False),
        )
        for ax, attr, front_attr, xlabel, log in panels:
            shown = [p for p in points if getattr(p, attr) is not None]
            for p in shown:
                x, y = getattr(p, attr), 100 * p.score
                on = getattr(p, front_attr)
                if p.ci is not None:
                    ax.errorbar(
                        [x],
                        [y],
                        yerr=[[y - 100 * p.ci[0]], [100 * p.ci[1] - y]],
                        fmt="none",
                        ecolor="#9e9e9e",
                        elinewidth=1,
                        capsize=2,
                    )
                ax.plot(
                    [x],
                    [y],
                    marker="o" if on else "s",
                    markersize=7,
                    color="#1a237e" if on else "#90a4ae",
                    linestyle="none",
                    zorder=3,
                )
                right = x >= max(getattr(q, attr) for q in shown) and len(shown) > 1
                ax.annotate(
                    label(p.name, 40),
                    (x, y),
                    textcoords="offset points",
                    xytext=(-6, 4) if right else (6, 4),
                    ha="right" if right else "left",
                    fontsize=7,
                )
            front = sorted(
                (getattr(p, attr), 100 * p.score) for p in shown if getattr(p, front_attr)
            )
            if len(front) > 1:
                ax.step(
                    [f[0] for f in front],
                    [f[1] for f in front],
                    where="post",
                    color="#1a237e",
                    linewidth=1,
                    linestyle="--",
                    label=texts["front"],
                )
                ax.legend(loc="lower right", frameon=False, fontsize=7)
            if log and shown:
                ax.set_xscale("log")
                # plain numbers (the site's charts keep mathtext off: text.parse_math False)
                ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
                ax.xaxis.set_minor_formatter(NullFormatter())
            if not shown:
                ax.text(0.5, 0.5, texts["none"], transform=ax.transAxes, ha="center", fontsize=8)
            ax.set_xlabel(xlabel)
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel(texts["y"])
        fig.suptitle(label(texts["title"], 160), fontsize=10)
        with warnings.catch_warnings():  # CJK text stays text in the SVG (render.charts._svg)
            warnings.filterwarnings("ignore", message="Glyph .* missing", category=UserWarning)
            fig.tight_layout()
        return _svg(fig)

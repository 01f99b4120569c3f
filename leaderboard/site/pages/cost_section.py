"""The home page's quality-against-cost section: each measured model's strict zh overall (the
ranked score) against its median seconds per answer and, where a run recorded it, its peak
memory, with the Pareto front marked (board.pareto): the models no other model beats on both.
Scores and costs are the ones the ranking and the model pages show (results.json,
board.facts.model_costs); trivial baselines are not models and are left out."""

from __future__ import annotations

from leaderboard.board.cost import model_costs
from leaderboard.board.pareto import pareto_front
from leaderboard.board.ranking import is_trivial_baseline, score_entry
from leaderboard.site.render.cost_chart import Point, quality_cost
from leaderboard.site.render.fmt import pct
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, shown_name

LANG = "zh"
MODE = "strict"


def _points(ctx: Context) -> list[Point]:
    raw = []
    for s in ctx.data.submissions:
        e = score_entry(s.results, LANG, "overall", MODE)
        if is_trivial_baseline(s.results) or e is None or e.value is None:
            continue
        c = model_costs(s)
        mem = c.peak_memory_bytes / 2**30 if c.peak_memory_bytes is not None else None
        raw.append((s, e.value, e.ci, c.median_s, mem))
    front_s = pareto_front([(s.id, sec, v) for s, v, _, sec, _ in raw if sec is not None])
    front_m = pareto_front([(s.id, m, v) for s, v, _, _, m in raw if m is not None])
    return [
        Point(
            shown_name(s.id, s.results.display_name, ctx.lg),
            v,
            ci,
            sec,
            mem,
            s.id in front_s,
            s.id in front_m,
        )
        for s, v, ci, sec, mem in raw
    ]


def cost_section(ctx: Context, prefix: str) -> str:
    """The section's heading, sentence and chart ("" without a measured model with a score and
    a recorded cost)."""
    lg = ctx.lg
    points = _points(ctx)
    if not any(p.seconds is not None or p.memory_gib is not None for p in points):
        return ""  # no cost recorded (results without predictions): nothing to plot against
    texts = {
        k: ui(lg, f"cost.{k}") for k in ("title", "y", "x_seconds", "x_memory", "front", "none")
    }
    described = ui(lg, "sep.list").join(
        ui(
            lg,
            "cost.point",
            name=p.name,
            score=pct(p.score, lg=lg),
            seconds="—" if p.seconds is None else f"{p.seconds:.1f}",
            memory="—" if p.memory_gib is None else f"{p.memory_gib:.1f}",
        )
        for p in points
    )
    alt = ui(lg, "cost.alt", points=described)
    chart = ctx.out.chart("quality-cost-zh", quality_cost, (points, texts), alt, prefix, lg)
    return f"\n## {ui(lg, 'cost.heading')}\n\n{ui(lg, 'cost.text')}\n{chart}"

"""Stats: scored items turned into rates with cluster-bootstrap confidence intervals.

In: `ScoredItem`s (from `leaderboard.scoring.outcome`). Out: per-cell metrics (`cells`), ability,
overall and zh-en scores (`aggregate`), paired model comparisons (`paired`);
`metrics.compute_metrics` is the one call that produces what results.json stores.
"""

"""Retrieval track: rank RGB's passages with zh/en retrievers; measure P@k, R@k, MRR, NDCG@k.

Sits beside scoring in the pipeline: it reads the data (leaderboard.data) and uses only the
dependency-free resampling helpers of leaderboard.stats.bootstrap; run/site/cli import it, never
the reverse. Results are written under the repository's top-level `retrieval/` folder.
"""
